/**
 * When a conversation last did something, for the lists that age and sort it. The user's prompt, and what a
 * running turn brings, are activity at that moment; when the agent reports its own last-activity time
 * (`session_info_update.updatedAt`), that is the conversation's, except that a prompt sent after it is newer.
 * Nothing else is activity: opening a stored conversation (its agent starting, the session loading, the agent
 * replaying its history outside any turn, an interrupted turn marked as such) leaves its time where it was, so a
 * re-save never makes an old conversation look new. Pure: the caller passes the clock.
 */
import type { TranscriptAction } from './actions';
import type { TranscriptState } from './model';

export class LastActivity {
  /** The conversation's own last activity, as this client saw it (or as stored). */
  private local: number;
  private promptedAt = Number.NEGATIVE_INFINITY;
  private reported: string | undefined;

  constructor(at: number, reported: string | undefined) {
    this.local = at;
    this.reported = reported;
  }

  get at(): number {
    const reportedAt = reportedTime(this.reported);
    return reportedAt === undefined ? this.local : Math.max(reportedAt, this.promptedAt);
  }

  /** The agent's reported time as last applied (lists redraw when it changes). */
  get reportedUpdatedAt(): string | undefined {
    return this.reported;
  }

  /** Folds in one action the store applied and the state it produced. */
  apply(action: TranscriptAction, state: TranscriptState, now: number): void {
    this.reported = state.agentUpdatedAt;
    if (action.type === 'prompt_sent' || action.type === 'prompt_steered') {
      this.promptedAt = now;
      this.local = now;
    } else if (state.turn.phase !== 'idle') {
      this.local = now;
    }
  }
}

/** An RFC 3339 time as milliseconds; a time that does not parse is no time. */
function reportedTime(reported: string | undefined): number | undefined {
  if (reported === undefined) return undefined;
  const time = Date.parse(reported);
  return Number.isNaN(time) ? undefined : time;
}
