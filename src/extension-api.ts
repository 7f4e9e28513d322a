/** Part of the composition root: the API the extension returns from `activate` (tests and other extensions use it). */
import type { AcpClientApi, AcpClientTestApi, AcpClientTestControls } from './api';
import type { Conversations } from './conversations/conversations';
import type { ShownTranscript } from './conversations/shown-transcript';
import type { AgentSessions } from './conversations/agent-sessions';
import type { ChatCommands } from './commands/chat-commands';
import type { ChatViewProvider } from './views/chat-view-provider';
import type { ModalApprovalDialog } from './editor/definition-approval-dialog';

export interface ApiParts {
  /** The extension runs in test mode (`vscode.ExtensionMode.Test`): its integration tests, never an installed copy. */
  readonly testMode: boolean;
  readonly chats: Conversations;
  readonly commands: ChatCommands;
  readonly view: ChatViewProvider;
  readonly shown: ShownTranscript;
  /** Restores the conversation shown last (once; later calls get the same promise). */
  readonly restore: () => Promise<void>;
  readonly agentSessions: AgentSessions;
  readonly approvalDialog: ModalApprovalDialog;
}

export function acpClientApi(parts: ApiParts): AcpClientApi | AcpClientTestApi {
  const { chats, commands, view, shown, restore } = parts;
  const api: AcpClientApi = {
    transcript: () => shown.state,
    onDidChangeTranscript: (listener) => {
      const changed = shown.subscribe((_action, state) => listener(state));
      const switched = shown.onDidSwitch(listener);
      return { dispose: () => (changed.dispose(), switched.dispose()) };
    },
    chatViewReady: () => view.firstReady,
    sendPrompt: (text, attachments) => restore().then(() => commands.sendPrompt(text, attachments)),
    draftOf: (id) => chats.get(id)?.draft,
    conversations: () => chats.listed(),
    shownConversation: () => chats.shown?.id,
    showConversation: async (id) => void (await chats.show(id)),
    transcriptOf: (id) => chats.get(id)?.store.state,
  };
  // Any installed extension reads the exports: the controls that act in the user's name are not among them.
  return parts.testMode ? { ...api, ...testControls(parts) } : api;
}

function testControls({ chats, commands, view, agentSessions, approvalDialog }: ApiParts): AcpClientTestControls {
  return {
    answerElicitation: (answer) => {
      const conversation = chats.shown;
      if (conversation) commands.answerElicitation(conversation, answer);
    },
    postFromChat: (message) => view.receiveFromChat(message),
    sendPromptTo: async (id, text) => commands.sendPrompt(text, [], await chats.open(id)),
    flushHistory: () => chats.flush(),
    stopAgents: () => chats.stopAgents(),
    removeConversation: (id) => chats.remove(id),
    agentSessions: async () => {
      await agentSessions.refresh(true);
      return [...agentSessions.list().values()].flat();
    },
    answerApprovalsForTests: (answerer) => void (approvalDialog.answerer = answerer),
  };
}
