/**
 * The whole host path outside VS Code — real agent process, framing, connection, validation, reducer — with the
 * editor ports replaced by in-memory ones. Used by unit tests and benchmarks.
 */
import type { EditorToolsLauncher } from '../../src/editor-tools/editor-tools-offer';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { FileSystemHandler, type RefusedAccess } from '../../src/client/fs-handler';
import { DEFAULT_MAX_READ_BYTES } from '../../src/shared/limits';
import { ElicitationBroker } from '../../src/client/elicitation-broker';
import { PermissionBroker } from '../../src/client/permission-broker';
import type { CancellationSignal } from '../../src/acp/rpc-boundary';
import type { ElicitationPorts, PermissionPrompt, PermissionRequestView, WorkspaceFiles } from '../../src/client/ports';
import { attachmentTextReader } from '../../src/session/attachment-reader';
import type { AgentPool } from '../../src/session/agent-pool';
import { SessionController } from '../../src/session/session-controller';
import { TranscriptStore } from '../../src/session/transcript-store';
import type { McpServerSource } from '../../src/session/ports';
import type { TraceLevel } from '../../src/acp/log-sink';
import * as path from 'node:path';
import type { AgentConfig, ProtocolPreference } from '../../src/agents/agent-config';
import type { TranscriptState } from '../../src/shared/model';
import { scriptedAgentPath } from './repo-root';
import { MemorySecrets, ScriptedSignInPrompts } from './scripted-sign-in';

export function scriptedAgent(scenario: string, env: Record<string, string> = {}, protocolVersion?: ProtocolPreference): AgentConfig {
  return {
    name: 'Scripted',
    command: process.execPath,
    args: [scriptedAgentPath()],
    env: { ACP_SCENARIO: scenario, ...env },
    ...(protocolVersion !== undefined ? { protocolVersion } : {}),
  };
}

/** The v2-draft agent; `ending` picks how its turns end (see test/fixtures/agents/v2-agent.ts). */
export function v2Agent(ending: 'state' | 'answer', protocolVersion: ProtocolPreference): AgentConfig {
  return {
    name: 'V2',
    command: process.execPath,
    args: [path.join(path.dirname(scriptedAgentPath()), 'v2-agent.mjs')],
    env: { ACP_V2_ENDING: ending },
    protocolVersion,
  };
}

/** Files on disk, with an "editor" holding the text of some of them (`unsaved`), not saved yet for those in `dirty`. */
export class MemoryEditorFiles implements WorkspaceFiles {
  /** Documents open in the editor and their text (which may differ from the disk's). */
  readonly unsaved = new Map<string, string>();
  /** Open documents with edits the user has not saved: a write is refused unless the agent read their text as it is. */
  readonly dirty = new Set<string>();
  readonly writes: { path: string; content: string }[] = [];
  constructor(private readonly root: string) {}
  roots(): readonly string[] {
    return [this.root];
  }
  openDocumentText(absolutePath: string): string | undefined {
    return this.unsaved.get(absolutePath);
  }
  readFileText(absolutePath: string): Promise<string> {
    return readFile(absolutePath, 'utf8');
  }
  async fileSize(absolutePath: string): Promise<number> {
    return (await stat(absolutePath)).size;
  }
  hasUnsavedEdits(absolutePath: string): boolean {
    return this.dirty.has(absolutePath);
  }
  async writeFileText(absolutePath: string, content: string): Promise<void> {
    this.writes.push({ path: absolutePath, content });
    await writeFile(absolutePath, content);
    if (this.unsaved.has(absolutePath)) this.unsaved.set(absolutePath, content);
  }
}

/** A permission dialog that answers with a fixed option, or never (leaving the card to answer). */
export class ScriptedPermissionPrompt implements PermissionPrompt {
  readonly shown: PermissionRequestView[] = [];
  closedByClient = 0;
  constructor(private readonly answer: string | undefined) {}
  ask(request: PermissionRequestView, token: CancellationSignal): Promise<string | undefined> {
    this.shown.push(request);
    if (this.answer !== undefined) return Promise.resolve(this.answer);
    return new Promise((resolve) =>
      token.onCancellationRequested(() => {
        this.closedByClient++;
        resolve(undefined);
      }),
    );
  }
}

/** Records what the broker asks of the editor: notifications (and whether withdrawn) and URLs opened. */
export class RecordingElicitationPorts implements ElicitationPorts {
  readonly announced: { agentName: string; message: string; withdrawn: boolean }[] = [];
  readonly opened: string[] = [];
  announce(question: { agentName: string; message: string }): { dispose(): void } {
    const record = { ...question, withdrawn: false };
    this.announced.push(record);
    return { dispose: () => void (record.withdrawn = true) };
  }
  openExternal(url: string): Promise<void> {
    this.opened.push(url);
    return Promise.resolve();
  }
}

