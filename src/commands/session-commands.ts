/**
 * Commands over the list of conversations: show one (from the Sessions view), "ACP: Switch Session…" (a quick
 * pick searching titles and prompts), rename, delete, and open in an editor panel. Each takes the conversation's
 * id as its argument (tree items pass their node) and defaults to the conversation shown.
 */
import * as vscode from 'vscode';
import type { ConversationInfo, Conversations } from '../conversations/conversations';
import { STATUS_WORDS } from '../conversations/conversation-status';
import type { SessionNode, SessionsTree } from '../editor/sessions-tree';
import { conversationLabel } from '../editor/sessions-tree-text';
import { shortAge } from '../shared/relative-time';
import { shownText } from '../shared/shown-text';
import type { ChatPanels } from '../views/chat-panels';
import type { AgentSessions } from '../conversations/agent-sessions';
import type { ChatCommands } from './chat-commands';
import type { ChatViewProvider } from '../views/chat-view-provider';
import { explainInChat, explainUnlessSessionOpen } from './explain-in-chat';
import { errorMessage } from '../shared/error-text';

export interface SessionCommandParts {
  readonly conversations: Conversations;
  readonly agentSessions: AgentSessions;
  readonly chat: ChatCommands;
  readonly tree: SessionsTree;
  readonly view: ChatViewProvider;
  readonly panels: ChatPanels;
}

export function registerSessionCommands(parts: SessionCommandParts): vscode.Disposable {
  const { conversations, tree, view, panels, chat, agentSessions } = parts;
  const idOf = (argument: unknown): string | undefined => conversationIdOf(argument) ?? conversations.shown?.id;

  const show = async (argument: unknown): Promise<void> => {
    const id = conversationIdOf(argument);
    if (id === undefined) return;
    if (panels.has(id)) {
      // It has a panel of its own: that is where it is.
      const conversation = await conversations.open(id);
      panels.open(conversation);
      return;
    }
    await conversations.show(id);
    await view.reveal();
  };

  // The list is the history's: a command that activated the extension waits for it to be read (extension.ts).
  const registerCommand = (id: string, handler: (...args: unknown[]) => unknown): vscode.Disposable =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      await chat.whenRestored();
      return handler(...args);
    });

  return vscode.Disposable.from(
    registerCommand('acpClient.showSession', (argument: unknown) => show(argument).catch(reportFailure('show'))),
    registerCommand('acpClient.switchSession', async () => {
      const picked = await pickConversation(conversations.listed(), conversations.shown?.id);
      if (picked) await show(picked).catch(reportFailure('show'));
    }),
    registerCommand('acpClient.renameSession', async (argument: unknown) => {
      const id = idOf(argument);
      const info = conversations.list().find((candidate) => candidate.id === id);
      if (!id || !info) return;
      const title = await vscode.window.showInputBox({
        title: 'ACP: Rename Session',
        value: info.title ?? info.firstPrompt ?? '',
        prompt: 'A name for this conversation in the Sessions list',
        validateInput: (value) => (value.trim() ? undefined : 'The name cannot be empty.'),
      });
      if (title?.trim()) await conversations.rename(id, title.trim()).catch(reportFailure('rename'));
    }),
    registerCommand('acpClient.deleteSession', async (argument: unknown) => {
      const id = idOf(argument);
      const info = conversations.list().find((candidate) => candidate.id === id);
      if (!id || !info) return;
      const confirmed = await vscode.window.showWarningMessage(
        `Delete "${conversationLabel(info)}"?`,
        {
          modal: true,
          detail:
            'Its transcript is removed from this workspace’s history and its agent is stopped. An agent that offers session/delete (and is running) deletes its copy too.',
        },
        'Delete',
      );
      if (confirmed === 'Delete') await conversations.remove(id).catch(reportFailure('delete'));
    }),
    registerCommand('acpClient.openSessionInEditor', async (argument: unknown) => {
      const id = idOf(argument);
      if (!id) return;
      const conversation = await conversations.open(id).catch(reportFailure('open'));
      if (!conversation) return;
      // Moved, not copied: the sidebar goes on with another conversation, so one draft is not typed in two places.
      if (conversations.shown?.id === id) {
        const other = conversations.list().find((candidate) => candidate.id !== id && !panels.has(candidate.id));
        if (other) await conversations.show(other.id);
        else await conversations.create(conversation.agentName);
      }
      panels.open(conversation);
    }),
    registerCommand('acpClient.refreshSessions', async () => {
      await agentSessions.refresh(true);
      tree.refresh();
    }),
    registerCommand('acpClient.openAgentSession', async (agentName: unknown, sessionId: unknown, title: unknown) => {
      if (typeof agentName !== 'string' || typeof sessionId !== 'string') return;
      const cannotOpen = agentSessions
        .list()
        .get(agentName)
        ?.find((session) => session.sessionId === sessionId)?.cannotOpen;
      if (cannotOpen) return void vscode.window.showInformationMessage(shownText(cannotOpen, 'notification'));
      await chat.openAgentSession(agentName, sessionId, typeof title === 'string' ? title : undefined).catch(reportFailure('open'));
    }),
    registerCommand('acpClient.forkSession', async (argument: unknown) => {
      const id = idOf(argument);
      const conversation = id === undefined ? undefined : conversations.get(id);
      if (!conversation) return void vscode.window.showInformationMessage('Open a conversation to fork it.');
      if (!explainUnlessSessionOpen(conversation, 'Forking')) return;
      if (!conversation.controller.support?.fork)
        return explainInChat(
          conversation,
          `${conversation.agentName ?? 'The agent'} cannot fork sessions`,
          'It does not offer session/fork. ACP: New Session starts afresh.',
        );
      await chat.fork(conversation).catch(reportFailure('fork'));
    }),
  );
}

async function pickConversation(list: readonly ConversationInfo[], shownId: string | undefined): Promise<string | undefined> {
  type Item = vscode.QuickPickItem & { id: string };
  const now = Date.now();
  const items: Item[] = list.map((info) => ({
    id: info.id,
    label: `${info.id === shownId ? '$(comment-discussion) ' : ''}${shownText(conversationLabel(info), 'quick-pick')}`,
    description: [
      info.agentName ? shownText(info.agentName, 'quick-pick') : undefined,
      STATUS_WORDS[info.status],
      shortAge(info.updatedAt, now),
    ]
      .filter((part) => part !== undefined)
      .join(' · '),
    // Searched too: the first prompt finds a conversation whose title says something else.
    ...(info.firstPrompt && info.firstPrompt !== info.title
      ? { detail: shownText(info.firstPrompt.replace(/\s+/g, ' '), 'quick-pick') }
      : {}),
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title: 'ACP: Switch Session',
    placeHolder: list.length ? 'Search conversations by title or prompt' : 'No conversations yet',
    matchOnDescription: true,
    matchOnDetail: true,
  });
  return picked?.id;
}

/** Tree items pass their node; commands and tests pass the id. */
function conversationIdOf(argument: unknown): string | undefined {
  if (typeof argument === 'string') return argument;
  const node = argument as SessionNode | undefined;
  return typeof argument === 'object' && argument !== null && node?.kind === 'conversation' ? node.info.id : undefined;
}

function reportFailure(what: string): (error: unknown) => undefined {
  return (error) => {
    void vscode.window.showErrorMessage(shownText(`Could not ${what} the session: ${errorMessage(error)}`, 'notification'));
    return undefined;
  };
}
