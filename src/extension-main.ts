/**
 * Composition root: constructs the parts, registers them, disposes them. Nothing else lives here. Loaded by the
 * small first bundle (src/extension.ts) once the chat's page is on its way: the chat view is handed over from it.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AcpClientApi } from './api';
import { AgentInstaller } from './agents/registry/agent-installer';
import { InstallActivity } from './agents/registry/install-activity';
import { ChatViewProgress } from './editor/chat-view-progress';
import { currentPlatform } from './agents/registry/platform';
import { AgentSettings } from './editor/agent-settings';
import { registerAgentRegistryCommands } from './commands/agent-registry-commands';
import { VscodeWorkspaceFiles } from './editor/workspace-files';
import { AgentPool } from './session/agent-pool';
import { Conversations } from './conversations/conversations';
import type { Conversation } from './conversations/conversation';
import { ShownTranscript } from './conversations/shown-transcript';
import { HistoryStore } from './history/history-store';
import { chooseStorageFolder } from './history/storage-folder';
import type { HeldLock } from './history/storage-lock';
import type { ChatIntent } from './shared/chat-intents';
import { routeIntent } from './commands/chat-routes';
import { ChatPanels } from './views/chat-panels';
import { SessionsTree } from './editor/sessions-tree';
import { AgentSessions } from './conversations/agent-sessions';
import { registerSessionCommands } from './commands/session-commands';
import type { ChatSurface } from './views/chat-binding';
import { registerAddToChat } from './commands/add-to-chat';
import { ChatCommands } from './commands/chat-commands';
import { ChatViewProvider } from './views/chat-view-provider';
import { PreviewFileKeeper } from './views/preview-file-keeper';
import { CHAT_VIEW_ID } from './shared/view-ids';
import type { ChatViewShell } from './boot/chat-view-shell';
import type { DeferredTree } from './boot/deferred-tree';
import { DIFF_SCHEME, DiffDocuments } from './editor/diff-documents';
import { SessionContextKeys } from './editor/session-context-keys';
import { registerSessionOptionCommands } from './commands/session-option-commands';
import { registerAuthCommands } from './commands/auth-commands';
import { WorkspaceFileIndex } from './editor/workspace-file-index';
import { vscodeSessionEnvironment, logChannelSink } from './editor/session-ports';
import { sessionWiring } from './session-wiring';
import { acpClientApi } from './extension-api';
import { ChangeTracking } from './editor/change-tracking';
import { ChangeCommands } from './commands/change-commands';
import { ForkFromMessage } from './conversations/fork-from-message';
import { lifecycleOf, type LifecycleState } from './shared/lifecycle';
import { FollowAgent } from './editor/follow-agent';
import { reviewLoop } from './commands/review-loop';
import { changedFileCount } from './shared/changed-files';
import { errorMessage } from './shared/error-text';

let conversations: Conversations | undefined;
/** The running agents: sessions of one agent share its process. */
let agentProcesses: AgentPool | undefined;
/** The lock on a storage folder we took ourselves (history/storage-folder.ts): let go once history is flushed. */
let storageLock: HeldLock | undefined;
/** The folder the history is in, and what keeps the chat's preview there once a conversation is shown. */
let previewFile: { readonly dir: string; keeper?: PreviewFileKeeper } | undefined;

/** Which conversation the chat showed last, per workspace: a reload shows it again. */
const SHOWN_KEY = 'acpClient.shownConversation';
/** The history is read by then even if nothing asked for it (the chat view asks as soon as it has its HTML). */
const RESTORE_AT_LATEST_MS = 500;

/** What the first bundle registered for the views before this bundle loaded: this one hands them the real parts. */
export interface BootViews {
  readonly shell: ChatViewShell;
  readonly sessionsTree: DeferredTree<unknown>;
}

/** When the first bundle's `activate` ran and when it started loading this one (performance.now()). */
export interface BootTimes {
  readonly activated: number;
  readonly loadStarted: number;
  /** What asked for this bundle first. */
  readonly reason: string;
}

