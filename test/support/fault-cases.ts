/**
 * The fault matrix, one list for both suites: each row is one fault of test/fixtures/agents/raw-agent.ts, what the
 * user sees, and what the test asserts beyond the invariants every row shares. The unit suite
 * (test/unit/session/fault-matrix.test.ts) runs it on the host path outside VS Code; the integration suite
 * (test/integration/fault-matrix.test.ts) runs it in the real VS Code, through the extension's API and the chat's
 * own messages. Both drive a fault through `FaultChat` (see fault-run.ts).
 */
import * as assert from 'node:assert/strict';
import type { HostHarness } from './host-harness';
import { entriesOf } from '../../src/shared/selectors';
import type { ToolCallEntry, TranscriptState } from '../../src/shared/model';
import type { PromptVerdict } from '../../src/session/session-controller';
import { MAX_TOOL_CALLS_PER_TURN } from '../../src/shared/limits';
import { visibleText } from '../../src/shared/visible-text';
import { terminalShown } from '../../webview/transcript/terminal-text';

/** The chat as a fault test drives it: what a user does and sees, whichever suite runs it. */
export interface FaultChat {
  /** The transcript as the chat shows it now. */
  state(): TranscriptState;
  waitFor(predicate: (state: TranscriptState) => boolean, timeoutMs?: number): Promise<TranscriptState>;
  /** Starts the configured (faulty) agent in this conversation; settles once its start-up has. */
  startAgent(): Promise<void>;
  sendPrompt(text: string): Promise<PromptVerdict>;
  cancelTurn(): void;
  /** The notice's "Stop agent" button; settles once the agent is stopped. */
  stopAgent(): Promise<void>;
  /** The not-responding notice's "Retry" button: the start-up again from scratch (it does not wait for it). */
  retryStart(): void;
  /** Answers the permission request the card shows with `optionId` (as the dialog or the card's button does). */
  answerPermission(optionId: string): Promise<void>;
}

export interface FaultContext {
  readonly chat: FaultChat;
  readonly state: TranscriptState;
  /** What the agent reported about the client's answers to its requests ("report: ..."). */
  readonly report: string;
}

export interface FaultCase {
  readonly fault: string;
  /**
   * start: the fault is in start-up; unresponsive: start-up never answers (the deadline's notice, Retry, then
   * Stop); prompt: in the first turn; cancel: the turn is cancelled.
   */
  readonly trigger: 'start' | 'unresponsive' | 'prompt' | 'cancel';
  /** What the user sees (the matrix's middle column). */
  readonly sees: string;
  /** What the test asserts, in both suites. */
  readonly check: (context: FaultContext) => void | Promise<void>;
  /**
   * What only the host harness can read (our log, the permission dialog as the port received it, the writes it
   * made); the integration suite sees these through the transcript and the e2e through the page instead.
   */
  readonly hostCheck?: (harness: HostHarness) => void;
  /** The option the user picks in the permission dialog the fault raises. */
  readonly permissionAnswer?: string;
}

export const notices = (state: TranscriptState) => entriesOf(state).flatMap((entry) => (entry.kind === 'notice' ? [entry] : []));
export const agentText = (state: TranscriptState): string =>
  entriesOf(state)
    .flatMap((entry) => (entry.kind === 'message' && entry.role === 'agent' ? entry.content : []))
    .map((block) => (block.type === 'text' ? block.text : ''))
    .join('');
const toolCards = (state: TranscriptState) => entriesOf(state).flatMap((entry) => (entry.kind === 'tool_call' ? [entry] : []));
const contentText = (card: ToolCallEntry | undefined): string =>
  (card?.content ?? []).map((item) => (item.type === 'content' && item.content.type === 'text' ? item.content.text : '')).join('');
export const turnEnds = (state: TranscriptState) => entriesOf(state).flatMap((entry) => (entry.kind === 'turn_end' ? [entry] : []));
const lastOutcome = (state: TranscriptState) => turnEnds(state).at(-1)?.outcome;

const startFailed =
  (detail: RegExp) =>
  ({ state }: FaultContext): void => {
    const notice = notices(state).find((entry) => /could not start a session/.test(entry.title));
    assert.ok(notice, `a "could not start" notice, got ${JSON.stringify(notices(state))}`);
    assert.match(notice.detail ?? '', detail);
    assert.equal(notice.action, 'restart_agent', 'it offers Restart');
    assert.equal(state.agent.phase, 'exited');
  };
