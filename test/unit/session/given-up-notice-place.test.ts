/**
 * Where "Stopped waiting for … to load/resume the session" is said: in the conversation it is about, never in a
 * transcript that replaced it (another agent chosen in its place starts a fresh one), and as a VS Code notification
 * when that conversation is gone (closed while the agent was still loading it). On a shared agent process, so the
 * `$/cancel_request` reaches an agent that lives on.
 */
import * as assert from 'node:assert/strict';
import { AgentPool } from '../../../src/session/agent-pool';
import { TranscriptStore } from '../../../src/session/transcript-store';
import type { TranscriptAction } from '../../../src/shared/actions';
import type { TranscriptState } from '../../../src/shared/model';
import { initialState, reduce } from '../../../src/shared/reducer';
import { entriesOf } from '../../../src/shared/selectors';
import { HarnessSuite } from '../../support/harness-suite';
import { scriptedAgent } from '../../support/host-harness';
import { sessionsAgent, type SessionsAgent } from '../../support/sessions-agent';

const GAVE_UP = 'Stopped waiting for Sessions to load the session';

function storedConversation(sessionId: string): TranscriptState {
  const actions: TranscriptAction[] = [
    { type: 'agent_status', status: { phase: 'ready', agentName: 'Sessions' } },
    { type: 'session_started', sessionId, promptCapabilities: { image: false, audio: false, embeddedContext: false } },
    { type: 'prompt_sent', turnId: 't1', content: [{ type: 'text', text: 'stored question' }] },
    { type: 'turn_ended', turnId: 't1', stopReason: 'end_turn' },
    { type: 'agent_status', status: { phase: 'stopped', agentName: 'Sessions' } },
  ];
  return actions.reduce(reduce, initialState());
}

const notices = (state: TranscriptState): string[] => entriesOf(state).flatMap((entry) => (entry.kind === 'notice' ? [entry.title] : []));

async function eventually<T>(probe: () => T | undefined, what: string, timeoutMs = 8000): Promise<T> {
  for (let waited = 0; waited < timeoutMs; waited += 20) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return assert.fail(`timed out waiting for ${what}`);
}

describe('where a given-up session load is said', function () {
  this.timeout(30_000);
  const suite = new HarnessSuite('acp-given-up-place-');
  let pool: AgentPool;
  let agent: SessionsAgent | undefined;
  beforeEach(() => (pool = new AgentPool()));
  afterEach(() => {
    pool.dispose();
    agent?.dispose();
  });

  /** A stored conversation whose agent is loading its session and never answers; another keeps the process up. */
  async function loadingConversation(): Promise<{ harness: ReturnType<HarnessSuite['start']>; cancels: () => number }> {
    agent = sessionsAgent(['load'], { ACP_SESSIONS_HANG_ONCE: '1' });
    const wire = (name: string): number => agent?.requests().filter((request) => request.method === `wire ${name}`).length ?? 0;
    const other = suite.start({ pool });
    await other.controller.start(agent.config);
    const harness = suite.start({ pool, store: new TranscriptStore(storedConversation('stored-1')) });
    void harness.controller.start(agent.config);
    await eventually(() => (wire('session/load') > 0 ? true : undefined), 'session/load on the wire');
    return { harness, cancels: () => wire('$/cancel_request') };
  }

  it('another agent chosen in its place: the fresh transcript says nothing of it; a notification does', async () => {
    const { harness, cancels } = await loadingConversation();
    await harness.controller.switchTo(scriptedAgent('stream'));
    await eventually(() => (cancels() > 0 ? true : undefined), '$/cancel_request');
    assert.equal(harness.store.state.agent.phase === 'none' ? undefined : harness.store.state.agent.agentName, 'Scripted');
    assert.deepEqual(notices(harness.store.state), [], "the new agent's transcript is not about the given-up load");
    assert.deepEqual(harness.notifications, [GAVE_UP]);
  });

  it('the conversation closed while its agent loads: a notification says it, the agent is asked to cancel', async () => {
    const { harness, cancels } = await loadingConversation();
    harness.controller.dispose();
    await eventually(() => (cancels() > 0 ? true : undefined), '$/cancel_request');
    assert.deepEqual(harness.notifications, [GAVE_UP]);
  });

  it('Stop while it loads: said in the conversation itself, no notification', async () => {
    const { harness, cancels } = await loadingConversation();
    await harness.controller.stop();
    await eventually(() => (cancels() > 0 ? true : undefined), '$/cancel_request');
    assert.deepEqual(notices(harness.store.state), [GAVE_UP]);
    assert.deepEqual(harness.notifications, []);
  });
});
