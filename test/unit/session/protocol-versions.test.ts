/**
 * Version negotiation against real agent processes: a v2-draft agent (official SDK, experimental v2 API) with
 * both ways a v2 turn can end, and a v1-only agent offered v2, which must be restarted on v1 and then work.
 */
import * as assert from 'node:assert/strict';
import { scriptedAgent, v2Agent, type HostHarness } from '../../support/host-harness';
import { HarnessSuite } from '../../support/harness-suite';
import { entriesOf } from '../../../src/shared/selectors';
import type { Entry, TranscriptState } from '../../../src/shared/model';

const textOf = (entry: Entry | undefined): string =>
  entry?.kind === 'message' ? entry.content.map((block) => (block.type === 'text' ? block.text : '')).join('') : '';
const turnEnds = (state: TranscriptState) => entriesOf(state).filter((entry) => entry.kind === 'turn_end');
const ended =
  (count: number) =>
  (state: TranscriptState): boolean =>
    state.turn.phase === 'idle' && turnEnds(state).length === count;

describe('protocol versions', function () {
  this.timeout(20_000);
  const suite = new HarnessSuite('acp-versions-');
  let harness: HostHarness | undefined;

  it('v2 with the current schema: the prompt is answered {messageId}, the turn ends on state_update idle', async () => {
    harness = suite.start();
    await harness.controller.start(v2Agent('state', 2));
    const ready = harness.store.state;
    assert.equal(ready.agent.phase, 'ready');
    assert.deepEqual(
      ready.promptCapabilities,
      { image: false, audio: false, embeddedContext: true },
      'v2 capabilities are objects, present = supported',
    );
    assert.deepEqual(
      ready.commands.map((command) => command.name),
      ['review'],
      'slash commands from the session/new answer',
    );
    await harness.controller.sendPrompt('hello');
    const state = await harness.waitFor(ended(1));
    const entries = entriesOf(state);
    const answer = entries.find((entry) => entry.kind === 'message' && entry.role === 'agent');
    assert.equal(textOf(answer), 'v2 heard: hello (and appended)', 'an upsert, then a chunk appended to it');
    const userMessages = entries.filter((entry) => entry.kind === 'message' && entry.role === 'user');
    assert.deepEqual(userMessages.map(textOf), ['hello'], "the agent's user_message echo of the prompt patches it, not doubles it");
    assert.ok(
      entries.some((entry) => entry.kind === 'tool_call' && entry.toolCallId === 'look-1' && entry.status === 'completed'),
      'tool_call_update created the unseen call',
    );
    const end = turnEnds(state)[0];
    assert.deepEqual(
      end?.kind === 'turn_end' && end.outcome,
      { type: 'stopped', stopReason: 'max_tokens' },
      'the stop reason came with state_update idle',
    );
    assert.ok(harness.logLines.some((line) => line.includes('V2 speaks ACP v2')));
  });

  it('v2 as seed 002 has it: the prompt answer carries the stop reason; the next prompt continues', async () => {
    harness = suite.start();
    await harness.controller.start(v2Agent('answer', 'auto'));
    await harness.controller.sendPrompt('one');
    await harness.waitFor(ended(1));
    await harness.controller.sendPrompt('two');
    const state = await harness.waitFor(ended(2));
    assert.deepEqual(
      turnEnds(state).map((end) => end.kind === 'turn_end' && end.outcome),
      [
        { type: 'stopped', stopReason: 'end_turn' },
        { type: 'stopped', stopReason: 'end_turn' },
      ],
    );
  });

  it('v2 config values go tagged `type: "id"` (v1 leaves string values untagged), and the answer updates the picker', async () => {
    harness = suite.start();
    await harness.controller.start(v2Agent('state', 2));
    assert.deepEqual(
      harness.store.state.configOptions.map((option) => [option.id, option.currentValue]),
      [['model', 'fast']],
      'v2 `configId` read as the id',
    );
    await harness.controller.setConfigOption('model', 'deep');
    assert.deepEqual(
      harness.store.state.configOptions.map((option) => [option.id, option.currentValue]),
      [['model', 'deep']],
    );
    assert.ok(
      harness.logLines.some((line) => line.includes('set_config_option model="deep" (id)')),
      'the agent got the tagged value',
    );
    assert.equal(entriesOf(harness.store.state).filter((entry) => entry.kind === 'notice').length, 0, 'no error notice');
  });

  it('v2 agent-owned terminals: command, base64 output (a character split across chunks), a replacing snapshot and the exit', async () => {
    harness = suite.start();
    await harness.controller.start(v2Agent('state', 2));
    await harness.controller.sendPrompt('run the tests');
    const state = await harness.waitFor(ended(1));
    const terminal = state.terminals['term-1'];
    assert.equal(terminal?.commandLine, 'npm test');
    assert.equal(terminal?.output, 'snapshot line\npassed ✓\n', 'the snapshot replaced the stale output; the split ✓ decoded whole');
    assert.deepEqual(terminal?.exit, { exitCode: 0, signal: null });
    assert.deepEqual(terminal?.toolCallIds, ['run-1'], 'shown in the card of the tool call that names it');
    assert.equal(terminal?.cancellable, undefined, 'no Stop offered where the agent did not advertise it');
  });

  it('v2: a terminal the agent lets the user stop is cancelled with terminal/cancel, and the agent confirms with its exit', async () => {
    harness = suite.start();
    await harness.controller.start(v2Agent('state', 2));
    await harness.controller.sendPrompt('run it, I may stop it');
    await harness.waitFor((s) => s.terminals['term-1']?.cancellable === true && s.terminals['term-1'].output.endsWith('✓\n'));
    await harness.controller.cancelTerminal('term-1');
    const state = await harness.waitFor(ended(1));
    assert.deepEqual(state.terminals['term-1']?.exit, { exitCode: null, signal: 'SIGTERM' });
    assert.equal(state.terminals['term-1']?.cancellable, undefined, 'capabilities null: Stop is no longer offered');
    assert.ok(
      harness.logLines.some((line) => line.includes('terminal/cancel term-1')),
      'the agent got the request',
    );
    const run = entriesOf(state).find((entry) => entry.kind === 'tool_call' && entry.toolCallId === 'run-1');
    assert.equal(run?.kind === 'tool_call' && run.status, 'failed');
  });

  it('a v1 agent offered v2 is restarted as a fresh v1 process, then serves turns with fs and terminals', async () => {
    harness = suite.start();
    await harness.controller.start(scriptedAgent('terminal', {}, 2));
    assert.equal(harness.store.state.agent.phase, 'ready');
    const initializes = harness.logLines.filter((line) => /initialize v\d/.test(line)).map((line) => /initialize (v\d)/.exec(line)?.[1]);
    assert.deepEqual(initializes, ['v2', 'v1'], 'the first process saw v2, a second one v1');
    assert.ok(harness.logLines.some((line) => line.includes('answered ACP v1 to a v2 offer; restarting it on v1')));
    await harness.controller.sendPrompt('run it');
    const state = await harness.waitFor(ended(1));
    assert.match(
      entriesOf(state).map(textOf).join(''),
      /terminal report: .*"exitCode":3/,
      'terminal/* works: the v1 capabilities were heard',
    );
  });

  it('offers v1 by default', async () => {
    harness = suite.start();
    await harness.controller.start(scriptedAgent('stream'));
    const initializes = harness.logLines.filter((line) => /initialize v\d/.test(line));
    assert.equal(initializes.length, 1);
    assert.match(initializes[0] ?? '', /initialize v1/);
  });
});
