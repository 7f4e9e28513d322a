/**
 * The state × command matrix (issue 26), as data: for each state the chat can be in and each command a user can give
 * there, what the user must see. test/integration/command-matrix.test.ts drives every cell in the real VS Code;
 * `sees` is the sentence the closing note's table shows. No cell may be a silent no-op.
 *
 * One row shape (`MatrixCell`); states that answer a command alike share one line (`alike`). The states that need
 * a browser (restored after Reload Window, Escape, the focus command, typing while the webview loads) are in
 * test/e2e/matrix-states.ts.
 */

/** States the matrix puts the chat in (each from a fresh start, with Alpha the chat's agent). */
export type MatrixState =
  | 'no agent configured'
  | 'starting'
  | 'sign-in needed'
  | 'Ready, nothing said'
  | 'Ready with history'
  | 'turn running'
  | 'waiting for a permission'
  | 'waiting for an elicitation'
  | 'crashed'
  | 'stopped'
  | 'stopped by the idle timeout';

/** Commands, each run as the palette runs it (a picker's row chosen as a person would), or a click in the chat. */
export type MatrixCommand =
  | 'New Session'
  | 'Select Agent: same'
  | 'Select Agent: another'
  | 'Cancel Turn'
  | 'Stop button'
  | 'Stop Agent'
  | 'Restart Agent'
  | 'Send'
  | 'Sign In'
  | 'Sign Out'
  | 'Select Mode'
  | 'Mode picker in the header'
  | 'Change Session Option'
  | 'Fork'
  | 'Switch Session'
  | 'Open in Editor'
  | 'Delete'
  | 'Rename'
  | 'Review Changes'
  | 'Restore to here';

type Agent = 'Alpha' | 'Beta';

/** What follows the command, checked on the chat the user then sees. */
export type MatrixOutcome =
  /** The same conversation, its agent Ready (started or left running). */
  | { readonly kind: 'ready_here'; readonly agent: Agent }
  /** Another conversation is shown, Ready on that agent; the one before keeps its transcript and agent. */
  | { readonly kind: 'ready_elsewhere'; readonly agent: Agent }
  /** The same conversation, its agent (running) asking for sign-in: the chat shows the Sign In button and methods. */
  | { readonly kind: 'sign_in_here' }
  /** Nothing changes, and the chat says why in a notice with this title (and the button of `action`, if given). */
  | { readonly kind: 'explained'; readonly title: string; readonly action?: 'sign_in' }
  /** The turn ends as cancelled. */
  | { readonly kind: 'cancelled' }
  /** The agent is stopped ("Not running"), the transcript kept. */
  | { readonly kind: 'stopped' }
  /** The prompt sent is answered in this conversation (after the agent starts, or the turn before ends). */
  | { readonly kind: 'answered' }
  /** The prompt waits in the queue under the composer (shown, removable) while the agent asks the user. */
  | { readonly kind: 'queued' }
  /** The prompt is refused with this reason shown; the draft stays in the composer. */
  | { readonly kind: 'refused'; readonly reason: string }
  /** The header's picker shows the new value: the agent took it. */
  | { readonly kind: 'mode_set'; readonly mode: string }
  | { readonly kind: 'option_set'; readonly option: string; readonly value: string }
  /** Another conversation is shown (the one picked). */
  | { readonly kind: 'switched' }
  /** The conversation moves to an editor tab; the sidebar shows another one. */
  | { readonly kind: 'in_editor' }
  /** The conversation is gone from the Sessions list and the chat shows another one. */
  | { readonly kind: 'deleted' }
  /** The same conversation, listed in Sessions under the name typed in the input box; its agent as before. */
  | { readonly kind: 'renamed' }
  /** The multi-file diff editor shows the agent's change ("Agent changes (1 file)"); the chat stays as it was. */
  | { readonly kind: 'reviewing' }
  /** The file the agent wrote after the message is put back as it was before it (here: gone again). */
  | { readonly kind: 'restored' };

export interface MatrixCell {
  readonly state: MatrixState;
  readonly command: MatrixCommand;
  readonly outcome: MatrixOutcome;
  /** Agent processes running afterwards. */
  readonly processes: { readonly Alpha: number; readonly Beta: number };
  readonly sees: string;
}

type Line = Omit<MatrixCell, 'state'>;

/** One line for every state in `states` that answers the command the same way. */
function alike(states: readonly MatrixState[], line: Line): MatrixCell[] {
  return states.map((state) => ({ state, ...line }));
}

const line = (
  command: MatrixCommand,
  outcome: MatrixOutcome,
  processes: { readonly Alpha: number; readonly Beta: number },
  sees: string,
): Line => ({
  command,
  outcome,
  processes,
  sees,
});

