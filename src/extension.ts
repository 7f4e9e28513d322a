/** Composition root: constructs the parts, registers them, disposes them. Nothing else lives here. */
import * as vscode from 'vscode';
import type { AcpClientApi } from './api';
import { AgentInstaller } from './agents/registry/agent-installer';
import { InstallActivity } from './agents/registry/install-activity';
import { ChatViewProgress } from './editor/chat-view-progress';
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
import { AgentPool } from './session/agent-pool';
import type { TranscriptStore } from './session/transcript-store';
import { Conversations } from './conversations/conversations';
import type { Conversation } from './conversations/conversation';
import { ShownTranscript } from './conversations/shown-transcript';
import { HistoryStore } from './history/history-store';
import type { UserIntent } from './session/intents';
import { ChatPanels } from './views/chat-panels';
import { SessionsTree } from './editor/sessions-tree';
import { AgentSessions } from './conversations/agent-sessions';
import { registerSessionCommands } from './commands/session-commands';
import type { ChatSurface } from './views/chat-binding';
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
import { DefinitionApprovals } from './agents/definition-approval';
import { agentLaunchApproval, ModalApprovalDialog, workspaceApprovalMemory } from './editor/definition-approval-dialog';
import { ChangeTracking } from './editor/change-tracking';
import { ChangeCommands } from './commands/change-commands';
import { ForkFromMessage } from './conversations/fork-from-message';

let conversations: Conversations | undefined;
/** The running agents: sessions of one agent share its process. */
let agentProcesses: AgentPool | undefined;

/** Which conversation the chat showed last, per workspace: a reload shows it again. */
const SHOWN_KEY = 'acpClient.shownConversation';

