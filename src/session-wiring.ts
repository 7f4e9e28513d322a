/**
 * Part of the composition root: what every conversation's controller gets from the editor. Each conversation its
 * own controller, brokers and file handler (nothing pending is shared between two); its session runs on the
 * agent's shared process (the pool).
 */
import type * as vscode from 'vscode';
import { FileSystemHandler } from './client/fs-handler';
import { ElicitationBroker } from './client/elicitation-broker';
import { PermissionBroker } from './client/permission-broker';
import { vscodeElicitationPorts } from './editor/elicitation-ports';
import { VscodePermissionPrompt } from './editor/permission-prompt';
import type { VscodeWorkspaceFiles } from './editor/workspace-files';
import { attachmentTextReader } from './session/attachment-reader';
import { SessionController } from './session/session-controller';
import type { AgentPool } from './session/agent-pool';
import type { TranscriptStore } from './session/transcript-store';
import type { AgentSettings } from './editor/agent-settings';
import { vscodeAgentSecrets, vscodeSignInPrompts } from './editor/sign-in-prompts';
import { vscodeNotifier } from './editor/session-ports';
import type { LogSink } from './acp/log-sink';
import type { SessionEnvironment } from './session/ports';
import { VscodeMcpServerSource } from './editor/mcp-server-settings';
import { VscodeSecretInputs } from './editor/secret-inputs';
import { DefinitionApprovals } from './agents/definition-approval';
import { agentLaunchApproval, ModalApprovalDialog, vscodeRunFilesOf, workspaceApprovalMemory } from './editor/definition-approval-dialog';
import type { ChangeTracking } from './editor/change-tracking';
import { vscodeEditorToolsLauncher } from './editor/editor-tools-launcher';
import { VscodeEditorLanguage } from './editor/editor-language';

export interface SessionWiringParts {
  readonly context: vscode.ExtensionContext;
  readonly settings: AgentSettings;
  readonly workspaceFiles: VscodeWorkspaceFiles;
  readonly log: LogSink;
  readonly env: SessionEnvironment;
  readonly changes: ChangeTracking;
  readonly pool: AgentPool;
  /** The chat view, created after the factory: the ports read it only when an agent asks, long after activation. */
  readonly chatView: () => { readonly visible: boolean; reveal(): Promise<void> };
}

export interface SessionWiring {
  readonly controllerFor: (store: TranscriptStore, id: string) => SessionController;
  /** The workspace-definition approval modal (integration tests answer it). */
  readonly approvalDialog: ModalApprovalDialog;
}

export function sessionWiring(parts: SessionWiringParts): SessionWiring {
  const { context, settings, workspaceFiles, changes, pool } = parts;
  // What a workspace defines (agents, MCP servers) runs only once the user approved that exact definition here.
  const approvalDialog = new ModalApprovalDialog();
  const approvals = new DefinitionApprovals(workspaceApprovalMemory(context.workspaceState), approvalDialog, vscodeRunFilesOf);
  const mcpServers = new VscodeMcpServerSource(new VscodeSecretInputs(context.secrets), approvals);
  const launchApproval = agentLaunchApproval(approvals);
  const permissionPrompt = new VscodePermissionPrompt();
  const elicitationPorts = vscodeElicitationPorts({
    get visible() {
      return parts.chatView().visible;
    },
    reveal: () => parts.chatView().reveal(),
  });
  // The editor's own MCP server (issue 28): one per agent process, started as its first session opens.
  const editorLanguage = new VscodeEditorLanguage();
  context.subscriptions.push(editorLanguage);
  const editorTools = vscodeEditorToolsLauncher(editorLanguage);
  const controllerFor = (store: TranscriptStore, id: string): SessionController =>
    new SessionController({
      store,
      files: new FileSystemHandler(
        workspaceFiles,
        (refused) =>
          store.dispatch({
            type: 'notice_added',
            severity: 'warning',
            title: `Refused to ${refused.operation} a file the agent named`,
            detail: `${refused.path}: ${refused.reason}`,
          }),
        () => settings.maxReadBytes(),
        changes.observerFor(id, store),
      ),
      permissions: new PermissionBroker(permissionPrompt),
      elicitations: new ElicitationBroker(elicitationPorts),
      notifier: vscodeNotifier,
      log: parts.log,
      env: parts.env,
      attachmentText: attachmentTextReader(workspaceFiles),
      mcpServers,
      signInPrompts: vscodeSignInPrompts,
      secrets: vscodeAgentSecrets(context.secrets),
      pool,
      launchApproval,
      editorTools,
    });
  return { controllerFor, approvalDialog };
}
