/** Part of the composition root: the API the extension returns from `activate` (tests and other extensions use it). */
import * as vscode from 'vscode';
import type { AcpClientApi } from './api';
import type { Conversations } from './conversations/conversations';
import type { ShownTranscript } from './conversations/shown-transcript';
import type { AgentSessions } from './conversations/agent-sessions';
import type { ChatCommands } from './commands/chat-commands';
import type { ChatViewProvider } from './views/chat-view-provider';
import type { ModalApprovalDialog } from './editor/definition-approval-dialog';

export interface ApiParts {
  readonly context: vscode.ExtensionContext;
  readonly chats: Conversations;
  readonly commands: ChatCommands;
  readonly view: ChatViewProvider;
  readonly shown: ShownTranscript;
  /** Settles once the history is open and the conversation shown last is back. */
  /** Restores the conversation shown last (once; later calls get the same promise). */
  readonly restore: () => Promise<void>;
  readonly agentSessions: AgentSessions;
  readonly approvalDialog: ModalApprovalDialog;
}

export function acpClientApi({ context, chats, commands, view, shown, restore, agentSessions, approvalDialog }: ApiParts): AcpClientApi {
  return {
    transcript: () => shown.state,
    onDidChangeTranscript: (listener) => {
      const changed = shown.subscribe((_action, state) => listener(state));
      const switched = shown.onDidSwitch(listener);
      return { dispose: () => (changed.dispose(), switched.dispose()) };
    },
    chatViewReady: () => view.firstReady,
    sendPrompt: (text, attachments) => restore().then(() => commands.sendPrompt(text, attachments)),
    answerElicitation: (answer) => {
      const conversation = chats.shown;
      if (conversation) commands.answerElicitation(conversation, answer);
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