export function activate(context: vscode.ExtensionContext): AcpClientApi {
  const activationStarted = performance.now();
  const log = vscode.window.createOutputChannel('ACP', { log: true });
  const installer = new AgentInstaller({ storageDir: context.globalStorageUri.fsPath, platform: currentPlatform() });
  // The default agent may be an installed one: the chat waits for the manifest before starting it.
  const installedLoaded = installer.load().then((problem) => problem && log.warn(problem));
  const settings = new AgentSettings(log, installer);
  const installs = new InstallActivity();
  const workspaceFiles = new VscodeWorkspaceFiles();
  const logSink = logChannelSink(log);
  const env = vscodeSessionEnvironment(settings, String(context.extension.packageJSON.version ?? '0.0.0'));
  // What a workspace defines (agents, MCP servers) runs only once the user approved that exact definition here.
  const approvalDialog = new ModalApprovalDialog();
  const approvals = new DefinitionApprovals(workspaceApprovalMemory(context.workspaceState), approvalDialog);
  const mcpServers = new VscodeMcpServerSource(new VscodeSecretInputs(context.secrets), approvals);
  const launchApproval = agentLaunchApproval(approvals);
  const permissionPrompt = new VscodePermissionPrompt();
  const elicitationPorts = vscodeElicitationPorts({
    // The view is created below; the ports read it only when an agent asks, long after activation.
    get visible() {
      return view.visible;
    },
    reveal: () => view.reveal(),
  });
  // Change sets and checkpoints (issue 13): one tracker per conversation, stored under its id.
  const changes = new ChangeTracking(context.storageUri ?? context.globalStorageUri, log);
  const pool = new AgentPool();
  agentProcesses = pool;
  /**
   * Each conversation its own controller, brokers and file handler: nothing pending is shared between two. Its
   * session runs on the agent's shared process (the pool).
   */
  const controllerFor = (store: TranscriptStore, id: string): SessionController =>
    new SessionController({
      store,
      files: new FileSystemHandler(
        workspaceFiles,
        (refused) =>
          store.dispatch({
            type: 'notice_added',
            severity: 'warning',
            title: `Refused to ${refused.operation} a file outside the workspace`,
            detail: `${refused.path}: ${refused.reason}`,
          }),
        () => settings.maxReadBytes(),
        changes.observerFor(id, store),
      ),
      permissions: new PermissionBroker(permissionPrompt),
      elicitations: new ElicitationBroker(elicitationPorts),
      notifier: vscodeNotifier,
      log: logSink,
      env,
      attachmentText: attachmentTextReader(workspaceFiles),
      mcpServers,
      signInPrompts: vscodeSignInPrompts,
      secrets: vscodeAgentSecrets(context.secrets),
      pool,
      launchApproval,
    });
  const diffs = new DiffDocuments((id) => conversations?.get(id)?.store);
  const chats: Conversations = new Conversations({
    factory: {
      controller: (store, id) => controllerFor(store, id),
      // Commands are made next; a conversation is first made by `restore`, after both exist.
      extras: (store): readonly vscode.Disposable[] => [...commands.conversationExtras(store), changes.trackedUntilDisposed(store)],
    },
    log: logSink,
  });
  conversations = chats;
  const commands: ChatCommands = new ChatCommands(chats, settings, diffs, log, installs);
  const changeCommands = new ChangeCommands(
    changes,
    new ForkFromMessage({ conversations: chats, ensureAgent: (conversation) => commands.ensureAgent(conversation) }),
  );
  const shown = new ShownTranscript(chats);
  const fileIndex = new WorkspaceFileIndex();
  const bindingDeps = {
    extensionUri: context.extensionUri,
    onIntent: (intent: UserIntent, conversation: Conversation, surface: ChatSurface) =>
      changeCommands.handle(intent, conversation.id) || commands.handle(intent, conversation, surface),
    findFiles: (query: string) => fileIndex.search(query),
    setDraft: (id: string, text: string) => chats.setDraft(id, text),
    log,
  };
  const view = new ChatViewProvider(bindingDeps, chats);
  const panels = new ChatPanels(bindingDeps, chats);
  commands.attachView(view, panels);
  const agentSessions = new AgentSessions(chats);
  const tree = new SessionsTree(chats, agentSessions, (id) => chats.get(id)?.controller.support?.fork === true);
  // History first: the chat shows the conversation it showed before any agent starts.
  const restored = restoreConversations(chats, context, settings, log);
  commands.openAfter(restored);
  view.onReady = () =>
    void Promise.all([installedLoaded, restored]).then(() => {
      // Only a conversation that never started gets its agent now; a restored one waits for the user's prompt.
      if (chats.shown?.store.state.agent.phase === 'none') void commands.ensureAgent();
    });

  context.subscriptions.push(
    log,
    settings,
    view,
    panels,
    commands,
    changes,
    changeCommands,
    fileIndex,
    shown,
    tree,
    vscode.window.createTreeView(SessionsTree.viewId, { treeDataProvider: tree }),
    registerSessionCommands({ conversations: chats, agentSessions, chat: commands, tree, view, panels }),
    registerAddToChat((attachments) => view.addAttachments(attachments)),
    new SessionContextKeys(shown),
    new ChatViewProgress(ChatViewProvider.viewId, shown, installs),
    installs,
    registerSessionOptionCommands(chats),
    registerAuthCommands(() => chats.shown?.controller),
    registerAgentRegistryCommands({ installer, installs, storageDir: context.globalStorageUri.fsPath, log }),
    vscode.window.registerWebviewViewProvider(ChatViewProvider.viewId, view),
    vscode.workspace.registerTextDocumentContentProvider(DIFF_SCHEME, diffs),
    { dispose: () => conversations?.dispose() },
    { dispose: () => pool.dispose() },
  );
  context.subscriptions.push(
    toDisposable(chats.onDidSwitch((conversation) => void context.workspaceState.update(SHOWN_KEY, conversation.id))),
    toDisposable(chats.onDidSwitch((conversation) => changes.focus(conversation.id))),
  );
  // Read by `npm run bench` (activation time in the real VS Code) and useful when someone reports a slow start.
  log.info(`Activated in ${(performance.now() - activationStarted).toFixed(1)} ms`);
  return {
    transcript: () => shown.state,
    onDidChangeTranscript: (listener) => {
      const changed = shown.subscribe((_action, state) => listener(state));
      const switched = shown.onDidSwitch(listener);
      return { dispose: () => (changed.dispose(), switched.dispose()) };
    },
    chatViewReady: () => view.firstReady,
    sendPrompt: (text, attachments) => restored.then(() => commands.sendPrompt(text, attachments)),
    answerElicitation: (answer) => {
      const conversation = chats.shown;
      if (conversation) commands.handle({ type: 'elicitation_answer', ...answer }, conversation, view);
    },
    postFromChat: (message) => view.receiveFromChat(message),
    draftOf: (id) => chats.get(id)?.draft,
    conversations: () => chats.listed(),
    shownConversation: () => chats.shown?.id,
    showConversation: async (id) => void (await chats.show(id)),
    transcriptOf: (id) => chats.get(id)?.store.state,
    sendPromptTo: async (id, text) => commands.sendPrompt(text, [], await chats.open(id)),
    flushHistory: () => chats.flush(),
    stopAgents: () => chats.stopAgents(),
    removeConversation: (id) => chats.remove(id),
    agentSessions: async () => {
      await agentSessions.refresh(true);
      return [...agentSessions.list().values()].flat();
    },
    // Integration tests only (never an installed extension): they see the approval modal's text and answer it.
    ...(context.extensionMode === vscode.ExtensionMode.Test
      ? { answerApprovalsForTests: (answerer) => void (approvalDialog.answerer = answerer) }
      : {}),
  };
}

/** Opens the workspace's history (none without a folder) and shows the conversation shown last. */
async function restoreConversations(
  chats: Conversations,
  context: vscode.ExtensionContext,
  settings: AgentSettings,
  log: vscode.LogOutputChannel,
): Promise<void> {
  const storage = context.storageUri;
  if (storage) {
    try {
      chats.useHistory(
        await HistoryStore.open(vscode.Uri.joinPath(storage, 'history').fsPath, {
          maxSessions: settings.historyMaxSessions(),
          onError: (error) => log.error(`Storing history failed: ${error instanceof Error ? error.message : String(error)}`),
        }),
      );
    } catch (error) {
      log.error(`History is off: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  await chats.restore(context.workspaceState.get<string>(SHOWN_KEY));
}

function toDisposable(subscription: { dispose(): void }): vscode.Disposable {
  return { dispose: () => subscription.dispose() };
}

export function deactivate(): void {
  // No agent process outlives the extension (each is killed synchronously), and what was recorded reaches the disk.
  conversations?.dispose();
  conversations = undefined;
  agentProcesses?.dispose();
  agentProcesses = undefined;
}
