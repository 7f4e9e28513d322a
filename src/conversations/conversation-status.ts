/**
 * What a conversation is doing, at a glance (the Sessions tree's icon, the Switch Session list). Derived from
 * the transcript and the questions the agent has open, never guessed.
 */
import type { TranscriptState } from '../shared/model';
import { entryAtPosition } from '../shared/pages';
import { lifecycleOf } from '../shared/lifecycle';

export type ConversationStatus = 'running' | 'waiting' | 'starting' | 'idle' | 'error' | 'stopped' | 'exited' | 'sign_in';

/** How far back from the end the last turn's end is looked for (what follows it is a few notices at most). */
const TURN_END_LOOKBACK = 20;

/** `openQuestions`: permission requests and elicitations the user has not answered yet. */
export function conversationStatus(state: TranscriptState, openQuestions: number): ConversationStatus {
  const lifecycle = lifecycleOf(state, openQuestions);
  switch (lifecycle) {
    case 'waiting_for_user':
      return 'waiting';
    case 'turn_running':
    case 'cancelling':
      return 'running';
    case 'starting':
      return 'starting';
    case 'ready':
      return lastTurnFailed(state) ? 'error' : 'idle';
    case 'sign_in_needed':
      return 'sign_in';
    case 'exited':
      return 'exited';
    case 'no_agent':
    case 'stopping':
    case 'not_running':
      return 'stopped';
  }
}

/** The agent runs, but the conversation's last turn ended in an error: worth a look. */
function lastTurnFailed(state: TranscriptState): boolean {
  const stop = Math.max(0, state.entryCount - TURN_END_LOOKBACK);
  for (let position = state.entryCount - 1; position >= stop; position--) {
    const entry = entryAtPosition(state, position);
    if (entry?.kind === 'turn_end') return entry.outcome.type === 'error';
    if (entry?.kind === 'message' && entry.role === 'user') return false;
  }
  return false;
}

export const STATUS_WORDS: Readonly<Record<ConversationStatus, string>> = {
  running: 'Working',
  waiting: 'Waiting for you',
  starting: 'Starting',
  idle: 'Idle',
  error: 'Last turn failed',
  stopped: 'Not running',
  exited: 'Exited',
  sign_in: 'Sign-in needed',
};
