/**
 * "Restore and fork": the conversation continues, in a new conversation, from before one of the user's messages.
 * ACP's `session/fork` copies the agent's whole session and has no message point, so the new conversation shows
 * the history up to that message, continues the agent's fork, and says plainly that the agent itself still
 * remembers the later turns. The message goes back into the composer to be edited and sent again.
 */
import type { Conversation } from './conversation';
import type { Conversations } from './conversations';
import type { TranscriptAction } from '../shared/actions';
import { historyBefore, messageText, userMessageOf } from '../shared/transcript-fork';
import { visibleText } from '../shared/visible-text';

export interface ForkDeps {
  readonly conversations: Conversations;
  /** Starts the new conversation's agent (it continues the forked session). */
  readonly ensureAgent: (conversation: Conversation) => Promise<unknown>;
}

export class ForkFromMessage {
  constructor(private readonly deps: ForkDeps) {}

  /** Whether the conversation's agent runs and offers `session/fork`. */
  offered(conversationId: string): boolean {
    return this.deps.conversations.get(conversationId)?.controller.support?.fork === true;
  }

  /** Forks `conversationId` before the user message of `turnId`; the new conversation is shown. */
  async fork(conversationId: string, turnId: string): Promise<Conversation | undefined> {
    const source = this.deps.conversations.get(conversationId);
    if (!source) return undefined;
    const state = source.store.state;
    const message = userMessageOf(state, turnId);
    const history = historyBefore(state, turnId);
    const agentName = source.agentName ?? (state.agent.phase === 'none' ? undefined : state.agent.agentName);
    if (!message || !history || !agentName) return undefined;
    const draft = messageText(message.content);
    const title = `${source.title ?? 'Conversation'} (fork)`;
    const actions: TranscriptAction[] = [];
    if (history.entries.length === 0) {
      // Before the first message there is nothing for the agent to remember: a fresh session is the exact fork.
      actions.push(
        { type: 'title_set', title },
        {
          type: 'notice_added',
          severity: 'info',
          title: 'Forked before the first message',
          detail: 'A fresh session: your message is back in the composer.',
        },
      );
    } else {
      const sessionId = await source.controller.fork();
      actions.push(
        { type: 'history_copied', entries: history.entries, terminals: history.terminals, sessionId, agentName },
        { type: 'title_set', title },
        {
          type: 'notice_added',
          severity: 'info',
          title: 'Forked before your message',
          detail:
            `The files are as they were before it, and your message is back in the composer. ${visibleText(agentName)} forked its whole ` +
            'session (ACP has no way to fork at a message), so its own memory still includes the later turns: say so if it should set them aside.',
        },
      );
    }
    const forked = await this.deps.conversations.create(agentName, { actions, draft });
    await this.deps.ensureAgent(forked);
    return forked;
  }
}