export interface HostHarness {
  readonly elicitationPorts: RecordingElicitationPorts;
  readonly store: TranscriptStore;
  readonly controller: SessionController;
  readonly files: MemoryEditorFiles;
  readonly prompt: ScriptedPermissionPrompt;
  readonly refused: RefusedAccess[];
  readonly warnings: string[];
  /** Clicks a button of the warning shown `index`-th (its promise resolves then, as VS Code's does when clicked). */
  clickWarning(index: number, button: string): void;
  /** Information notifications (VS Code's showInformationMessage in the product), in order. */
  readonly notifications: string[];
  readonly signIn: ScriptedSignInPrompts;
  readonly secrets: MemorySecrets;
  /** What the controller logged (stderr of the agent included), in order. */
  readonly logLines: string[];
  waitFor(predicate: (state: TranscriptState) => boolean, timeoutMs?: number): Promise<TranscriptState>;
}

export function createHostHarness(
  root: string,
  options: {
    permissionAnswer?: string;
    cancelGraceMs?: number;
    startupTimeoutMs?: number;
    idleTimeoutMs?: number;
    maxReadBytes?: number;
    mcpServers?: McpServerSource;
    /** The editor's own MCP server; none without it. */
    editorTools?: EditorToolsLauncher;
    trace?: TraceLevel;
    /** The transcript the controller drives (a conversation's); a fresh one without. */
    store?: TranscriptStore;
    /** Agent processes shared with other harnesses (conversations of one window); the controller's own without. */
    pool?: AgentPool;
    /** The workspace's other folders (a multi-root workspace; `root` is the first, the agent's cwd). */
    otherRoots?: readonly string[];
  } = {},
): HostHarness {
  const startupTimeoutMs = options.startupTimeoutMs ?? 30_000;
  const store = options.store ?? new TranscriptStore();
  const files = new MemoryEditorFiles(root);
  const prompt = new ScriptedPermissionPrompt(options.permissionAnswer);
  const elicitationPorts = new RecordingElicitationPorts();
  const refused: RefusedAccess[] = [];
  const warnings: string[] = [];
  const warningClicks: ((button: string | undefined) => void)[] = [];
  const notifications: string[] = [];
  const logLines: string[] = [];
  const signIn = new ScriptedSignInPrompts();
  const secrets = new MemorySecrets();
  const keep = (line: string): void => void logLines.push(line);
  const controller = new SessionController({
    store,
    files: new FileSystemHandler(
      files,
      (access) => refused.push(access),
      () => options.maxReadBytes ?? DEFAULT_MAX_READ_BYTES,
    ),
    permissions: new PermissionBroker(prompt),
    elicitations: new ElicitationBroker(elicitationPorts),
    notifier: {
      warn: (message) =>
        new Promise<string | undefined>((resolve) => {
          warnings.push(message);
          warningClicks.push(resolve);
        }),
      info: (message) => void notifications.push(message),
    },
    log: { info: keep, warn: keep, error: keep, trace: keep },
    env: {
      cwd: () => root,
      roots: () => [root, ...(options.otherRoots ?? [])],
      isTrusted: () => true,
      trace: () => options.trace ?? 'off',
      startupTimeoutMs: () => startupTimeoutMs,
      idleTimeoutMs: () => options.idleTimeoutMs ?? 0,
      extensionVersion: 'test',
    },
    attachmentText: attachmentTextReader(files),
    signInPrompts: signIn,
    secrets,
    ...(options.cancelGraceMs !== undefined ? { cancelGraceMs: options.cancelGraceMs } : {}),
    ...(options.mcpServers ? { mcpServers: options.mcpServers } : {}),
    ...(options.editorTools ? { editorTools: options.editorTools } : {}),
    ...(options.pool ? { pool: options.pool } : {}),
  });
  const waitFor = (predicate: (state: TranscriptState) => boolean, timeoutMs = 10_000): Promise<TranscriptState> =>
    new Promise((resolve, reject) => {
      if (predicate(store.state)) return resolve(store.state);
      const timer = setTimeout(() => {
        subscription.dispose();
        reject(new Error(`timed out waiting; state: ${JSON.stringify(store.state).slice(0, 2000)}`));
      }, timeoutMs);
      const subscription = store.subscribe((_action, state) => {
        if (!predicate(state)) return;
        clearTimeout(timer);
        subscription.dispose();
        resolve(state);
      });
    });
  const clickWarning = (index: number, button: string): void => {
    const click = warningClicks[index];
    if (!click) throw new Error(`no warning ${index}; shown: ${JSON.stringify(warnings)}`);
    click(button);
  };
  return {
    elicitationPorts,
    store,
    controller,
    files,
    prompt,
    refused,
    warnings,
    clickWarning,
    notifications,
    signIn,
    secrets,
    logLines,
    waitFor,
  };
}