/**
 * The notices since the earlier exchange ended: the fault's own. The earlier exchange's healthy start-up may say
 * "not responding" itself when the machine is loaded (its deadline is short here), and that notice is not the row's.
 */
const noticesSinceLastTurn = (state: TranscriptState) => {
  const entries = entriesOf(state);
  const lastEnd = entries.map((entry) => entry.kind).lastIndexOf('turn_end');
  return entries.slice(lastEnd + 1).flatMap((entry) => (entry.kind === 'notice' ? [entry] : []));
};
const notResponding = ({ state }: FaultContext): void => {
  const shown = noticesSinceLastTurn(state).filter((notice) => /is not responding/.test(notice.title));
  assert.equal(shown.length, 2, 'one notice for the first start-up, one for the retry');
  for (const notice of shown) {
    assert.equal(notice.action, 'stop_agent', 'it offers Stop');
    assert.equal(notice.alternative, 'retry_start', 'and Retry');
  }
  assert.equal(state.agent.phase, 'stopped', 'Stop ended it');
};
const startedFine = ({ state }: FaultContext): void => assert.equal(state.agent.phase, 'ready');
const turnEnded = ({ state, report }: FaultContext, expected: RegExp): void => {
  assert.deepEqual(lastOutcome(state), { type: 'stopped', stopReason: 'end_turn' });
  assert.match(report, expected);
};
const refused = (expected: RegExp) => (context: FaultContext) => turnEnded(context, expected);
const crashed = ({ state }: FaultContext): void => {
  assert.equal(lastOutcome(state)?.type, 'error', 'the turn ended as an error');
  assert.ok(
    notices(state).some((notice) => notice.action === 'restart_agent'),
    'a notice offers Restart',
  );
  assert.equal(state.agent.phase, 'exited');
};
const loggedLine = (pattern: RegExp) => (harness: HostHarness) =>
  assert.ok(
    harness.logLines.some((line) => pattern.test(line)),
    `logged: ${String(pattern)}`,
  );

