/**
 * The lifecycle of a conversation's agent, as one table: which states exist, and which state each event or command
 * leads to. The session controller advances its own copy through `advance` (an event the table does not allow is
 * refused with the reason, never applied); the header, the Sessions view, context keys, Select Agent and the
 * commands read the state through `lifecycleOf` and the predicates below, never from fields of their own.
 * Pure (no editor, no Node): the webview derives its header from the same table.
 */
import type { TranscriptState } from './model';

export const LIFECYCLE_STATES = [
  /** No agent was ever started for this conversation. */
  'no_agent',
  /** A process is being spawned, initialized and asked for a session (or a session is reopened on it). */
  'starting',
  /** The process runs but refused a session (or a prompt) until the user signs in. */
  'sign_in_needed',
  /** A session is open and no turn runs. */
  'ready',
  /** A prompt turn runs. */
  'turn_running',
  /** The user cancelled the turn; the agent has not ended it yet. */
  'cancelling',
  /** The turn waits on the user: a permission request or an elicitation is open. */
  'waiting_for_user',
  /** The user stopped the agent; its session is being closed and its process ended. */
  'stopping',
  /** The process ended on its own, or could not start a session. */
  'exited',
  /** Stopped as asked (or idle, or restored from history): the next prompt starts it and continues the session. */
  'not_running',
] as const;
export type LifecycleState = (typeof LIFECYCLE_STATES)[number];

export const LIFECYCLE_EVENTS = [
  /** Command: start (Select Agent, Restart, New Session, a prompt to a stopped agent, a retry). */
  'start',
  /** Command: Stop Agent (also the idle stop and "stop the unresponsive agent"). */
  'stop',
  /** The agent opened (or reopened) the session. */
  'session_opened',
  /** The agent refused the session or a prompt until the user signs in. */
  'auth_required',
  /** A start that did not happen: untrusted workspace, no folder, the definition was not approved. */
  'start_refused',
  /** Starting failed; the process was stopped. */
  'start_failed',
  /** Command: a prompt went to the agent. */
  'prompt_sent',
  /** Command: Cancel Turn. */
  'cancel',
  /** The agent asked the user something (permission, elicitation) during the turn. */
  'question_asked',
  /** Every question the agent asked was answered (or withdrawn). */
  'questions_answered',
  /** The turn ended (any stop reason) or failed. */
  'turn_ended',
  /** The process is gone after a stop. */
  'stopped',
  /** The process exited without being asked. */
  'process_exited',
] as const;
export type LifecycleEvent = (typeof LIFECYCLE_EVENTS)[number];

/** The states in which the agent's process runs (it may take a prompt, a sign-in, a cancel or a stop). */
const LIVE: readonly LifecycleState[] = ['sign_in_needed', 'ready', 'turn_running', 'cancelling', 'waiting_for_user'];
const IN_TURN: readonly LifecycleState[] = ['turn_running', 'cancelling', 'waiting_for_user'];

type Row = Readonly<Partial<Record<LifecycleEvent, LifecycleState>>>;

const fromAnyProcess: Row = { start: 'starting', stop: 'stopping', process_exited: 'exited' };
const inTurn: Row = { ...fromAnyProcess, turn_ended: 'ready', auth_required: 'sign_in_needed' };

/**
 * The transitions. A missing cell is an illegal transition: `advance` refuses it with the reason below.
 * `start` is allowed from every state: a newer start supersedes whatever runs or starts (see SessionController).
 */
export const TRANSITIONS: Readonly<Record<LifecycleState, Row>> = {
  no_agent: { start: 'starting', stop: 'not_running' },
  starting: {
    ...fromAnyProcess,
    session_opened: 'ready',
    auth_required: 'sign_in_needed',
    start_refused: 'not_running',
    start_failed: 'exited',
  },
  sign_in_needed: { ...fromAnyProcess, session_opened: 'ready', auth_required: 'sign_in_needed', start_failed: 'exited' },
  ready: {
    ...fromAnyProcess,
    prompt_sent: 'turn_running',
    question_asked: 'waiting_for_user',
    auth_required: 'sign_in_needed',
    session_opened: 'ready',
  },
  turn_running: { ...inTurn, cancel: 'cancelling', question_asked: 'waiting_for_user' },
  cancelling: { ...inTurn, question_asked: 'cancelling', questions_answered: 'cancelling' },
  waiting_for_user: { ...inTurn, cancel: 'cancelling', question_asked: 'waiting_for_user', questions_answered: 'turn_running' },
  stopping: { start: 'starting', stop: 'stopping', stopped: 'not_running', process_exited: 'not_running' },
  // A start's failure reported after its process died (the exit came first) leaves it exited.
  exited: { start: 'starting', stop: 'not_running', start_failed: 'exited' },
  not_running: { start: 'starting', stop: 'not_running' },
};

export type Transition =
  | { readonly ok: true; readonly state: LifecycleState }
  | { readonly ok: false; readonly state: LifecycleState; readonly reason: string };

/** Where `event` leads from `state`; an event the table does not allow leaves the state as it was, with the reason. */
export function advance(state: LifecycleState, event: LifecycleEvent): Transition {
  const next = TRANSITIONS[state][event];
  if (next !== undefined) return { ok: true, state: next };
  return { ok: false, state, reason: `${event} is not allowed while the agent is ${LIFECYCLE_WORDS[state]}` };
}

/** The agent's process runs (it may be busy or need a sign-in). */
export const isLive = (state: LifecycleState): boolean => LIVE.includes(state);
/** A turn is under way (working, cancelling or waiting for the user's answer). */
export const inTurnState = (state: LifecycleState): boolean => IN_TURN.includes(state);
/** There is something for Stop Agent to stop. */
export const canStop = (state: LifecycleState): boolean => state === 'starting' || state === 'stopping' || isLive(state);

/**
 * The lifecycle state a transcript shows. `openQuestions`: permission requests and elicitations the user has not
 * answered yet (the host knows them; without the count a turn that waits reads as running). The store never holds
 * `stopping` (a stop is short and the header keeps what it said until the process is gone).
 */
export function lifecycleOf(state: Pick<TranscriptState, 'agent' | 'turn'>, openQuestions = 0): LifecycleState {
  switch (state.agent.phase) {
    case 'none':
      return 'no_agent';
    case 'starting':
      return 'starting';
    case 'needs_auth':
      return 'sign_in_needed';
    case 'exited':
      return 'exited';
    case 'stopped':
      return 'not_running';
    case 'ready':
      if (state.turn.phase === 'cancelling') return 'cancelling';
      // A question the agent asks outside a turn (a sign-in's elicitation) waits for the user just the same.
      if (openQuestions > 0) return 'waiting_for_user';
      return state.turn.phase === 'running' ? 'turn_running' : 'ready';
  }
}

/** What each state is called where the user reads it (Select Agent's detail, the reasons above). */
export const LIFECYCLE_WORDS: Readonly<Record<LifecycleState, string>> = {
  no_agent: 'not started',
  starting: 'starting',
  sign_in_needed: 'sign-in needed',
  ready: 'running',
  turn_running: 'running',
  cancelling: 'running',
  waiting_for_user: 'running',
  stopping: 'stopping',
  exited: 'exited',
  not_running: 'stopped',
};
