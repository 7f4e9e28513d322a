/**
 * How AgentSession opens an ACP session: a new one, or one of the agent's own sessions again (resume: no
 * replay; load: the agent replays the history as `session/update`s before it answers). During a load the
 * session id is known before the answer, so the replay can be shown as it streams, or dropped when the client
 * already restored its own transcript and showing it again would double every message.
 */
import type { SessionUpdate, SessionUpdateKind } from '../shared/updates';

export type SessionOpening =
  | { readonly kind: 'new' }
  | { readonly kind: 'resume'; readonly sessionId: string }
  | { readonly kind: 'load'; readonly sessionId: string; readonly replay: 'show' | 'suppress' };

/** Thrown, before anything is sent, for a lifecycle method the agent did not advertise in `initialize`. */
export class SessionMethodUnsupported extends Error {
  constructor(
    agentName: string,
    readonly method: string,
  ) {
    super(`${agentName} does not support ${method}`);
    this.name = 'SessionMethodUnsupported';
  }
}

/**
 * Kinds that set the session's state rather than add to its history: applying them again replaces, never
 * doubles, so a suppressed replay still lets them through (an agent lists its commands or mode while loading).
 */
const STATE_KINDS: ReadonlySet<SessionUpdateKind> = new Set([
  'available_commands_update',
  'current_mode_update',
  'config_option_update',
  'session_info_update',
  'usage_update',
]);

/** What becomes of the updates for the session a `session/load` in flight is loading. */
export class LoadReplay {
  private suppressed = 0;

  constructor(private readonly replay: 'show' | 'suppress') {}

  /** Whether the update goes to the transcript; a suppressed one is counted. */
  admits(update: SessionUpdate): boolean {
    if (this.replay === 'show' || STATE_KINDS.has(update.sessionUpdate)) return true;
    this.suppressed++;
    return false;
  }

  /** How many replayed updates were dropped. */
  get dropped(): number {
    return this.suppressed;
  }
}
