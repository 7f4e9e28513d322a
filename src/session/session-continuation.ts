/**
 * Continuing a conversation's ACP session when its agent starts again (after a reload, an idle stop, a crash):
 * `session/resume` where the agent offers it (no replay), else `session/load` with the replay left out (the stored
 * transcript already shows it), else a fresh session and a note that the agent does not remember the old one.
 */
import type { TranscriptState } from '../shared/model';
import type { LogSink } from '../acp/log-sink';
import type { SessionOpening } from './session-opening';
import type { AgentSession, SessionSupport, StartedSession } from './agent-session';
import { AuthRequired } from './auth-required';
import { errorMessage } from '../shared/error-text';

/** The agent's session id this conversation had, if there is anything to continue and it was with `agentName`. */
export function sessionToContinue(state: TranscriptState, agentName: string): string | undefined {
  if (state.sessionId === undefined || state.entryCount === 0) return undefined;
  const agent = state.agent;
  return agent.phase !== 'none' && agent.agentName !== agentName ? undefined : state.sessionId;
}

/**
 * A session to open again: `suppress` for our own conversation (its transcript shows the history already: resume
 * is preferred, it sends none), `show` for one of the agent's own sessions (load is preferred: it shows the history).
 */
export interface Continuation {
  readonly sessionId: string;
  readonly replay: 'show' | 'suppress';
}

export function continuationOf(sessionId: string | undefined): Continuation | undefined {
  return sessionId === undefined ? undefined : { sessionId, replay: 'suppress' };
}

export function continuingOpening(previous: Continuation | undefined, support: SessionSupport): SessionOpening {
  if (previous === undefined) return { kind: 'new' };
  const { sessionId, replay } = previous;
  if (replay === 'show' && support.load) return { kind: 'load', sessionId, replay };
  if (support.resume) return { kind: 'resume', sessionId };
  if (support.load) return { kind: 'load', sessionId, replay };
  return { kind: 'new' };
}

export function cannotContinueNotice(agentName: string): { title: string; detail: string } {
  return {
    title: `${agentName} cannot continue the earlier session`,
    detail: `It offers neither session/resume nor session/load, so a fresh session was opened. The conversation above stays here, but ${agentName} does not remember it.`,
  };
}

export function continueFailedNotice(agentName: string, reason: string): { title: string; detail: string } {
  return {
    title: `${agentName} could not continue the earlier session`,
    detail: `${reason.replace(/\.?$/, '.')} A fresh session was opened: the conversation above stays here, but ${agentName} does not remember it.`,
  };
}

/**
 * Starts the agent and opens its session: the conversation's earlier one continued where the agent can (resume,
 * else load), else a new one, with a note when the agent will not remember the conversation shown.
 */
export async function openContinuing(
  session: AgentSession,
  agentName: string,
  previous: Continuation | undefined,
  log: LogSink,
): Promise<{ session: StartedSession; notice?: { severity: 'info' | 'warning'; text: { title: string; detail: string } } }> {
  // Chosen once `initialize` says what the agent offers (a holder: the choice is made inside the call).
  const choice: { opening: SessionOpening } = { opening: { kind: 'new' } };
  try {
    const started = await session.start((support) => (choice.opening = continuingOpening(previous, support)));
    const chosen = choice.opening;
    if (previous === undefined) return { session: started };
    log.info(`${agentName}: ${chosen.kind === 'new' ? 'opened a fresh session' : `${chosen.kind}d session ${previous.sessionId}`}`);
    return chosen.kind === 'new'
      ? { session: started, notice: { severity: 'info', text: cannotContinueNotice(agentName) } }
      : { session: started };
  } catch (error) {
    // Only a refused resume or load falls back (the agent may have forgotten the session); anything else is the
    // start failing, handled by the caller.
    const chosen = choice.opening;
    if (chosen.kind === 'new' || error instanceof AuthRequired || session.exited) throw error;
    const reason = errorMessage(error);
    log.warn(`${agentName} refused to ${chosen.kind} session ${previous?.sessionId ?? ''}: ${reason}`);
    const started = await session.openSession({ kind: 'new' });
    return { session: started, notice: { severity: 'warning', text: continueFailedNotice(agentName, reason) } };
  }
}

/** How long a stop waits for the agent to answer `session/close`. */
const CLOSE_GRACE_MS = 2_000;

/** `session/close` before the process goes, where offered: the agent may tidy up. Bounded: a stop never waits long. */
export async function closePolitely(session: AgentSession, log: LogSink): Promise<void> {
  if (session.exited || session.sessionId === undefined || !session.sessionSupport.close) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_GRACE_MS)));
  await Promise.race([session.closeSession().catch((error: unknown) => log.warn(`session/close failed: ${errorMessage(error)}`)), bound]);
  clearTimeout(timer);
}
