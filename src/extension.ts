/** Composition root: constructs the parts, registers them, disposes them. Nothing else lives here. */
import * as vscode from 'vscode';
import type { AcpClientApi } from './api';
import { AgentInstaller } from './agents/registry/agent-installer';
import { currentPlatform } from './agents/registry/platform';
import { AgentSettings } from './editor/agent-settings';
import { registerAgentRegistryCommands } from './commands/agent-registry-commands';
import { FileSystemHandler } from './client/fs-handler';
import { ElicitationBroker } from './client/elicitation-broker';
import { PermissionBroker } from './client/permission-broker';
import { vscodeElicitationPorts } from './editor/elicitation-ports';
import { VscodePermissionPrompt } from './editor/permission-prompt';
import { VscodeWorkspaceFiles } from './editor/workspace-files';
import { attachmentTextReader } from './session/attachment-reader';
import { SessionController } from './session/session-controller';
import { TranscriptStore } from './session/transcript-store';
import { registerAddToChat } from './commands/add-to-chat';
import { ChatCommands } from './commands/chat-commands';
import { ChatViewProvider } from './views/chat-view-provider';
import { DIFF_SCHEME, DiffDocuments } from './editor/diff-documents';
import { SessionContextKeys } from './editor/session-context-keys';
import { registerSessionOptionCommands } from './commands/session-option-commands';
import { registerAuthCommands } from './commands/auth-commands';
import { vscodeAgentSecrets, vscodeSignInPrompts } from './editor/sign-in-prompts';
import { WorkspaceFileIndex } from './editor/workspace-file-index';
import { vscodeSessionEnvironment, vscodeNotifier, logChannelSink } from './editor/session-ports';
import { VscodeMcpServerSource } from './editor/mcp-server-settings';
import { VscodeSecretInputs } from './editor/secret-inputs';
import { ChangeTracking } from './editor/change-tracking';
import { ChangeCommands } from './commands/change-commands';

let controller: SessionController | undefined;

export function activate(context: vscode.ExtensionContext): AcpClientApi {
  const activationStarted = performance.now();
  const log = vscode.window.createOutputChannel('ACP', { log: true });
  const installer = new AgentInstaller({ storageDir: context.globalStorageUri.fsPath, platform: currentPlatform() });
  // The default agent may be an installed one: the chat waits for the manifest before starting it.
  const installedLoaded = installer.load().then((problem) => problem && log.warn(problem));
  const settings = new AgentSettings(log, installer);
  const store = new TranscriptStore();
  const workspaceFiles = new VscodeWorkspaceFiles();
  // Change sets and checkpoints per conversation (issue 13). The id is a placeholder until history gives one.
  const changes = new ChangeTracking(context.storageUri ?? context.globalStorageUri, log);
  let conversationId = `conversation-${Date.now()}`;
  const conversation = (): void => {
    changes.close(conversationId);
    conversationId = `conversation-${Date.now()}`;
    changes.open(conversationId, store);
  };
  changes.open(conversationId, store);
  const files = new FileSystemHandler(
    workspaceFiles,
    (refused) =>
      store.dispatch({
        type: 'notice_added',
        severity: 'warning',
        title: `Refused to ${refused.operation} a file outside the workspace`,
        detail: `${refused.path}: ${refused.reason}`,
      }),
    () => settings.maxReadBytes(),
    changes,
  );
  controller = new SessionController({
    store,
    files,
    permissions: new PermissionBroker(new VscodePermissionPrompt()),
    // The view is created below; the ports read it only when an agent asks, long after activation.
    elicitations: new ElicitationBroker(
      vscodeElicitationPorts({
        get visible() {
          return view.visible;
        },
        reveal: () => view.reveal(),
      }),
    ),
    notifier: vscodeNotifier,
    log: logChannelSink(log),
    env: vscodeSessionEnvironment(settings, String(context.extension.packageJSON.version ?? '0.0.0')),
    attachmentText: attachmentTextReader(workspaceFiles),
    mcpServers: new VscodeMcpServerSource(new VscodeSecretInputs(context.secrets)),
    signInPrompts: vscodeSignInPrompts,
    secrets: vscodeAgentSecrets(context.secrets),
  });
  const diffs = new DiffDocuments(store);
  const commands = new ChatCommands(controller, settings, store, diffs, log);
  const changeCommands = new ChangeCommands(changes, store);
  const fileIndex = new WorkspaceFileIndex();
  const view = new ChatViewProvider(
    context.extensionUri,
    store,
    (intent) => changeCommands.handle(intent) || commands.handle(intent),
    (query) => fileIndex.search(query),
    log,
  );
  commands.attachView(view);
  view.onReady = () => void installedLoaded.then(() => commands.ensureAgent());

  context.subscriptions.push(
    log,
    settings,
    view,
    commands,
    changes,
    changeCommands,
    store.subscribe((action) => action.type === 'transcript_cleared' && conversation()),
    fileIndex,
    registerAddToChat((attachments) => view.addAttachments(attachments)),
    new SessionContextKeys(store),
    registerSessionOptionCommands(store, controller),
    registerAuthCommands(controller),
    registerAgentRegistryCommands({ installer, storageDir: context.globalStorageUri.fsPath, log }),
    vscode.window.registerWebviewViewProvider(ChatViewProvider.viewId, view),
    vscode.workspace.registerTextDocumentContentProvider(DIFF_SCHEME, diffs),
    { dispose: () => controller?.dispose() },
  );
  // Read by `npm run bench` (activation time in the real VS Code) and useful when someone reports a slow start.
  log.info(`Activated in ${(performance.now() - activationStarted).toFixed(1)} ms`);
  return {
    transcript: () => store.state,
    onDidChangeTranscript: (listener) => store.subscribe((_action, state) => listener(state)),
    chatViewReady: () => view.firstReady,
    sendPrompt: (text, attachments) => commands.sendPrompt(text, attachments),
    answerElicitation: (answer) => commands.handle({ type: 'elicitation_answer', ...answer }),
  };
}

export function deactivate(): void {
  // No agent process outlives the extension: the group is killed synchronously.
  controller?.dispose();
  controller = undefined;
}
