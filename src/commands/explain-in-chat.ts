/**
 * A command that cannot do what its name says for a conversation: the chat says why and what to do instead (a notice
 * in its transcript, where the user is looking), never a silent no-op nor a toast that vanishes.
 */
import type { Conversation } from '../conversations/conversation';
import { isLive } from '../shared/lifecycle';

export function explainInChat(conversation: Pick<Conversation, 'store'>, title: string, detail: string): void {
  conversation.store.dispatch({ type: 'notice_added', severity: 'info', title, detail });
}

/**
 * For a command that needs the conversation's agent running with its session open (`needs`: what it does, e.g.
 * "Forking"): false, and the chat says why and what to do, when the agent is not there yet or any more.
 */
export function explainUnlessSessionOpen(conversation: Conversation, needs: string): boolean {
  const name = conversation.agentName;
  const lifecycle = conversation.controller.lifecycle;
  // A session is open from ready through a turn and its questions; only sign-in keeps a live process without one.
  if (isLive(lifecycle) && lifecycle !== 'sign_in_needed') return true;
  if (!name) explainInChat(conversation, 'No agent is running', 'ACP: Select Agent… picks one, ACP: Add Agent… installs one.');
  else if (lifecycle === 'sign_in_needed')
    explainInChat(conversation, `${name} needs sign-in`, `${needs} needs a session: run ACP: Sign In… first.`);
  else if (lifecycle === 'starting')
    explainInChat(conversation, `${name} is starting`, `${needs} needs its session: try again once it is ready.`);
  else
    explainInChat(
      conversation,
      `${name} is not running`,
      `${needs} needs its session: send a prompt or run ACP: Restart Agent, then try again.`,
    );
  return false;
}
