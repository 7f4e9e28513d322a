/**
 * Prompts sent while the agent starts or a turn runs wait in a queue shown in the transcript, go in order when the
 * agent can take them, and can be taken back; an idle agent is stopped and the conversation stays usable.
 */
import * as assert from 'node:assert/strict';
import { scriptedAgent, type HostHarness } from '../../support/host-harness';
import { HarnessSuite } from '../../support/harness-suite';
import { entriesOf } from '../../../src/shared/selectors';
import type { TranscriptState } from '../../../src/shared/model';

const userTexts = (state: TranscriptState): string[] =>
  entriesOf(state).flatMap((entry) =>
    entry.kind === 'message' && entry.role === 'user'
      ? [entry.content.map((block) => (block.type === 'text' ? block.text : '')).join('')]
      : [],
  );
const turnsEnded = (count: number) => (state: TranscriptState) =>
  state.turn.phase === 'idle' && entriesOf(state).filter((entry) => entry.kind === 'turn_end').length >= count;

describe('queued prompts and idle agents', function () {
  this.timeout(20_000);
  const suite = new HarnessSuite('acp-queue-');
  let harness: HostHarness;

  it('a prompt sent while the agent starts is queued, shown, and sent once the session is open', async () => {
    harness = suite.start();
    const starting = harness.controller.start(scriptedAgent('echo'));
    const verdict = await harness.controller.sendPrompt('sent while starting');
    assert.deepEqual(verdict, { accepted: true, queued: true });
    assert.deepEqual(
      harness.store.state.queued?.map((prompt) => prompt.text),
      ['sent while starting'],
      'shown as queued before the agent is ready',
    );
    await starting;
    const state = await harness.waitFor(turnsEnded(1));
    assert.deepEqual(userTexts(state), ['sent while starting']);
    assert.deepEqual(state.queued, []);
  });

  it('prompts sent during a turn go one by one, in order, after it; a removed one is never sent', async () => {
    harness = suite.start({ permissionAnswer: 'allow' });
    await harness.controller.start(scriptedAgent('mixed'));
    await harness.controller.sendPrompt('first');
    await harness.waitFor((state) => state.turn.phase === 'running');
    assert.deepEqual(await harness.controller.sendPrompt('second'), { accepted: true, queued: true });
    assert.deepEqual(await harness.controller.sendPrompt('dropped'), { accepted: true, queued: true });
    assert.deepEqual(await harness.controller.sendPrompt('third'), { accepted: true, queued: true });
    const dropped = harness.store.state.queued?.find((prompt) => prompt.text === 'dropped');
    assert.ok(dropped);
    harness.controller.removeQueuedPrompt(dropped.id);
    const state = await harness.waitFor(turnsEnded(3));
    assert.deepEqual(userTexts(state), ['first', 'second', 'third']);
    assert.deepEqual(state.queued, []);
  });

  it('an agent idle for idleTimeoutMs is stopped ("stopped", not "exited"); the transcript stays', async () => {
    harness = suite.start({ idleTimeoutMs: 300 });
    await harness.controller.start(scriptedAgent('echo'));
    await harness.controller.sendPrompt('hello');
    await harness.waitFor(turnsEnded(1));
    const state = await harness.waitFor((s) => s.agent.phase === 'stopped', 5_000);
    assert.equal(harness.controller.lifecycle, 'not_running');
    assert.deepEqual(userTexts(state), ['hello']);
    assert.ok(!entriesOf(state).some((entry) => entry.kind === 'notice' && entry.severity === 'error'), 'no error for an idle stop');
  });
});