export const FAULTS: readonly FaultCase[] = [
  // ----- start-up -----
  {
    fault: 'init-silent',
    trigger: 'unresponsive',
    sees: '"… is not responding" with Stop and Retry; Retry starts afresh (the same notice again), Stop ends it',
    check: notResponding,
  },
  {
    fault: 'resume-silent',
    trigger: 'unresponsive',
    sees: 'continuing the conversation: "… is not responding" (session/resume unanswered) with Stop and Retry',
    check: notResponding,
  },
  {
    fault: 'init-garbage-first',
    trigger: 'start',
    sees: 'nothing: it starts (stray lines are logged)',
    check: startedFine,
    hostCheck: loggedLine(/Skipped a line from the agent/),
  },
  {
    fault: 'init-wrong-version',
    trigger: 'start',
    sees: '"could not start a session": the version it answered',
    check: startFailed(/99|version/i),
  },
  { fault: 'init-crash', trigger: 'start', sees: '"could not start a session", Restart', check: startFailed(/.+/) },
  { fault: 'init-huge', trigger: 'start', sees: 'nothing: an 8 MB initialize answer is accepted', check: startedFine },
  {
    fault: 'init-invalid-result',
    trigger: 'start',
    sees: '"could not start a session": invalid result',
    check: startFailed(/invalid result/),
  },
  {
    fault: 'init-error',
    trigger: 'start',
    sees: '"could not start a session" with the agent\'s message',
    check: startFailed(/cannot initialize today/),
  },
  {
    fault: 'init-close-stdout',
    trigger: 'start',
    sees: '"could not start a session"; the silent process is stopped',
    check: startFailed(/.+/),
  },
  { fault: 'init-answer-twice', trigger: 'start', sees: 'nothing: the second answer is ignored', check: startedFine },
  {
    fault: 'new-session-error',
    trigger: 'start',
    sees: '"could not start a session" with the agent\'s message',
    check: startFailed(/no sessions for you/),
  },
  { fault: 'new-session-no-id', trigger: 'start', sees: '"could not start a session": invalid result', check: startFailed(/sessionId/) },
  // ----- wire -----
  {
    fault: 'garbage-lines',
    trigger: 'prompt',
    sees: 'the answer around the garbage',
    check: (context) => {
      turnEnded(context, /after garbage/);
      assert.match(agentText(context.state), /before, /);
    },
  },
  {
    fault: 'line-20mb',
    trigger: 'prompt',
    sees: 'the message, cut at the message limit with a visible mark',
    check: (context) => {
      // The report comes after the cut, so it is not shown: the turn ending normally is what counts.
      assert.deepEqual(lastOutcome(context.state), { type: 'stopped', stopReason: 'end_turn' });
      assert.ok(agentText(context.state).length < 5_000_000, 'bounded by the message limit');
    },
  },
  {
    fault: 'line-over-cap',
    trigger: 'prompt',
    sees: 'the rest of the turn; the 52 MB line is dropped and logged',
    check: (context) => turnEnded(context, /after an oversize line/),
    hostCheck: loggedLine(/Discarded a \d+-byte message/),
  },
  {
    fault: 'invalid-utf8',
    trigger: 'prompt',
    sees: 'the text with U+FFFD where the bytes were invalid',
    check: (context) => {
      turnEnded(context, /after invalid utf-8/);
      assert.match(agentText(context.state), /bad\[\uFFFD+\]/);
    },
  },
  {
    fault: 'deep-nesting',
    trigger: 'prompt',
    sees: 'the message; 100,000-deep JSON does not crash the host',
    check: (context) => turnEnded(context, /after deep nesting/),
  },
  {
    fault: 'unknown-method',
    trigger: 'prompt',
    sees: 'nothing; the agent gets "method not found"',
    check: refused(/unknown request: error -32601/),
  },
  {
    fault: 'unknown-notification',
    trigger: 'prompt',
    sees: 'nothing',
    check: (context) => turnEnded(context, /after unknown notifications/),
  },
  {
    fault: 'response-never-requested',
    trigger: 'prompt',
    sees: 'nothing; the turn goes on',
    check: (context) => turnEnded(context, /after stray responses/),
  },
  {
    fault: 'duplicate-request-ids',
    trigger: 'prompt',
    sees: 'nothing; both get "method not found"',
    check: (context) => turnEnded(context, /after duplicate ids/),
  },
  {
    fault: 'prompt-answered-twice',
    trigger: 'prompt',
    sees: 'one end of turn (with one of the two answers)',
    check: ({ state }) => {
      // vscode-jsonrpc queues responses by id: when both are queued the later one replaces the earlier.
      const outcome = lastOutcome(state);
      assert.ok(outcome?.type === 'stopped' && ['end_turn', 'refusal'].includes(outcome.stopReason), JSON.stringify(outcome));
      assert.equal(turnEnds(state).length, 2, 'one end for the earlier turn, one for this');
    },
  },
  {
    fault: 'notification-with-id',
    trigger: 'prompt',
    sees: 'nothing: a request named session/update is not an update',
    check: (context) => {
      turnEnded(context, /after a notification with an id/);
      assert.doesNotMatch(agentText(context.state), /SNEAKY/);
    },
  },
  {
    fault: 'unknown-update-kind',
    trigger: 'prompt',
    sees: 'nothing; logged and ignored',
    check: (context) => turnEnded(context, /after unknown update kinds/),
  },
  {
    fault: 'prompt-invalid-result',
    trigger: 'prompt',
    sees: 'the turn ends with an error naming the invalid result',
    check: ({ state }) => {
      const outcome = lastOutcome(state);
      assert.equal(outcome?.type, 'error');
      assert.match(outcome?.type === 'error' ? outcome.message : '', /invalid result/);
    },
  },
  // ----- fs -----
  { fault: 'fs-dotdot', trigger: 'prompt', sees: 'nothing; the read is refused', check: refused(/read error -32602 Refused to read/) },
  {
    fault: 'fs-symlink',
    trigger: 'prompt',
    sees: 'nothing; read and write through the link refused',
    check: refused(/read error -32602 .*write error -32602/),
  },
  {
    fault: 'fs-file-uri',
    trigger: 'prompt',
    sees: 'nothing; refused (not an absolute path)',
    check: refused(/read error -32602 .*must be absolute/),
  },
  { fault: 'fs-nul', trigger: 'prompt', sees: 'nothing; refused', check: refused(/read error -32/) },
  {
    fault: 'fs-windows-path',
    trigger: 'prompt',
    sees: 'nothing; drive and UNC paths refused',
    check: refused(/drive error -32602 .*unc error -32602/),
  },
  { fault: 'fs-relative', trigger: 'prompt', sees: 'nothing; refused', check: refused(/read error -32602 .*must be absolute/) },
  { fault: 'fs-write-outside', trigger: 'prompt', sees: 'nothing; refused', check: refused(/write error -32602 Refused to write/) },
  {
    fault: 'fs-read-200mb',
    trigger: 'prompt',
    sees: 'nothing; the agent is told the file is over the read limit',
    check: refused(/read error -32602 .*(MB|limit)/),
  },
  {
    fault: 'fs-reads-while-not-reading',
    trigger: 'prompt',
    sees: 'nothing; every read is answered, and few are read while the agent reads nothing',
    check: (context) => {
      turnEnded(context, /reads before the change \d+, after it \d+, other 0/);
      const before = Number(/before the change (\d+)/.exec(context.report)?.[1]);
      // Read while 16 MB (4 answers) wait unsent, and the 4 reads under way then: 8, and a little slack for the pipe.
      assert.ok(before <= 12, `at most 12 of the 30 files read while the agent read nothing (${context.report})`);
    },
  },
  {
    fault: 'fs-foreign-session',
    trigger: 'prompt',
    sees: 'nothing; read and write for a session it does not own refused',
    check: refused(/read error -32602 Unknown session not-yours; write error -32602 Unknown session not-yours/),
    hostCheck: (harness) => assert.equal(harness.files.writes.length, 0, 'nothing written'),
  },
  // ----- terminals -----
  {
    fault: 'term-grandchild',
    trigger: 'prompt',
    sees: "the command's card; its background child dies with the agent",
    check: refused(/created ok .*exit ok/),
  },
  {
    fault: 'term-flood',
    trigger: 'prompt',
    sees: 'the tail of 30 MB of output, within the byte limit',
    check: refused(/output \d{1,4} chars, truncated true/),
  },
  {
    fault: 'term-kill-unknown',
    trigger: 'prompt',
    sees: 'nothing; the agent gets an error',
    check: refused(/kill error -32\d+ .*output error -32\d+/),
  },
  { fault: 'term-cwd-outside', trigger: 'prompt', sees: 'nothing; refused', check: refused(/create error -32602/) },
  {
    fault: 'term-foreign-session',
    trigger: 'prompt',
    sees: 'nothing; refused, no process started',
    check: (context) => {
      refused(/create error -32602 Unknown session not-yours/)(context);
      assert.deepEqual(context.state.terminals, {}, 'no terminal shown');
    },
  },
  // ----- lifecycle -----
  {
    fault: 'sigkill-mid-stream',
    trigger: 'prompt',
    sees: 'the streamed parts, "… was killed (SIGKILL)", Restart',
    check: (context) => {
      crashed(context);
      assert.match(agentText(context.state), /part 0 /);
    },
  },
  {
    fault: 'crash-during-permission',
    trigger: 'prompt',
    sees: 'the dialog closes, the card is not left asking; crash notice',
    check: async (context) => {
      crashed(context);
      const card = (state: TranscriptState) =>
        entriesOf(state).find((entry) => entry.kind === 'tool_call' && entry.toolCallId === 'call-1');
      assert.ok(card(context.state), 'the card of the asking tool call is shown');
      // The dialog's cancellation lands a moment after the exit notice.
      const settled = await context.chat.waitFor((s) => {
        const entry = card(s);
        return entry?.kind === 'tool_call' && entry.status !== 'awaiting_permission';
      }, 5000);
      const after = card(settled);
      assert.equal(after?.kind === 'tool_call' ? after.permissionOutcome : undefined, 'cancelled', 'the card no longer asks');
    },
    hostCheck: (harness) => {
      assert.equal(harness.prompt.shown.length, 1, 'the dialog was shown');
      assert.equal(harness.prompt.closedByClient, 1, 'and closed when the agent died');
    },
  },
  { fault: 'close-stdout-alive', trigger: 'prompt', sees: 'the turn fails, the agent is stopped, Restart', check: crashed },
  {
    fault: 'close-stdin',
    trigger: 'prompt',
    sees: 'the answer; the next prompt goes unanswered, Cancel offers Stop, Stop ends it as cancelled',
    check: async (context) => {
      turnEnded(context, /stdin closed/);
      const { chat } = context;
      assert.deepEqual(await chat.sendPrompt('are you there'), { accepted: true });
      await chat.waitFor((s) => s.turn.phase === 'running');
      chat.cancelTurn();
      await chat.waitFor(
        (s) => notices(s).some((notice) => /has not stopped/.test(notice.title) && notice.action === 'stop_agent'),
        20_000,
      );
      await chat.stopAgent();
      assert.deepEqual(lastOutcome(chat.state()), { type: 'stopped', stopReason: 'cancelled' });
    },
  },
  {
    fault: 'exit-during-cancel',
    trigger: 'cancel',
    sees: 'the turn ends; the exit is reported, Restart',
    check: ({ state }) => {
      assert.equal(state.turn.phase, 'idle');
      assert.equal(state.agent.phase, 'exited');
    },
  },
  {
    fault: 'hang-forever',
    trigger: 'cancel',
    sees: '"… has not stopped" with Stop; Stop ends the turn as cancelled',
    check: ({ state }) => {
      assert.deepEqual(lastOutcome(state), { type: 'stopped', stopReason: 'cancelled' });
    },
  },
  // ----- webview content -----
  {
    fault: 'xss-content',
    trigger: 'prompt',
    sees: 'the markup as text (webview renders text, links to safe schemes only)',
    check: (context) => {
      turnEnded(context, /after xss/);
      const card = entriesOf(context.state).find((entry) => entry.kind === 'tool_call');
      assert.equal(card?.kind === 'tool_call' && card.title, '<img src=x onerror=alert(1)><script>alert(2)</script>', 'kept as text');
    },
  },
  {
    fault: 'bidi-permission',
    trigger: 'prompt',
    permissionAnswer: 'yes',
    sees: 'the dialog shows the reordering characters visibly',
    check: (context) => turnEnded(context, /permission ok/),
    // The dialog's port gets the full path and the names as sent; what it shows is visibleText of each (the e2e
    // reads the rendered dialog and card).
    hostCheck: (harness) => {
      const shown = harness.prompt.shown[0];
      assert.ok(shown);
      assert.ok(
        shown.paths.every((file) => file.startsWith('/')),
        'full paths',
      );
      for (const text of [shown.toolTitle, ...shown.paths, ...shown.options.map((option) => option.name)])
        assert.doesNotMatch(visibleText(text), /[\u202A-\u202E\u2066-\u2069\u200B]/u, `shown as ${visibleText(text)}`);
    },
  },
  {
    fault: 'tool-call-flood',
    trigger: 'prompt',
    sees: `the first ${MAX_TOOL_CALLS_PER_TURN} cards and a note that more were left out`,
    check: (context) => {
      turnEnded(context, /after 5000 tool calls/);
      const cards = entriesOf(context.state).filter((entry) => entry.kind === 'tool_call').length;
      assert.ok(cards <= MAX_TOOL_CALLS_PER_TURN, `${cards} cards`);
    },
  },
  // ----- dialects real agents speak -----
  {
    fault: 'dialect-update-before-call',
    trigger: 'prompt',
    sees: 'one card: the title the tool_call gave, still completed, its output',
    check: (context) => {
      turnEnded(context, /after an update before its call/);
      const cards = toolCards(context.state);
      assert.equal(cards.length, 1, JSON.stringify(cards));
      assert.deepEqual([cards[0]?.title, cards[0]?.status, contentText(cards[0])], ['Read notes.txt', 'completed', 'early output']);
    },
  },
  {
    fault: 'dialect-repeated-call',
    trigger: 'prompt',
    sees: 'one card with the latest title, still completed (a repeated pending does not undo it)',
    check: (context) => {
      turnEnded(context, /after a repeated tool call/);
      const cards = toolCards(context.state);
      assert.equal(cards.length, 1, JSON.stringify(cards));
      assert.deepEqual([cards[0]?.title, cards[0]?.status, contentText(cards[0])], ['Run tests (npm test)', 'completed', '42 passed']);
    },
  },
  {
    fault: 'dialect-zed-terminal',
    trigger: 'prompt',
    sees: "the command's output and exit in the card's terminal (Zed's `_meta.terminal_*` for a terminal never created)",
    check: (context) => {
      turnEnded(context, /after foreign terminals/);
      const zed = context.state.terminals['zed-term-1'];
      assert.equal(zed?.output, 'hello from zed\n', JSON.stringify(context.state.terminals));
      assert.equal(zed?.exit?.exitCode, 0, 'it shows as exited 0, not running');
      assert.deepEqual(
        notices(context.state).filter((notice) => notice.severity === 'error'),
        [],
        'no error',
      );
    },
  },
  {
    fault: 'dialect-bare-terminal',
    trigger: 'prompt',
    sees: 'the command\'s card, its terminal saying "Output not available" (a terminal id never created, no `_meta`): no error, no endless Running',
    check: (context) => {
      turnEnded(context, /after a bare terminal/);
      const cards = toolCards(context.state);
      assert.deepEqual(
        cards.map((card) => [card.title, card.status, card.content.map((c) => (c.type === 'terminal' ? c.terminalId : c.type))]),
        [['ls -la', 'completed', ['ghost-term-1']]],
      );
      const shown = terminalShown('ghost-term-1', context.state.terminals['ghost-term-1'], true);
      assert.deepEqual([shown.status.label, shown.controls], ['Output not available', false]);
      assert.deepEqual(
        notices(context.state).filter((notice) => notice.severity === 'error'),
        [],
        'no error',
      );
    },
  },
  {
    fault: 'dialect-permission-unannounced',
    trigger: 'prompt',
    permissionAnswer: 'yes',
    sees: 'a card of its own for each: "Permission requested" (no tool call) and "Delete build/" (never announced)',
    check: (context) => {
      turnEnded(context, /bare ok .*selected.*; ghost ok .*selected/);
      const titles = toolCards(context.state).map((card) => [card.title, card.permissionOutcome !== undefined]);
      assert.deepEqual(titles, [
        ['Permission requested', true],
        ['Delete build/', true],
      ]);
    },
  },
  {
    fault: 'dialect-vendor-notifications',
    trigger: 'prompt',
    sees: 'nothing; each unknown kind is logged once',
    check: (context) => turnEnded(context, /after vendor notifications/),
    hostCheck: (harness) => {
      for (const kind of ['_zed/status', 'hologram', '_copilot/usage']) {
        const lines = harness.logLines.filter((line) => line.includes(kind));
        assert.equal(lines.length, 1, `${kind} logged once: ${JSON.stringify(lines)}`);
      }
    },
  },
  {
    fault: 'dialect-echo-extra',
    trigger: 'prompt',
    sees: "the user's message as typed; the agent's extra part and its Info: line as messages of their own",
    check: (context) => {
      turnEnded(context, /after an echo with extras/);
      const entries = entriesOf(context.state).slice(-5);
      const shown = entries.map((entry) =>
        entry.kind === 'message' ? `${entry.role}: ${entry.content.map((b) => (b.type === 'text' ? b.text : '')).join('')}` : entry.kind,
      );
      assert.deepEqual(
        shown.slice(0, 3),
        ['user: trigger the fault', 'user: <reminder>files changed on disk</reminder>', 'tool_call'],
        `the echo absorbed, the extra its own: ${JSON.stringify(entries.map((entry) => entry.key))}`,
      );
      assert.match(shown[3] ?? '', /^agent: Info: created n\.txt/, "the Info: line after the card, the agent's own");
    },
  },
  {
    fault: 'dialect-outside-turn',
    trigger: 'prompt',
    sees: 'the thought and the replayed messages after the turn, each its own; no turn starts',
    check: async ({ chat }) => {
      const state = await chat.waitFor((s) => /an earlier answer, replayed/.test(agentText(s)));
      assert.equal(state.turn.phase, 'idle');
      const tail = entriesOf(state)
        .slice(-3)
        .map((entry) => (entry.kind === 'message' ? entry.role : entry.kind));
      assert.deepEqual(tail, ['thought', 'user', 'agent']);
    },
  },
  // ----- security -----
  {
    fault: 'permission-foreign-session',
    trigger: 'prompt',
    permissionAnswer: 'yes',
    sees: 'nothing: refused, no dialog, no card',
    check: (context) => {
      refused(/permission error -32602 Unknown session not-yours/)(context);
      assert.equal(entriesOf(context.state).filter((entry) => entry.kind === 'tool_call').length, 0, 'no card for the foreign tool call');
    },
    hostCheck: (harness) => assert.equal(harness.prompt.shown.length, 0, 'no dialog'),
  },
  {
    fault: 'update-foreign-session',
    trigger: 'prompt',
    sees: 'nothing: the spoofed text is not shown',
    check: (context) => {
      turnEnded(context, /after a foreign update/);
      assert.doesNotMatch(agentText(context.state), /SPOOFED/);
    },
  },
];