const explained = (title: string): MatrixOutcome => ({ kind: 'explained', title });
const none = { Alpha: 0, Beta: 0 };
const alpha = { Alpha: 1, Beta: 0 };
const both = { Alpha: 1, Beta: 1 };
const beta = { Alpha: 0, Beta: 1 };

/** A turn holds the chat: it streams, or the agent waits for the user's answer. */
const BUSY: readonly MatrixState[] = ['turn running', 'waiting for a permission', 'waiting for an elicitation'];
/** The agent runs and a session is open. */
const RUNNING: readonly MatrixState[] = ['Ready, nothing said', 'Ready with history', ...BUSY];
/** Nothing was said yet: a blank conversation (not listed in Sessions). */
const BLANK: readonly MatrixState[] = ['no agent configured', 'starting', 'sign-in needed', 'Ready, nothing said'];
/** The conversation has an exchange and its agent is not running. */
const DOWN: readonly MatrixState[] = ['crashed', 'stopped', 'stopped by the idle timeout'];
const STOPPED: readonly MatrixState[] = ['stopped', 'stopped by the idle timeout'];
/** Agent processes each state has, for commands that leave the agent as it is. */
const AS_BEFORE: Readonly<Record<MatrixState, { readonly Alpha: number; readonly Beta: number }>> = {
  'no agent configured': none,
  starting: alpha,
  'sign-in needed': alpha,
  'Ready, nothing said': alpha,
  'Ready with history': alpha,
  'turn running': alpha,
  'waiting for a permission': alpha,
  'waiting for an elicitation': alpha,
  crashed: none,
  stopped: none,
  'stopped by the idle timeout': none,
};
/** One cell per state in `states`, each with the processes its state has (the command leaves the agent alone). */
function asBefore(states: readonly MatrixState[], command: MatrixCommand, outcome: MatrixOutcome, sees: string): MatrixCell[] {
  return states.map((state) => ({ state, command, outcome, processes: AS_BEFORE[state], sees }));
}

