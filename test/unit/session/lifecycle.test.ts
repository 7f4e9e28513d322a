/**
 * The agent lifecycle under faults and fast clicks, with real agent processes: every process we start is gone
 * once the chat has settled, a start-up that never answers says so and can be stopped, an agent that closes its
 * output is stopped, and a request for a session this client never opened is refused and shows nothing.
 */
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { scriptedAgent } from '../../support/host-harness';
import { HarnessSuite } from '../../support/harness-suite';
import { eventually, processesMarked } from '../../support/processes';
import { entriesOf } from '../../../src/shared/selectors';
import type { TranscriptState } from '../../../src/shared/model';

const notices = (state: TranscriptState) => entriesOf(state).flatMap((entry) => (entry.kind === 'notice' ? [entry] : []));
const agentText = (state: TranscriptState): string =>
  entriesOf(state)
    .flatMap((entry) => (entry.kind === 'message' && entry.role === 'agent' ? entry.content : []))
    .map((block) => (block.type === 'text' ? block.text : ''))
    .join('');

describe('agent lifecycle', function () {
  this.timeout(30_000);
  const suite = new HarnessSuite('acp-lifecycle-');

  it('eight starts clicked in quick succession leave exactly one agent process, and stop leaves none', async () => {
    const harness = suite.start();
    const marker = `ACP_TEST_MARK=${randomUUID()}`;
    const [name = '', value = ''] = marker.split('=');
    const agent = scriptedAgent('stream', { [name]: value });
    await Promise.all(Array.from({ length: 8 }, () => harness.controller.start(agent)));
    assert.equal(harness.store.state.agent.phase, 'ready');
    await eventually(() => processesMarked(marker).length === 1, `one agent left, found ${processesMarked(marker).length}`);
    await harness.controller.stop();
    await eventually(() => processesMarked(marker).length === 0, 'no agent left after stop');
    assert.equal(harness.store.state.agent.phase, 'stopped', 'the header says it is not running');
  });

  for (const hang of ['initialize', 'session_new']) {
    it(`a start-up that never answers ${hang} says the agent is not responding, and Stop ends it at once`, async () => {
      const harness = suite.start({ startupTimeoutMs: 300 });
      const marker = randomUUID();
      const starting = harness.controller.start(scriptedAgent('stream', { ACP_HANG: hang, ACP_TEST_MARK: marker }));
      const state = await harness.waitFor((s) => notices(s).some((notice) => /is not responding/.test(notice.title)));
      const notice = notices(state).find((entry) => /is not responding/.test(entry.title));
      assert.equal(notice?.action, 'stop_agent', 'the notice offers Stop');
      assert.equal(state.agent.phase, 'starting');
      await harness.controller.stopUnresponsive();
      await starting;
      assert.equal(harness.store.state.agent.phase, 'stopped');
      await eventually(() => processesMarked(marker).length === 0, 'the hung agent is gone');
      // The chat is usable at once: a healthy agent starts and answers.
      await harness.controller.start(scriptedAgent('stream'));
      assert.deepEqual(await harness.controller.sendPrompt('hello'), { accepted: true });
      await harness.waitFor((s) => s.turn.phase === 'idle' && entriesOf(s).some((entry) => entry.kind === 'turn_end'));
    });
  }

  it('an agent that closes its output but stays alive is stopped: the turn fails, the chat is usable again', async () => {
    const harness = suite.start();
    const marker = randomUUID();
    await harness.controller.start(scriptedAgent('stream', { ACP_FAULT: 'close-stdout', ACP_TEST_MARK: marker }));
    await harness.controller.sendPrompt('earlier words');
    const failed = await harness.waitFor((s) => s.turn.phase === 'idle' && notices(s).some((notice) => notice.action === 'restart_agent'));
    assert.equal(failed.agent.phase, 'exited');
    const end = entriesOf(failed).find((entry) => entry.kind === 'turn_end');
    assert.equal(end?.kind === 'turn_end' && end.outcome.type, 'error', 'the turn ended as an error');
    await eventually(() => processesMarked(marker).length === 0, 'the silent agent is gone');
    await harness.controller.start(scriptedAgent('stream'));
    assert.deepEqual(await harness.controller.sendPrompt('again'), { accepted: true });
    const state = await harness.waitFor(
      (s) => s.turn.phase === 'idle' && entriesOf(s).filter((entry) => entry.kind === 'turn_end').length === 2,
    );
    assert.equal(entriesOf(state)[0]?.kind === 'message' && entriesOf(state)[0]?.kind, 'message', 'the earlier transcript is intact');
  });

  it('a permission request for a session this client never opened is refused and shows nothing', async () => {
    const harness = suite.start({ permissionAnswer: 'yes' });
    await harness.controller.start(scriptedAgent('stream', { ACP_FAULT: 'foreign-permission' }));
    await harness.controller.sendPrompt('go');
    const state = await harness.waitFor((s) => s.turn.phase === 'idle' && entriesOf(s).some((entry) => entry.kind === 'turn_end'));
    assert.match(agentText(state), /foreign permission refused: .*Unknown session not-yours/);
    assert.equal(harness.prompt.shown.length, 0, 'no permission dialog');
    assert.ok(!entriesOf(state).some((entry) => entry.kind === 'tool_call'), 'no card');
  });
});
