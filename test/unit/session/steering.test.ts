/**
 * Steering (claude-agent-acp's `_session/steering`, advertised in initialize's `_meta`): a prompt queued while a
 * turn runs can join that turn instead of waiting for the next. A real scripted agent that advertises it.
 */
import * as assert from 'node:assert/strict';
import { scriptedAgent } from '../../support/host-harness';
import { HarnessSuite } from '../../support/harness-suite';
import { entriesOf } from '../../../src/shared/selectors';
import type { TranscriptState } from '../../../src/shared/model';

const said = (state: TranscriptState): string[] =>
  entriesOf(state).flatMap((entry) =>
    entry.kind === 'message' ? [`${entry.role}: ${entry.content.map((block) => (block.type === 'text' ? block.text : '')).join('')}`] : [],
  );

describe('steering a running turn', function () {
  this.timeout(30_000);
  const suite = new HarnessSuite('acp-steering-');

  it('a queued prompt steered into the running turn shows as the user’s message there, and the agent answers it in that turn', async () => {
    const harness = suite.start();
    await harness.controller.start(scriptedAgent('steer'));
    assert.equal(harness.store.state.steering, true, 'the agent advertised steering');
    await harness.controller.sendPrompt('start working');
    await harness.waitFor((state) => said(state).some((line) => line.includes('working 1 ')));
    assert.deepEqual(await harness.controller.sendPrompt('also check the tests'), { accepted: true, queued: true });
    const queued = harness.store.state.queued?.[0];
    assert.ok(queued, 'queued while the turn runs');

    await harness.controller.steerQueuedPrompt(queued.id);
    const state = await harness.waitFor((s) => s.turn.phase === 'idle' && entriesOf(s).some((entry) => entry.kind === 'turn_end'));
    assert.deepEqual(state.queued ?? [], [], 'it left the queue');
    const lines = said(state);
    const steered = lines.indexOf('user: also check the tests');
    assert.ok(steered > 0, `the steered message is in the transcript: ${JSON.stringify(lines)}`);
    assert.match(lines[steered - 1] ?? '', /^agent: working/, 'after what the agent had said so far');
    assert.match(lines.at(-1) ?? '', /heard while working: also check the tests/);
    assert.equal(entriesOf(state).filter((entry) => entry.kind === 'turn_end').length, 1, 'one turn: no second prompt was sent');
  });

  it('an agent that does not advertise steering gets no steering: the prompt stays queued for the next turn', async () => {
    const harness = suite.start();
    await harness.controller.start(scriptedAgent('slow'));
    assert.equal(harness.store.state.steering, undefined);
    await harness.controller.sendPrompt('long task');
    await harness.waitFor((state) => state.turn.phase === 'running');
    await harness.controller.sendPrompt('next one');
    const queued = harness.store.state.queued?.[0];
    assert.ok(queued);
    await harness.controller.steerQueuedPrompt(queued.id);
    assert.deepEqual(
      harness.store.state.queued?.map((prompt) => prompt.text),
      ['next one'],
      'still queued',
    );
    harness.controller.cancelTurn();
  });
});
