/**
 * Whole prompt turns through the real host path against real scripted agent processes (official SDK agents):
 * what the transcript shows, what the agent receives, and how cancel and crashes behave.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { scriptedAgent, type HostHarness } from '../../support/host-harness';
import { HarnessSuite } from '../../support/harness-suite';
import { entriesOf } from '../../../src/shared/selectors';
import type { Entry, ToolCallEntry, TranscriptState } from '../../../src/shared/model';

const textOf = (entry: Entry | undefined): string =>
  entry?.kind === 'message' ? entry.content.map((block) => (block.type === 'text' ? block.text : '')).join('') : '';
const ended = (state: TranscriptState): boolean =>
  state.turn.phase === 'idle' && entriesOf(state).some((entry) => entry.kind === 'turn_end');
const lastEnd = (state: TranscriptState) =>
  entriesOf(state)
    .filter((entry) => entry.kind === 'turn_end')
    .pop();
const toolCall = (state: TranscriptState, id: string): ToolCallEntry | undefined =>
  entriesOf(state).find((entry): entry is ToolCallEntry => entry.kind === 'tool_call' && entry.toolCallId === id);

describe('prompt turns against real agent processes', function () {
  this.timeout(20_000);
  const suite = new HarnessSuite('acp-turn-');
  let harness: HostHarness | undefined;

  beforeEach(() => {
    mkdirSync(path.join(suite.root, 'src'));
    writeFileSync(path.join(suite.root, 'src', 'hello.ts'), 'export const saved = 1;\n');
  });

  it('streams a plan, a thought and a markdown answer, and ends the turn', async () => {
    harness = suite.start();
    await harness.controller.start(scriptedAgent('stream', { ACP_CHUNK_DELAY_MS: '0' }));
    assert.deepEqual(await harness.controller.sendPrompt('what is the answer?'), { accepted: true });
    const state = await harness.waitFor(ended);
    const entries = entriesOf(state);
    assert.deepEqual(
      entries.map((e) => (e.kind === 'message' ? `${e.kind}:${e.role}` : e.kind)),
      ['message:user', 'plan', 'message:thought', 'message:agent', 'turn_end'],
    );
    assert.equal(textOf(entries[0]), 'what is the answer?');
    assert.equal(textOf(entries[2]), 'Considering the question carefully.');
    assert.match(
      textOf(entries[3]),
      /^You asked: \*\*what is the answer\?\*\*[\s\S]*```ts\nexport const answer = 42;\n```[\s\S]*That is all\.$/,
    );
    const plan = entries[1];
    assert.ok(plan?.kind === 'plan' && plan.body.type === 'items');
    assert.deepEqual(
      plan.body.items.map((item) => item.status),
      ['completed', 'in_progress', 'pending'],
    );
    assert.deepEqual(lastEnd(state)?.kind === 'turn_end' && lastEnd(state)?.outcome, { type: 'stopped', stopReason: 'end_turn' });
    assert.equal(state.agent.phase, 'ready');
  });

  it('asks permission, reads the unsaved editor text, writes through the editor and shows the diff', async () => {
    harness = suite.start({ permissionAnswer: 'allow' });
    const file = path.join(suite.root, 'src', 'hello.ts');
    harness.files.unsaved.set(file, 'export const unsaved = 2;\n');
    await harness.controller.start(scriptedAgent('tools'));
    await harness.controller.sendPrompt('edit it');
    const state = await harness.waitFor(ended);
    assert.deepEqual(
      harness.prompt.shown[0]?.options.map((o) => o.name),
      ['Allow', 'Always allow', 'Reject'],
    );
    const call = toolCall(state, 'edit-1');
    assert.equal(call?.status, 'completed');
    assert.deepEqual(call?.permissionOutcome, { optionId: 'allow', name: 'Allow' });
    const diff = call?.content[0];
    assert.ok(diff?.type === 'diff');
    assert.deepEqual(diff.files[0], {
      path: file,
      oldText: 'export const unsaved = 2;\n',
      newText: '// Edited by the scripted agent\nexport const unsaved = 2;\n',
      operation: 'modify',
    });
    assert.match(entriesOf(state).map(textOf).join('|'), /read: export const unsaved = 2;/);
    assert.equal(readFileSync(file, 'utf8'), '// Edited by the scripted agent\nexport const unsaved = 2;\n');
  });

  it('refuses a path outside the workspace with a clear error and a notice, touching nothing', async () => {
    harness = suite.start({ permissionAnswer: 'allow' });
    const outside = path.join(path.dirname(suite.root), `outside-${path.basename(suite.root)}.txt`);
    writeFileSync(outside, 'secret');
    try {
      await harness.controller.start(scriptedAgent('tools'));
      await harness.controller.sendPrompt(`edit path:${suite.root}/../${path.basename(outside)}`);
      const state = await harness.waitFor(ended);
      assert.equal(harness.refused.length, 1);
      assert.equal(harness.refused[0]?.operation, 'read');
      assert.match(entriesOf(state).map(textOf).join('|'), /The client refused: .*outside the workspace/);
      assert.equal(readFileSync(outside, 'utf8'), 'secret');
    } finally {
      rmSync(outside, { force: true });
    }
  });

  it("cancel marks the turn's tool calls cancelled at once, answers the pending permission cancelled, and the conversation goes on", async () => {
    harness = suite.start();
    await harness.controller.start(scriptedAgent('slow'));
    await harness.controller.sendPrompt('take your time');
    await harness.waitFor(
      (state) => toolCall(state, 'write-1')?.status === 'awaiting_permission' && toolCall(state, 'run-1')?.status === 'in_progress',
    );
    harness.controller.cancelTurn();
    const immediately = harness.store.state;
    assert.equal(immediately.turn.phase, 'cancelling');
    assert.equal(toolCall(immediately, 'run-1')?.status, 'cancelled');
    assert.equal(toolCall(immediately, 'write-1')?.status, 'cancelled');
    assert.equal(toolCall(immediately, 'write-1')?.permission, undefined);
    assert.equal(harness.prompt.closedByClient, 1, 'the dialog was closed');
    const state = await harness.waitFor(ended);
    assert.deepEqual(lastEnd(state)?.kind === 'turn_end' && lastEnd(state)?.outcome, { type: 'stopped', stopReason: 'cancelled' });
    assert.match(entriesOf(state).map(textOf).join('|'), /\[stopped after cancel\]/, 'updates after cancel are applied');
    assert.deepEqual(await harness.controller.sendPrompt('and now?'), { accepted: true });
    await harness.waitFor((s) => s.turn.phase === 'running');
    harness.controller.cancelTurn();
    await harness.waitFor((s) => s.turn.phase === 'idle');
  });

  it('offers to stop an agent that ignores cancel, then stops it and keeps the transcript', async () => {
    harness = suite.start({ cancelGraceMs: 300 });
    await harness.controller.start(scriptedAgent('ignore-cancel'));
    await harness.controller.sendPrompt('never mind');
    await harness.waitFor((state) => toolCall(state, 'run-1') !== undefined);
    harness.controller.cancelTurn();
    const offered = await harness.waitFor((state) => entriesOf(state).some((e) => e.kind === 'notice' && e.action === 'stop_agent'));
    assert.equal(offered.turn.phase, 'cancelling');
    assert.equal(harness.warnings.length, 1);
    await harness.controller.stopUnresponsive();
    const state = harness.store.state;
    assert.equal(state.turn.phase, 'idle');
    assert.equal(textOf(entriesOf(state)[0]), 'never mind');
  });

  it("the toast's Stop Agent does nothing once the turn it was shown for has ended (the agent answered late)", async () => {
    harness = suite.start({ cancelGraceMs: 300 });
    await harness.controller.start(scriptedAgent('ignore-cancel'));
    await harness.controller.sendPrompt('never mind');
    await harness.waitFor((state) => toolCall(state, 'run-1') !== undefined);
    harness.controller.cancelTurn();
    await harness.waitFor((state) => entriesOf(state).some((e) => e.kind === 'notice' && e.action === 'stop_agent'));
    // The turn ends some other way before the user gets to the toast; the next turn starts on the same agent.
    await harness.controller.stopUnresponsive();
    await harness.controller.start(scriptedAgent('stream'));
    assert.deepEqual(await harness.controller.sendPrompt('next'), { accepted: true });
    harness.clickWarning(0, 'Stop Agent');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(harness.store.state.agent.phase, 'ready', 'the late click stopped nothing');
    assert.deepEqual(harness.notifications, ['That turn of Scripted has ended already: nothing was stopped.'], 'and says so');
  });

  it('a crash mid-turn ends the turn as interrupted, its notice has the exit code and stderr, the transcript is kept and a restart offered', async () => {
    harness = suite.start();
    await harness.controller.start(scriptedAgent('crash'));
    await harness.controller.sendPrompt('go');
    const state = await harness.waitFor((s) => entriesOf(s).some((e) => e.kind === 'notice' && e.action === 'restart_agent'));
    const notice = entriesOf(state).find((e) => e.kind === 'notice');
    assert.ok(notice?.kind === 'notice');
    assert.match(notice.title, /exited with code 3/);
    assert.match(notice.detail ?? '', /fatal: simulated crash/);
    // The turn's end says what became of the turn; how the agent went is the notice's, not said twice.
    assert.deepEqual(lastEnd(state)?.kind === 'turn_end' && lastEnd(state)?.outcome, {
      type: 'error',
      message: 'Interrupted: Scripted stopped while this turn ran.',
    });
    assert.equal(state.turn.phase, 'idle');
    assert.equal(state.agent.phase, 'exited');
    assert.equal(textOf(entriesOf(state)[0]), 'go');
    assert.match(textOf(entriesOf(state)[1]), /^Working on it/);
    const verdict = await harness.controller.sendPrompt('still there?');
    assert.equal(verdict.accepted, false);
    await harness.controller.restart();
    assert.equal(harness.store.state.agent.phase, 'ready');
    assert.equal(textOf(entriesOf(harness.store.state)[0]), 'go', 'the transcript survives a restart');
  });

  it('skips garbage lines on stdout and completes the turn', async () => {
    harness = suite.start();
    await harness.controller.start(scriptedAgent('garbage'));
    await harness.controller.sendPrompt('hi');
    const state = await harness.waitFor(ended);
    assert.equal(textOf(entriesOf(state)[1]), 'before garbage, after garbage');
    assert.deepEqual(lastEnd(state)?.kind === 'turn_end' && lastEnd(state)?.outcome, { type: 'stopped', stopReason: 'end_turn' });
  });

  it('a JSON-RPC error answering the prompt ends the turn as an error with its message; what streamed stays, the next turn works', async () => {
    harness = suite.start();
    await harness.controller.start(scriptedAgent('stop-reasons'));
    await harness.controller.sendPrompt('please fail');
    const failed = await harness.waitFor(ended);
    assert.deepEqual(lastEnd(failed)?.kind === 'turn_end' && lastEnd(failed)?.outcome, {
      type: 'error',
      message: 'The model provider is overloaded',
      code: -32603,
    });
    assert.ok(entriesOf(failed).some((entry) => textOf(entry) === 'partial answer before the error'));
    assert.equal(harness.store.state.agent.phase, 'ready', 'the session stays usable');
    await harness.controller.sendPrompt('now refusal');
    const state = await harness.waitFor((s) => ended(s) && entriesOf(s).filter((entry) => entry.kind === 'turn_end').length === 2);
    assert.deepEqual(lastEnd(state)?.kind === 'turn_end' && lastEnd(state)?.outcome, { type: 'stopped', stopReason: 'refusal' });
  });

  it('an agent that refuses the session (and keeps running) is stopped and shown as such, with its message', async () => {
    harness = suite.start();
    await harness.controller.start(scriptedAgent('stream', { ACP_REFUSE_SESSION: 'Authentication required' }));
    const state = harness.store.state;
    assert.equal(state.agent.phase, 'exited', 'not left "Starting…"');
    const notice = entriesOf(state).find((entry) => entry.kind === 'notice');
    assert.ok(
      notice?.kind === 'notice' &&
        notice.title === 'Scripted could not start a session' &&
        notice.detail === 'Authentication required' &&
        notice.action === 'restart_agent',
    );
    assert.equal(harness.controller.lifecycle, 'exited');
  });

  it('an update for the session before session/new is answered is kept, and one after the prompt answer still lands', async () => {
    harness = suite.start();
    await harness.controller.start(scriptedAgent('late', { ACP_EARLY_TITLE: 'Named before it was announced' }));
    assert.equal(harness.store.state.title, 'Named before it was announced');
    await harness.controller.sendPrompt('hello');
    const state = await harness.waitFor((s) => ended(s) && entriesOf(s).some((entry) => textOf(entry) === 'on time, and late'));
    assert.deepEqual(
      entriesOf(state)
        .slice(-2)
        .map((entry) => entry.kind),
      ['message', 'turn_end'],
      'the late words joined the answer, before the turn end line',
    );
  });

  for (const reason of ['end_turn', 'max_tokens', 'max_turn_requests', 'refusal', '_vendor_budget_exhausted']) {
    it(`shows the stop reason ${reason} as a normal stop`, async () => {
      harness = suite.start();
      await harness.controller.start(scriptedAgent('stop-reasons'));
      await harness.controller.sendPrompt(`please ${reason}`);
      const state = await harness.waitFor(ended);
      assert.deepEqual(lastEnd(state)?.kind === 'turn_end' && lastEnd(state)?.outcome, { type: 'stopped', stopReason: reason });
    });
  }
});
