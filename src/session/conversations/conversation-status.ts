/**
 * What a conversation is doing, at a glance (the Sessions tree's icon, the Switch Session list). Derived from
 * the transcript and the questions the agent has open, never guessed.
 */
import type { TranscriptState } from '../../shared/model';

export type ConversationStatus = 'running' | 'waiting' | 'starting' | 'idle' | 'stopped' | 'exited' | 'sign_in';

/** `openQuestions`: permission requests and elicitations the user has not answered yet. */
export function conversationStatus(state: TranscriptState, openQuestions: number): ConversationStatus {
  if (openQuestions > 0) return 'waiting';
  if (state.turn.phase !== 'idle') return 'running';
  switch (state.agent.phase) {
    case 'starting':
      return 'starting';
    case 'ready':
      return 'idle';
    case 'needs_auth':
      return 'sign_in';
    case 'exited':
      return 'exited';
    case 'none':
    case 'stopped':
      return 'stopped';
  }
}

export const STATUS_WORDS: Readonly<Record<ConversationStatus, string>> = {
  running: 'Working',
  waiting: 'Waiting for you',
  starting: 'Starting',
  idle: 'Idle',
  stopped: 'Not running',
  exited: 'Exited',
  sign_in: 'Sign-in needed',
};
