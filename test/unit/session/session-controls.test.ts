/**
 * Modes and config options against a real scripted agent process: what a picker sends, what the agent refuses,
 * and that a refused choice does not stay showing.
 */
import * as assert from 'node:assert/strict';
import { scriptedAgent, type HostHarness } from '../../support/host-harness';
import { HarnessSuite } from '../../support/harness-suite';
import { entriesOf } from '../../../src/shared/selectors';
import type { NoticeEntry } from '../../../src/shared/model';

const notices = (harness: HostHarness): NoticeEntry[] =>
  entriesOf(harness.store.state).filter((entry): entry is NoticeEntry => entry.kind === 'notice');

describe('session modes and config options', function () {
  this.timeout(20_000);
  const suite = new HarnessSuite('acp-controls-');
  let harness: HostHarness | undefined;

  it('a mode the agent refuses is reported with its message, and the picker is restated as it was', async () => {
    harness = suite.start();
    await harness.controller.start(scriptedAgent('controls', { ACP_SESSION_CONTROLS: 'modes' }));
    const before = harness.store.state.modes;
    assert.equal(before?.current, 'ask');
    await harness.controller.setMode('yolo');
    const after = harness.store.state.modes;
    assert.equal(after?.current, 'ask', 'the mode did not change');
    assert.notEqual(after, before, 'restated: a view that already shows the refused choice redraws');
    const [notice] = notices(harness);
    assert.equal(notice?.severity, 'error');
    assert.equal(notice?.title, 'Could not switch mode');
    assert.match(notice?.detail ?? '', /unknown mode yolo/);
  });

  it('a boolean option goes tagged `type: "boolean"` in v1, a select value untagged, and the answer is the new state', async () => {
    harness = suite.start();
    await harness.controller.start(scriptedAgent('controls', { ACP_SESSION_CONTROLS: 'config' }));
    await harness.controller.setConfigOption('verbose', true);
    await harness.controller.setConfigOption('model', 'deep');
    const values = Object.fromEntries(harness.store.state.configOptions.map((option) => [option.id, option.currentValue]));
    assert.deepEqual(values, { model: 'deep', verbose: true });
    assert.deepEqual(notices(harness), [], 'the agent accepted both (it refuses a wrongly tagged value)');
    await harness.controller.setConfigOption('model', 'huge');
    assert.equal(notices(harness)[0]?.title, 'Could not change the option');
    assert.equal(harness.store.state.configOptions.find((option) => option.id === 'model')?.currentValue, 'deep');
  });
});
