/**
 * The state × command matrix (issue 26), as data: for each state the chat can be in and each command a user can give
 * there, what the user must see. test/integration/command-matrix.test.ts drives every cell in the real VS Code;
 * `sees` is the sentence the closing note's table shows. No cell may be a silent no-op.
 */

/** States the matrix puts the chat in (each from a fresh start, with Alpha the chat's agent). */
export type MatrixState = 'no agent configured' | 'Ready, nothing said' | 'Ready with history' | 'turn running' | 'crashed' | 'stopped';

/** Commands, each run as the palette runs it (`Select Agent` with the name its picker row passes). */
export type MatrixCommand = 'New Session' | 'Select Agent: same' | 'Select Agent: another' | 'Cancel Turn' | 'Stop Agent' | 'Restart Agent';

/** What follows the command, checked on the chat the user then sees. */
export type MatrixOutcome =
  /** The same conversation, its agent Ready (started or left running). */
  | { readonly kind: 'ready_here'; readonly agent: 'Alpha' | 'Beta' }
  /** Another conversation is shown, Ready on that agent; the one before keeps its transcript and agent. */
  | { readonly kind: 'ready_elsewhere'; readonly agent: 'Alpha' | 'Beta' }
  /** Nothing changes, and the chat says why in a notice with this title. */
  | { readonly kind: 'explained'; readonly title: string }
  /** The turn ends as cancelled. */
  | { readonly kind: 'cancelled' }
  /** The agent is stopped ("Not running"), the transcript kept. */
  | { readonly kind: 'stopped' };

export interface MatrixCell {
  readonly state: MatrixState;
  readonly command: MatrixCommand;
  readonly outcome: MatrixOutcome;
  /** Agent processes running afterwards. */
  readonly processes: { readonly Alpha: number; readonly Beta: number };
  readonly sees: string;
}

const notRunning = { kind: 'explained', title: 'Alpha is not running' } as const;
const noTurn = { kind: 'explained', title: 'No turn is running' } as const;
const none = { Alpha: 0, Beta: 0 };
const alpha = { Alpha: 1, Beta: 0 };
const both = { Alpha: 1, Beta: 1 };
const beta = { Alpha: 0, Beta: 1 };