export const MATRIX: readonly MatrixCell[] = [
  // New Session: a blank conversation is reused; otherwise a new one, the old one going on beside it.
  ...alike(
    ['Ready, nothing said'],
    line('New Session', { kind: 'ready_here', agent: 'Alpha' }, alpha, 'the same blank conversation, Alpha Ready (no second blank one)'),
  ),
  ...alike(
    ['starting'],
    line('New Session', { kind: 'ready_here', agent: 'Alpha' }, alpha, 'the same blank conversation; Alpha goes on starting, then Ready'),
  ),
  ...alike(
    ['sign-in needed'],
    line('New Session', { kind: 'sign_in_here' }, alpha, 'the same blank conversation; the chat says Alpha needs sign-in first'),
  ),
  ...alike(
    ['Ready with history', ...BUSY],
    line(
      'New Session',
      { kind: 'ready_elsewhere', agent: 'Alpha' },
      alpha,
      'a new conversation on Alpha (same process); the old one goes on and stays in Sessions',
    ),
  ),
  ...alike(
    DOWN,
    line(
      'New Session',
      { kind: 'ready_elsewhere', agent: 'Alpha' },
      alpha,
      'a new conversation on a fresh Alpha; the old one keeps its transcript',
    ),
  ),

  // Select Agent → the agent the chat is on already.
  ...alike(
    [...RUNNING],
    line(
      'Select Agent: same',
      explained('This chat is on Alpha already'),
      alpha,
      'notice "This chat is on Alpha already" (New Session / Restart Agent to start over)',
    ),
  ),
  ...alike(['starting'], line('Select Agent: same', explained('Alpha is starting already'), alpha, 'notice "Alpha is starting already"')),
  ...alike(
    ['sign-in needed'],
    line(
      'Select Agent: same',
      { kind: 'explained', title: 'Alpha needs sign-in', action: 'sign_in' },
      alpha,
      'notice "Alpha needs sign-in" with its Sign in… button (this chat is on it already); still "Sign-in needed"',
    ),
  ),
  ...alike(
    DOWN,
    line('Select Agent: same', { kind: 'ready_here', agent: 'Alpha' }, alpha, 'Alpha started again in place, session continued'),
  ),

  // Select Agent → another agent: in place on a blank page, else in a conversation of its own.
  ...alike(
    ['Ready, nothing said', 'starting', 'sign-in needed'],
    line(
      'Select Agent: another',
      { kind: 'ready_here', agent: 'Beta' },
      beta,
      'header "Starting… Beta" at once, then Ready on Beta in the same conversation; Alpha\'s process ends',
    ),
  ),
  ...alike(
    ['Ready with history', ...BUSY],
    line(
      'Select Agent: another',
      { kind: 'ready_elsewhere', agent: 'Beta' },
      both,
      'a conversation on Beta; the Alpha one keeps its transcript and goes on',
    ),
  ),
  ...alike(DOWN, line('Select Agent: another', { kind: 'ready_elsewhere', agent: 'Beta' }, beta, 'a conversation on Beta')),

  // Cancel Turn from the palette, and the chat's Stop button (shown only while a turn runs).
  ...alike(
    ['starting', 'sign-in needed', 'Ready, nothing said', 'Ready with history'],
    line('Cancel Turn', explained('No turn is running'), alpha, 'notice "No turn is running"'),
  ),
  ...alike(DOWN, line('Cancel Turn', explained('No turn is running'), none, 'notice "No turn is running"')),
  ...alike(BUSY, line('Cancel Turn', { kind: 'cancelled' }, alpha, 'the turn ends "Cancelled" (a pending question is withdrawn)')),
  ...alike(BUSY, line('Stop button', { kind: 'cancelled' }, alpha, 'the turn ends "Cancelled" (a pending question is withdrawn)')),

  // Stop Agent.
  ...alike(
    ['starting', 'sign-in needed', ...RUNNING],
    line('Stop Agent', { kind: 'stopped' }, none, 'header "Not running"; the process ends; transcript kept'),
  ),
  ...alike(DOWN, line('Stop Agent', explained('Alpha is not running'), none, 'notice "Alpha is not running" (the next prompt starts it)')),

  // No agent configured: nothing runs, and the chat says so (these two from the first matrix).
  ...alike(['no agent configured'], line('Cancel Turn', explained('No turn is running'), none, 'notice "No turn is running"')),
  ...alike(
    ['no agent configured'],
    line('Stop Agent', explained('No agent is running'), none, 'notice that no agent runs (Select Agent / Add Agent)'),
  ),

  // Restart Agent.
  ...alike(
    ['starting', 'Ready, nothing said', 'Ready with history', ...BUSY, ...DOWN],
    line(
      'Restart Agent',
      { kind: 'ready_here', agent: 'Alpha' },
      alpha,
      'a fresh Alpha, Ready, session continued; notice "Alpha restarted"',
    ),
  ),
  ...alike(['sign-in needed'], line('Restart Agent', { kind: 'sign_in_here' }, alpha, 'a fresh Alpha, which again asks for sign-in')),

  // Send (a prompt typed and sent).
  ...alike(
    ['starting', 'Ready, nothing said', 'Ready with history', 'turn running', ...STOPPED],
    line('Send', { kind: 'answered' }, alpha, 'the prompt shows at once and is answered (after the start, or the turn before)'),
  ),
  ...alike(
    ['waiting for a permission', 'waiting for an elicitation'],
    line('Send', { kind: 'queued' }, alpha, 'the prompt waits in the queue while the agent waits for the user'),
  ),
  ...alike(
    ['sign-in needed'],
    line('Send', { kind: 'refused', reason: 'Sign in to Alpha first.' }, alpha, 'refused: "Sign in to Alpha first."; the draft stays'),
  ),
  ...alike(
    ['crashed'],
    line(
      'Send',
      { kind: 'refused', reason: 'Alpha is not running. Restart it to continue.' },
      none,
      'refused: "Alpha is not running. Restart it to continue."; the draft stays',
    ),
  ),
  ...alike(
    ['no agent configured'],
    line('Send', { kind: 'refused', reason: 'No agent is selected.' }, none, 'refused: "No agent is selected."; the draft stays'),
  ),

  // Sign In / Sign Out (Alpha asks for sign-in only in "sign-in needed").
  ...alike(
    ['sign-in needed'],
    line('Sign In', { kind: 'ready_here', agent: 'Alpha' }, alpha, 'the methods picker; its first method signs in and Alpha is Ready'),
  ),
  ...alike(RUNNING, line('Sign In', explained('Alpha lists no way to sign in'), alpha, 'notice "Alpha lists no way to sign in"')),
  ...alike(
    [...DOWN, 'no agent configured'],
    line('Sign In', explained('No agent is running'), none, 'notice "No agent is running" (start it, then sign in)'),
  ),
  ...alike(
    ['sign-in needed'],
    line('Sign Out', explained('Signed out of Alpha'), alpha, 'notice "Signed out of Alpha"; still "Sign-in needed"'),
  ),
  ...alike(RUNNING, line('Sign Out', explained('Alpha cannot sign out from here'), alpha, 'notice "Alpha cannot sign out from here"')),
  ...alike([...DOWN, 'no agent configured'], line('Sign Out', explained('No agent is running'), none, 'notice "No agent is running"')),

  // The header's pickers from the palette, and Fork: they need the agent's session open.
  ...alike(RUNNING, line('Select Mode', { kind: 'mode_set', mode: 'code' }, alpha, 'the header\'s mode picker shows "Code"')),
  ...alike(
    RUNNING,
    line(
      'Change Session Option',
      { kind: 'option_set', option: 'model', value: 'deep' },
      alpha,
      'the header\'s model picker shows "Deep model"',
    ),
  ),
  ...alike(
    RUNNING,
    line('Fork', explained('Alpha cannot fork sessions'), alpha, 'notice "Alpha cannot fork sessions" (it offers no session/fork)'),
  ),
  ...(['Select Mode', 'Change Session Option', 'Fork'] as const).flatMap((command) => [
    ...alike(
      DOWN,
      line(command, explained('Alpha is not running'), none, 'notice "Alpha is not running" (send a prompt or Restart Agent first)'),
    ),
    ...alike(['starting'], line(command, explained('Alpha is starting'), alpha, 'notice "Alpha is starting" (try again once it is ready)')),
    ...alike(
      ['sign-in needed'],
      line(command, explained('Alpha needs sign-in'), alpha, 'notice "Alpha needs sign-in" (ACP: Sign In… first)'),
    ),
  ]),

  // The header's own mode picker (it stays on screen while the agent is down).
  ...alike(
    DOWN,
    line(
      'Mode picker in the header',
      explained('Could not switch mode'),
      none,
      'notice "Could not switch mode: Alpha is not running…"; the picker snaps back',
    ),
  ),

  // Sessions.
  ...alike(
    ['Ready with history', 'turn running'],
    line('Switch Session', { kind: 'switched' }, alpha, 'the picker; the conversation picked is shown'),
  ),
  ...alike(
    ['stopped'],
    line('Switch Session', { kind: 'switched' }, none, 'the picker; the conversation picked is shown (no agent started for it)'),
  ),
  ...alike(
    ['Ready with history', 'turn running', 'waiting for a permission'],
    line('Open in Editor', { kind: 'in_editor' }, alpha, 'the conversation in an editor tab (still running); the sidebar shows another'),
  ),
  ...alike(
    ['Ready with history', 'turn running', 'waiting for a permission', 'stopped'],
    line('Delete', { kind: 'deleted' }, none, 'gone from Sessions; its agent stopped; the chat shows another conversation'),
  ),

  // Rename: from the conversation's row in Sessions (a blank conversation is not listed there: from a keybinding,
  // which acts on the conversation shown). The input box is filled in and accepted; the agent is not touched.
  ...asBefore(
    ['Ready with history', ...BUSY, ...DOWN],
    'Rename',
    { kind: 'renamed' },
    'the input box (the title filled in); Sessions lists the conversation under the name typed; the agent and any turn go on untouched',
  ),
  ...asBefore(
    BLANK,
    'Rename',
    { kind: 'renamed' },
    '(keybinding: a blank conversation is not in Sessions) the input box; the conversation is listed in Sessions under the name typed',
  ),

  // Review Changes (the palette): the turn's changes in the multi-file diff editor, whether the agent runs or not.
  // Here the history's turn wrote one file (matrix-notes.txt) before it ended.
  ...asBefore(
    ['Ready with history', ...DOWN],
    'Review Changes',
    { kind: 'reviewing' },
    'the multi-file diff editor "Agent changes (1 file)"; the chat and the agent as they were',
  ),
  ...asBefore(
    BLANK,
    'Review Changes',
    explained('No agent changes to review yet'),
    'notice "No agent changes to review yet" (the agent changed no file in this conversation)',
  ),
  ...asBefore(
    BUSY,
    'Review Changes',
    explained('No agent changes to review yet'),
    'notice "No agent changes to review yet": the running turn wrote a file, its changes are listed when it ends',
  ),

  // Restore to here: the restore control on the conversation's first message (only messages have it).
  ...asBefore(
    ['Ready with history', ...DOWN],
    'Restore to here',
    { kind: 'restored' },
    'a preview picker ("Restore 1 file"); chosen, the file the agent wrote after that message is gone again',
  ),
  ...asBefore(
    BUSY,
    'Restore to here',
    explained('The turn is still running'),
    'notice "The turn is still running" (wait for it to end or stop it, then Restore to here); no file touched',
  ),
];
