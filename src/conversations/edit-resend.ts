/**
 * Edit a sent message and run it again: the conversation continues, in a new one, with only the history before
 * that message. ACP's `session/fork` copies the agent's whole session and has no message point (see
 * fork-from-message.ts), so a fork would keep the later turns in the agent's memory; instead the new conversation
 * starts a fresh session whose first prompt carries the earlier exchange, and the chat says so. The original
 * conversation stays as it was, in the Sessions view.
 */
import type { Conversation } from './conversation';
import type { Conversations } from './conversations';
import type { Entry } from '../shared/model';
import { historyBefore } from '../shared/transcript-fork';

/** The carried exchange is bounded: past this, only its most recent part goes (and the prompt says it was cut). */
export const MAX_CARRIED_CHARS = 60_000;

export const CARRIED_NOTICE = {
  title: 'Continued from an edited message',
  detail:
    'A new session, with the files as they were before that message. The agent cannot fork a session at a message, so its ' +
    'first prompt carries the earlier exchange as text. The original conversation is unchanged in the Sessions view.',
};

export class EditResend {
  constructor(private readonly conversations: Conversations) {}

  /** A new conversation holding the history before the message of `turnId`; and the text its first prompt carries. */
  async branch(
    conversationId: string,
    turnId: string,
  ): Promise<{ readonly conversation: Conversation; readonly carried: string } | undefined> {
    const source = this.conversations.get(conversationId);
    if (!source) return undefined;
    const state = source.store.state;
    const history = historyBefore(state, turnId);
    const agentName = source.agentName ?? (state.agent.phase === 'none' ? undefined : state.agent.agentName);
    if (!history || !agentName) return undefined;
    const title = `${source.title ?? 'Conversation'} (edited)`;
    const carried = carriedExchange(history.entries);
    const conversation = await this.conversations.create(agentName, {
      actions: [
        { type: 'history_copied', entries: history.entries, terminals: history.terminals, agentName },
        { type: 'title_set', title },
        ...(carried === '' ? [] : [{ type: 'notice_added' as const, severity: 'info' as const, ...CARRIED_NOTICE }]),
      ],
      draft: '',
    });
    return { conversation, carried };
  }
}

/** The user's and the agent's messages before the edited one, as the text a new session's first prompt starts with. */
export function carriedExchange(entries: readonly Entry[]): string {
  const turns = entries.flatMap((entry) => {
    if (entry.kind !== 'message' || entry.role === 'thought') return [];
    const text = entry.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
    return text.trim() === '' ? [] : [`${entry.role === 'user' ? 'User' : 'Assistant'}: ${text.trim()}`];
  });
  if (turns.length === 0) return '';
  let body = turns.join('\n\n');
  const cut = body.length > MAX_CARRIED_CHARS;
  if (cut) body = body.slice(body.length - MAX_CARRIED_CHARS);
  return [
    'This continues an earlier conversation in a new session. The exchange so far' + (cut ? ' (its most recent part)' : '') + ' was:',
    '<earlier-conversation>',
    body,
    '</earlier-conversation>',
    'My next message:',
  ].join('\n');
}