export function activateMain(context: vscode.ExtensionContext, views: BootViews, boot: BootTimes): AcpClientApi {
  const log = vscode.window.createOutputChannel('ACP', { log: true });
  const installer = new AgentInstaller({ storageDir: context.globalStorageUri.fsPath, platform: currentPlatform() });
  // The default agent may be an installed one: the chat waits for the manifest before starting it.
  const installedLoaded = installer.load().then((problem) => problem && log.warn(problem));
  const settings = new AgentSettings(log, installer);
  const installs = new InstallActivity();
  const workspaceFiles = new VscodeWorkspaceFiles();
  const logSink = logChannelSink(log);
  const env = vscodeSessionEnvironment(settings, String(context.extension.packageJSON.version ?? '0.0.0'));
  // Change sets and checkpoints (issue 13): one tracker per conversation, stored under its id.
  const changes = new ChangeTracking(context.storageUri ?? context.globalStorageUri, log);
  const pool = new AgentPool();
  agentProcesses = pool;
  const { controllerFor, approvalDialog } = sessionWiring({
    context,
    settings,
    workspaceFiles,
    log: logSink,
    env,
    changes,
    pool,
    chatView: () => view,
  });
  const diffs = new DiffDocuments((id) => conversations?.get(id)?.store);
  const chats: Conversations = new Conversations({
    factory: {
      controller: (store, id) => controllerFor(store, id),
      // Commands are made next; a conversation is first made by `restore`, after both exist.
      extras: (store): readonly vscode.Disposable[] => [
        ...commands.conversationExtras(store),
        changes.trackedUntilDisposed(store),
        new FollowAgent(store, () => conversations?.shown?.store === store),
      ],
    },
    log: logSink,
  });
  conversations = chats;
  const commands: ChatCommands = new ChatCommands(chats, settings, diffs, log, installs);
  const changeCommands = new ChangeCommands(
    changes,
    new ForkFromMessage({ conversations: chats, ensureAgent: (conversation) => commands.ensureAgent(conversation) }),
  );
  const review = reviewLoop(context.workspaceState, changes, chats, commands);
  const shown = new ShownTranscript(chats);
  const fileIndex = new WorkspaceFileIndex();
  const bindingDeps = {
    extensionUri: context.extensionUri,
    onIntent: (intent: ChatIntent, conversation: Conversation, surface: ChatSurface) =>
      routeIntent(intent, { conversation, surface, chat: commands, changes: changeCommands, review }),
    findFiles: (query: string) => fileIndex.search(query),
    setDraft: (id: string, text: string) => chats.setDraft(id, text),
    log,
  };
  const view = new ChatViewProvider(bindingDeps, chats);
  const panels = new ChatPanels(bindingDeps, chats);
  commands.attachView(view, panels);
  const agentSessions = new AgentSessions(chats);
  const tree = new SessionsTree(chats, agentSessions, (id) => chats.get(id)?.controller.support?.fork === true);
  tree.describeEditorTools((id) => chats.get(id)?.controller.editorTools);
  tree.countChangedFiles((id) => {
    const state = chats.get(id)?.store.state;
    return state && changedFileCount(state);
  });
  // History first: the chat shows the conversation it showed before any agent starts. But after the chat's HTML
  // (issue 31): VS Code asks for the view only once activate() has returned, and reading a long history on this
  // thread meanwhile held the chat's first paint. Whatever needs a conversation first starts it sooner; nothing
  // waits longer than RESTORE_AT_LATEST_MS (the Sessions view shown alone, say).
  let restoring: Promise<void> | undefined;
  const restore = (): Promise<void> => (restoring ??= restoreConversations(chats, context, settings, log, changes));
  view.onResolved = () => void restore();
  const restoreAtLatest = setTimeout(() => void restore(), RESTORE_AT_LATEST_MS);
  commands.openAfter(restore);
  view.onReady = () =>
    void Promise.all([installedLoaded, restore()]).then(() => {
      // Only a conversation that never started gets its agent now; a restored one waits for the user's prompt.
      if (shownLifecycle(chats) === 'no_agent') void commands.ensureAgent();
    });

  context.subscriptions.push(
    log,
    settings,
    view,
    panels,
    commands,
    changes,
    changeCommands,
    review,
    fileIndex,
    shown,
    tree,
    registerSessionCommands({ conversations: chats, agentSessions, chat: commands, tree, view, panels }),
    registerAddToChat((attachments) => view.addAttachments(attachments)),
    new SessionContextKeys(shown),
    new ChatViewProgress(CHAT_VIEW_ID, shown, installs),
    installs,
    registerSessionOptionCommands(chats),
    registerAuthCommands(() => chats.shown?.controller),
    registerAgentRegistryCommands({ installer, installs, storageDir: context.globalStorageUri.fsPath, log }),
    vscode.workspace.registerTextDocumentContentProvider(DIFF_SCHEME, diffs),
    { dispose: () => clearTimeout(restoreAtLatest) },
    { dispose: () => conversations?.dispose() },
    { dispose: () => pool.dispose() },
  );
  context.subscriptions.push(
    toDisposable(chats.onDidSwitch((conversation) => void context.workspaceState.update(SHOWN_KEY, conversation.id))),
    toDisposable(chats.onDidSwitch((conversation) => changes.focus(conversation.id))),
  );
  // Last: the view shown meanwhile is handed over with its page's `ready`, which the handlers above answer.
  views.sessionsTree.handOver(tree);
  views.shell.handOver(view);
  // Read by `npm run bench` (activation time in the real VS Code) and useful when someone reports a slow start.
  // From loading this bundle to here; before it, the first bundle's own activation (the chat's page set meanwhile).
  log.info(
    `Activated in ${(performance.now() - boot.loadStarted).toFixed(1)} ms, ` +
      `${(boot.loadStarted - boot.activated).toFixed(1)} ms after the first bundle's activation, for ${boot.reason}`,
  );
  const first = views.shell.firstPage;
  if (first)
    log.info(
      `The chat's first page: asked for ${first.askedMs.toFixed(1)} ms after the first bundle's activation, its preview (${first.previewChars} characters of HTML, from ${first.from}) in ${first.previewMs.toFixed(1)} ms, ` +
        `then the page's HTML in ${first.pageMs.toFixed(1)} ms`,
    );
  const testMode = context.extensionMode === vscode.ExtensionMode.Test;
  return acpClientApi({ testMode, chats, commands, view, shown, restore, agentSessions, approvalDialog });
}

