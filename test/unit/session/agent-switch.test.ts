/**
 * Another agent for a conversation in which nothing was said: the old agent's process ends (no other conversation
 * uses it), the header names the new agent at once, and the conversation's session is the new agent's own.
 */
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { scriptedAgent } from '../../support/host-harness';
import { HarnessSuite } from '../../support/harness-suite';
import { eventually, processesMarked } from '../../support/processes';

describe('switching the agent of a blank conversation', function () {
  this.timeout(30_000);
  const suite = new HarnessSuite('acp-switch-');

  it('stops the old agent, names the new one at once and opens a session on it', async () => {
    const harness = suite.start();
    const alphaMark = randomUUID();
    const betaMark = randomUUID();
    const alpha = { ...scriptedAgent('echo', { ACP_TEST_MARK: alphaMark }), name: 'Alpha' };
    const beta = { ...scriptedAgent('echo', { ACP_TEST_MARK: betaMark }), name: 'Beta' };
    await harness.controller.start(alpha);
    assert.equal(processesMarked(alphaMark).length, 1);
    const switching = harness.controller.switchTo(beta);
    const header = harness.store.state.agent;
    assert.ok(header.phase === 'starting' && header.agentName === 'Beta', JSON.stringify(header));
    await switching;
    assert.equal(harness.store.state.agent.phase, 'ready');
    await eventually(() => processesMarked(alphaMark).length === 0, `Alpha ended, found ${processesMarked(alphaMark).length}`);
    assert.equal(processesMarked(betaMark).length, 1);
    await harness.controller.stop();
    await eventually(() => processesMarked(betaMark).length === 0, 'Beta ended after stop');
  });
});
