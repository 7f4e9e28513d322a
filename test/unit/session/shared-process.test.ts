/**
 * Sessions of one agent share one agent process (ACP connections carry many sessions): each conversation still
 * has its own session, turn and transcript; the process lives while any of them uses it; a crash marks each of
 * them exited and keeps their transcripts, and one restart brings them all back, resumed. Real agent processes,
 * counted in /proc.
 */
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { scriptedAgent, type HostHarness } from '../../support/host-harness';
import { HarnessSuite } from '../../support/harness-suite';
import { eventually, processesMarked } from '../../support/processes';
import { sessionsAgent } from '../../support/sessions-agent';
import { AgentPool } from '../../../src/session/agent-pool';
import { entriesOf } from '../../../src/shared/selectors';
import type { TranscriptState } from '../../../src/shared/model';

const agentText = (state: TranscriptState): string =>
  entriesOf(state)
    .flatMap((entry) => (entry.kind === 'message' && entry.role === 'agent' ? entry.content : []))
    .map((block) => (block.type === 'text' ? block.text : ''))
    .join('');
const userText = (state: TranscriptState): string[] =>
  entriesOf(state).flatMap((entry) =>
    entry.kind === 'message' && entry.role === 'user'
      ? [entry.content.map((block) => (block.type === 'text' ? block.text : '')).join('')]
      : [],
  );
const turnsEnded = (state: TranscriptState): number => entriesOf(state).filter((entry) => entry.kind === 'turn_end').length;
const idleAfter = (turns: number) => (state: TranscriptState) => state.turn.phase === 'idle' && turnsEnded(state) === turns;

describe('sessions of one agent share its process', function () {
  this.timeout(40_000);
  const suite = new HarnessSuite('acp-shared-process-');
  let pool: AgentPool;
  beforeEach(() => (pool = new AgentPool()));
  afterEach(() => pool.dispose());

  it('two conversations run on one process, each with its own session and turn; it stops when the last lets go', async () => {
    const marker = randomUUID();
    const agent = scriptedAgent('echo', { ACP_TEST_MARK: marker });
    const first = suite.start({ pool });
    const second = suite.start({ pool });
    await first.controller.start(agent);
    await second.controller.start(agent);
    assert.equal(processesMarked(marker).length, 1, 'one agent process serves both');
    assert.notEqual(first.store.state.sessionId, second.store.state.sessionId, 'each has its own ACP session');

    // Both turns at once: each answer reaches only the conversation that asked.
    await Promise.all([first.controller.sendPrompt('alpha words'), second.controller.sendPrompt('beta words')]);
    const [a, b] = await Promise.all([first.waitFor(idleAfter(1)), second.waitFor(idleAfter(1))]);
    assert.match(agentText(a), /alpha words/);
    assert.doesNotMatch(agentText(a), /beta words/);
    assert.match(agentText(b), /beta words/);
    assert.doesNotMatch(agentText(b), /alpha words/);

    // One stops: the other goes on, on the same process.
    await first.controller.stop();
    assert.equal(first.store.state.agent.phase, 'stopped');
    assert.equal(processesMarked(marker).length, 1, 'the process lives on for the other conversation');
    await second.controller.sendPrompt('gamma words');
    assert.match(agentText(await second.waitFor(idleAfter(2))), /gamma words/);

    await second.controller.stop();
    await eventually(() => processesMarked(marker).length === 0, 'no agent left once the last conversation stopped');
  });

  it('a new conversation with a running agent opens its session at once, without starting another process', async () => {
    const marker = randomUUID();
    const agent = scriptedAgent('echo', { ACP_TEST_MARK: marker });
    const first = suite.start({ pool });
    await first.controller.start(agent);
    const second = suite.start({ pool });
    const started = Date.now();
    await second.controller.start(agent);
    const joinMs = Date.now() - started;
    assert.equal(second.store.state.agent.phase, 'ready');
    assert.equal(processesMarked(marker).length, 1);
    // No spawn, no initialize: only session/new (generous bound for a loaded machine; a spawn of Node alone takes longer).
    assert.ok(joinMs < 1500, `joining took ${joinMs} ms`);
  });

  it('a crash marks each of its three sessions exited and keeps their transcripts; one restart brings all three back, resumed', async () => {
    const marker = randomUUID();
    const sessions = sessionsAgent(['resume'], { ACP_TEST_MARK: marker });
    try {
      const harnesses: HostHarness[] = [suite.start({ pool }), suite.start({ pool }), suite.start({ pool })];
      for (const harness of harnesses) await harness.controller.start(sessions.config);
      const ids = harnesses.map((harness) => harness.store.state.sessionId);
      assert.equal(new Set(ids).size, 3, 'three sessions');
      assert.equal(processesMarked(marker).length, 1);
      for (const [index, harness] of harnesses.entries()) {
        await harness.controller.sendPrompt(`question ${index}`);
        await harness.waitFor(idleAfter(1));
      }

      const [pid] = processesMarked(marker);
      process.kill(pid ?? 0, 'SIGKILL');
      // Each says it stopped, with Restart.
      const offersRestart = (state: TranscriptState): boolean =>
        state.agent.phase === 'exited' && entriesOf(state).some((entry) => entry.kind === 'notice' && entry.action === 'restart_agent');
      const crashed = await Promise.all(harnesses.map((harness) => harness.waitFor(offersRestart)));
      for (const [index, state] of crashed.entries()) assert.deepEqual(userText(state), [`question ${index}`], 'the transcript is kept');

      await harnesses[0]?.controller.restart();
      await Promise.all(harnesses.map((harness) => harness.waitFor((state) => state.agent.phase === 'ready')));
      assert.deepEqual(
        harnesses.map((harness) => harness.store.state.sessionId),
        ids,
        'each continues its own session',
      );
      const resumed = sessions
        .requests()
        .filter((request) => request.method === 'session/resume')
        .map((request) => request.params['sessionId']);
      assert.deepEqual([...resumed].sort(), [...ids].sort(), 'each session was resumed on the new process');
      assert.equal(processesMarked(marker).length, 1, 'one process again');
      for (const harness of harnesses) {
        await harness.controller.sendPrompt('after the restart');
        await harness.waitFor(idleAfter(2));
      }
    } finally {
      sessions.dispose();
    }
  });
});