/**
 * Opens the workspace's history (none without a folder) and shows the conversation shown last. After a fast reload
 * the folder VS Code gave may be a stand-in while the old window lets go of the real one: that one is waited for
 * (bounded; the chat is already on screen meanwhile) and used.
 */
async function restoreConversations(
  chats: Conversations,
  context: vscode.ExtensionContext,
  settings: AgentSettings,
  log: vscode.LogOutputChannel,
  changes: ChangeTracking,
): Promise<void> {
  const given = context.storageUri;
  if (given) {
    try {
      let storage = given.fsPath;
      if (given.scheme === 'file') {
        const chosen = await chooseStorageFolder(given.fsPath);
        if (chosen.note) log.info(`Workspace storage: ${chosen.note}`);
        storageLock = chosen.lock;
        if (chosen.dir !== storage) relocateChanges(changes, chosen.dir, log);
        storage = chosen.dir;
      }
      chats.useHistory(
        await HistoryStore.open(path.join(storage, 'history'), {
          maxSessions: settings.historyMaxSessions(),
          onError: (error) => log.error(`Storing history failed: ${errorMessage(error)}`),
        }),
      );
      previewFile = { dir: storage };
    } catch (error) {
      log.error(`History is off: ${errorMessage(error)}`);
    }
  }
  await chats.restore(context.workspaceState.get<string>(SHOWN_KEY));
  // Beside the history, where the next window's first bundle looks for it (src/views/preview-file.ts).
  if (previewFile && conversations === chats) previewFile.keeper = new PreviewFileKeeper(chats, previewFile.dir, logChannelSink(log));
}

/** Change sets follow the history's folder; were tracking already under way, the history still moves without them. */
function relocateChanges(changes: ChangeTracking, storage: string, log: vscode.LogOutputChannel): void {
  try {
    changes.relocate(storage);
  } catch (error) {
    log.warn(`Change sets stay in VS Code's storage folder: ${errorMessage(error)}`);
  }
}

/** What the shown conversation's transcript says of its agent (a restored one says "not running", never "no agent"). */
function shownLifecycle(chats: Conversations): LifecycleState | undefined {
  const shown = chats.shown;
  return shown && lifecycleOf(shown.store.state);
}

function toDisposable(subscription: { dispose(): void }): vscode.Disposable {
  return { dispose: () => subscription.dispose() };
}

export function deactivateMain(): void {
  // While the conversation is still there: its newest entries for the next window's first frame.
  previewFile?.keeper?.dispose();
  previewFile = undefined;
  // No agent process outlives the extension (each is killed synchronously), and what was recorded reaches the disk.
  conversations?.dispose();
  conversations = undefined;
  agentProcesses?.dispose();
  agentProcesses = undefined;
  // After the flush above: the next window may read the history as soon as the folder is free.
  storageLock?.release();
  storageLock = undefined;
}
