/**
 * Approval of a definition a workspace wrote (an agent, an MCP server): before it first runs, the user sees it whole
 * in a modal that says it is the workspace's, and decides. The answer "allow" is remembered per workspace and per
 * exact definition (its fingerprint, with the content of the workspace files its command line names), so a changed
 * definition or script asks again; "no" is not remembered, so the next start asks again. A definition from the
 * user's own settings never asks.
 */
import { visibleText } from '../shared/visible-text';
import { fingerprintOf, type DefinitionOrigin } from './definition-scopes';
import { environmentReferences } from './mcp-references';
import type { RunFile } from './workspace-run-files';

/** What runs, as the dialog lists it; every string is the workspace's and is shown as plain text. */
export type RunnableDefinition =
  | {
      readonly kind: 'agent' | 'mcp server';
      readonly name: string;
      readonly command: string;
      readonly args: readonly string[];
      readonly env: Readonly<Record<string, string>>;
      /** An agent's `apiKeyEnv`: where a key stored for this definition (never the user's own) would go. */
      readonly apiKeyEnv?: string;
    }
  | {
      readonly kind: 'mcp server';
      readonly name: string;
      readonly url: string;
      readonly transport: 'http' | 'sse';
      readonly headers: Readonly<Record<string, string>>;
    };

/** The modal's text: `message` is its heading, `detail` the definition whole. Both are plain text. */
export interface ApprovalRequest {
  readonly message: string;
  readonly detail: string;
  /** The label of the button that approves. */
  readonly approve: string;
}

export interface ApprovalDialog {
  /** True only when the user chose `request.approve`; closing or Cancel is false. */
  ask(request: ApprovalRequest): Promise<boolean>;
}

/** Fingerprints approved in this workspace (VS Code's workspace state: per workspace, kept across reloads). */
export interface ApprovalMemory {
  has(fingerprint: string): boolean;
  remember(fingerprint: string): Promise<void>;
}

export const APPROVE_LABEL = 'Allow and Run';

const quoted = (text: string): string => JSON.stringify(visibleText(text));

function mapLines(label: string, record: Readonly<Record<string, string>>): string[] {
  const entries = Object.entries(record);
  if (entries.length === 0) return [`${label}: none`];
  return [`${label}:`, ...entries.map(([name, value]) => `  ${visibleText(name)} = ${quoted(value)}`)];
}

/** The workspace's files a definition's command line names (workspace-run-files.ts): none for a URL. */
export type RunFilesOf = (definition: RunnableDefinition) => Promise<readonly RunFile[]>;

export function approvalRequest(definition: RunnableDefinition, file: string, runFiles: readonly RunFile[] = []): ApprovalRequest {
  const what = definition.kind === 'agent' ? 'agent' : 'MCP server';
  const lines = [
    `The ${what} ${quoted(definition.name)} is defined by ${file}, not by your User settings. It would run with your permissions.`,
    '',
  ];
  if ('url' in definition) {
    lines.push(`Transport: ${definition.transport}`, `URL: ${quoted(definition.url)}`, ...mapLines('Headers', definition.headers));
  } else {
    lines.push(`Command: ${quoted(definition.command)}`);
    lines.push(`Arguments: ${definition.args.length === 0 ? 'none' : definition.args.map(quoted).join(' ')}`);
    lines.push(...mapLines('Environment', definition.env));
    if (definition.apiKeyEnv !== undefined)
      lines.push(`API key variable: ${visibleText(definition.apiKeyEnv)} (only a key entered for this definition, never your own)`);
    if (runFiles.length > 0)
      lines.push(`Workspace files it runs (a change to any of them asks again): ${runFiles.map((run) => quoted(run.path)).join(' ')}`);
  }
  // `${env:NAME}` in an MCP server's values is filled from your own environment (a token there goes to the server):
  // named here, or the sentence below would not be true.
  const fromYourEnvironment = environmentReferences(
    'url' in definition
      ? [definition.url, ...Object.values(definition.headers)]
      : [definition.command, ...definition.args, ...Object.values(definition.env)],
  );
  lines.push('');
  if (fromYourEnvironment.length > 0)
    lines.push(
      `It reads these variables from your environment and passes their values to it: ${fromYourEnvironment.map((name) => visibleText(name)).join(', ')}.`,
      'Apart from those, it gets none of the environment or API keys of your own agents and servers.',
    );
  else lines.push('It gets none of the environment or API keys of your own agents and servers.');
  lines.push('Allow it only if you trust this workspace. The answer is remembered for this workspace until the definition changes.');
  return {
    message: `Run the ${what} ${quoted(definition.name)} from this workspace?`,
    detail: lines.join('\n'),
    approve: APPROVE_LABEL,
  };
}

/** What the chat says when a workspace's definition was not approved: why, and how to approve it later. */
export function refusalNotice(definition: Pick<RunnableDefinition, 'kind' | 'name'>, file: string): { title: string; detail: string } {
  const what = definition.kind === 'agent' ? 'agent' : 'MCP server';
  const name = quoted(definition.name);
  return {
    title: `The ${what} ${name} was not started: it comes from this workspace and was not approved`,
    detail:
      `${file} defines it. Start the agent again (Restart or New Session) to be asked again and choose "${APPROVE_LABEL}", ` +
      `or define it in your User settings to run it without asking.`,
  };
}

export class DefinitionApprovals {
  /** Two starts of one definition at once share one dialog. */
  private readonly asking = new Map<string, Promise<boolean>>();

  constructor(
    private readonly memory: ApprovalMemory,
    private readonly dialog: ApprovalDialog,
    private readonly runFilesOf: RunFilesOf = () => Promise.resolve([]),
  ) {}

  /** True when the definition may run: the user's own, approved before, or approved now. */
  async approve(definition: RunnableDefinition, origin: DefinitionOrigin | undefined): Promise<boolean> {
    if (origin === undefined || origin.kind === 'user') return true;
    // The approval is of the definition and of the content of the workspace files it runs, as they are now. A
    // definition that names none keeps the fingerprint it always had (approved before, approved still).
    const runFiles = await this.runFilesOf(definition);
    const fingerprint = runFiles.length === 0 ? origin.fingerprint : `${origin.fingerprint}.${fingerprintOf(runFiles)}`;
    if (this.memory.has(fingerprint)) return true;
    let pending = this.asking.get(fingerprint);
    if (!pending) {
      pending = this.ask(approvalRequest(definition, origin.file, runFiles), fingerprint).finally(() => this.asking.delete(fingerprint));
      this.asking.set(fingerprint, pending);
    }
    return pending;
  }

  private async ask(request: ApprovalRequest, fingerprint: string): Promise<boolean> {
    const approved = await this.dialog.ask(request).catch(() => false);
    if (approved) await this.memory.remember(fingerprint);
    return approved;
  }
}