export const MATRIX: readonly MatrixCell[] = [
  // Ready, nothing said: the conversation is a blank page, so it is reused and switched in place.
  {
    state: 'Ready, nothing said',
    command: 'New Session',
    outcome: { kind: 'ready_here', agent: 'Alpha' },
    processes: alpha,
    sees: 'the same blank conversation, Alpha Ready (no second blank one)',
  },
  {
    state: 'Ready, nothing said',
    command: 'Select Agent: same',
    outcome: { kind: 'explained', title: 'This chat is on Alpha already' },
    processes: alpha,
    sees: 'notice "This chat is on Alpha already" (New Session / Restart Agent to start over)',
  },
  {
    state: 'Ready, nothing said',
    command: 'Select Agent: another',
    outcome: { kind: 'ready_here', agent: 'Beta' },
    processes: beta,
    sees: 'header "Starting… Beta" at once, then Ready on Beta in the same conversation; Alpha\'s process ends',
  },
  { state: 'Ready, nothing said', command: 'Cancel Turn', outcome: noTurn, processes: alpha, sees: 'notice "No turn is running"' },
  {
    state: 'Ready, nothing said',
    command: 'Stop Agent',
    outcome: { kind: 'stopped' },
    processes: none,
    sees: 'header "Not running"; the process ends',
  },
  {
    state: 'Ready, nothing said',
    command: 'Restart Agent',
    outcome: { kind: 'ready_here', agent: 'Alpha' },
    processes: alpha,
    sees: 'a fresh Alpha, Ready; notice "Alpha restarted"',
  },
  // Ready with history: transcripts never mix, so another agent gets a conversation of its own.
  {
    state: 'Ready with history',
    command: 'New Session',
    outcome: { kind: 'ready_elsewhere', agent: 'Alpha' },
    processes: alpha,
    sees: 'a new conversation on Alpha (same process); the old one stays in Sessions',
  },
  {
    state: 'Ready with history',
    command: 'Select Agent: same',
    outcome: { kind: 'explained', title: 'This chat is on Alpha already' },
    processes: alpha,
    sees: 'notice "This chat is on Alpha already"',
  },
  {
    state: 'Ready with history',
    command: 'Select Agent: another',
    outcome: { kind: 'ready_elsewhere', agent: 'Beta' },
    processes: both,
    sees: 'a conversation on Beta; the Alpha one keeps its transcript and runs on',
  },
  { state: 'Ready with history', command: 'Cancel Turn', outcome: noTurn, processes: alpha, sees: 'notice "No turn is running"' },
  {
    state: 'Ready with history',
    command: 'Stop Agent',
    outcome: { kind: 'stopped' },
    processes: none,
    sees: '"Not running", the transcript kept',
  },
  {
    state: 'Ready with history',
    command: 'Restart Agent',
    outcome: { kind: 'ready_here', agent: 'Alpha' },
    processes: alpha,
    sees: 'Ready again, the session continued; notice "Alpha restarted"',
  },
  // A turn running.
  {
    state: 'turn running',
    command: 'New Session',
    outcome: { kind: 'ready_elsewhere', agent: 'Alpha' },
    processes: alpha,
    sees: 'a new conversation; the running one streams on in the background',
  },
  {
    state: 'turn running',
    command: 'Select Agent: same',
    outcome: { kind: 'explained', title: 'This chat is on Alpha already' },
    processes: alpha,
    sees: 'notice "This chat is on Alpha already"; the turn goes on',
  },
  {
    state: 'turn running',
    command: 'Select Agent: another',
    outcome: { kind: 'ready_elsewhere', agent: 'Beta' },
    processes: both,
    sees: 'a conversation on Beta; the Alpha turn goes on in its own',
  },
  { state: 'turn running', command: 'Cancel Turn', outcome: { kind: 'cancelled' }, processes: alpha, sees: 'the turn ends "Cancelled"' },
  { state: 'turn running', command: 'Stop Agent', outcome: { kind: 'stopped' }, processes: none, sees: '"Not running"; the process ends' },
  {
    state: 'turn running',
    command: 'Restart Agent',
    outcome: { kind: 'ready_here', agent: 'Alpha' },
    processes: alpha,
    sees: 'a fresh Alpha, Ready; notice "Alpha restarted"',
  },
  // Crashed (the process killed), from a conversation with history.
  {
    state: 'crashed',
    command: 'New Session',
    outcome: { kind: 'ready_elsewhere', agent: 'Alpha' },
    processes: alpha,
    sees: 'a new conversation on a fresh Alpha; the crashed one keeps its transcript',
  },
  {
    state: 'crashed',
    command: 'Select Agent: same',
    outcome: { kind: 'ready_here', agent: 'Alpha' },
    processes: alpha,
    sees: 'Alpha started again in place',
  },
  {
    state: 'crashed',
    command: 'Select Agent: another',
    outcome: { kind: 'ready_elsewhere', agent: 'Beta' },
    processes: beta,
    sees: 'a conversation on Beta',
  },
  { state: 'crashed', command: 'Cancel Turn', outcome: noTurn, processes: none, sees: 'notice "No turn is running"' },
  { state: 'crashed', command: 'Stop Agent', outcome: notRunning, processes: none, sees: 'notice "Alpha is not running"' },
  {
    state: 'crashed',
    command: 'Restart Agent',
    outcome: { kind: 'ready_here', agent: 'Alpha' },
    processes: alpha,
    sees: 'Ready again, session continued',
  },
  // Stopped (Stop Agent; the idle timeout stops the same way), from a conversation with history.
  {
    state: 'stopped',
    command: 'New Session',
    outcome: { kind: 'ready_elsewhere', agent: 'Alpha' },
    processes: alpha,
    sees: 'a new conversation on Alpha',
  },
  {
    state: 'stopped',
    command: 'Select Agent: same',
    outcome: { kind: 'ready_here', agent: 'Alpha' },
    processes: alpha,
    sees: 'Alpha started again in place',
  },
  {
    state: 'stopped',
    command: 'Select Agent: another',
    outcome: { kind: 'ready_elsewhere', agent: 'Beta' },
    processes: beta,
    sees: 'a conversation on Beta',
  },
  { state: 'stopped', command: 'Cancel Turn', outcome: noTurn, processes: none, sees: 'notice "No turn is running"' },
  { state: 'stopped', command: 'Stop Agent', outcome: notRunning, processes: none, sees: 'notice "Alpha is not running"' },
  {
    state: 'stopped',
    command: 'Restart Agent',
    outcome: { kind: 'ready_here', agent: 'Alpha' },
    processes: alpha,
    sees: 'Ready again, session continued',
  },
  // No agent configured.
  { state: 'no agent configured', command: 'Cancel Turn', outcome: noTurn, processes: none, sees: 'notice "No turn is running"' },
  {
    state: 'no agent configured',
    command: 'Stop Agent',
    outcome: { kind: 'explained', title: 'No agent is running' },
    processes: none,
    sees: 'notice that no agent runs',
  },
];
