/**
 * A `session/resume` or `session/load` the user gives up on (Stop on "not responding", Retry, another agent) while
 * the agent never answers it: the agent is sent `$/cancel_request` naming that request's id, the conversation says
 * the reopening was given up and keeps its transcript, and it stays usable. On a shared agent process, so the
 * agent lives on (the case where the cancel matters) and another conversation on it goes on undisturbed.
 */
import * as assert from 'node:assert/strict';
import type { CancelRequestNotification } from '@agentclientprotocol/sdk';
import { AgentPool } from '../../../src/session/agent-pool';
import { TranscriptStore } from '../../../src/session/transcript-store';
import type { TranscriptAction } from '../../../src/shared/actions';
import type { TranscriptState } from '../../../src/shared/model';
import { initialState, reduce } from '../../../src/shared/reducer';
import { entriesOf } from '../../../src/shared/selectors';
import { HarnessSuite } from '../../support/harness-suite';
import { sessionsAgent, type SessionsAgent } from '../../support/sessions-agent';

/** A stored conversation with `Sessions` on its agent session `sessionId`, its agent not running. */
function storedConversation(sessionId: string): TranscriptState {
  const actions: TranscriptAction[] = [
    { type: 'agent_status', status: { phase: 'ready', agentName: 'Sessions' } },
    { type: 'session_started', sessionId, promptCapabilities: { image: false, audio: false, embeddedContext: false } },
    { type: 'prompt_sent', turnId: 't1', content: [{ type: 'text', text: 'stored question' }] },
    { type: 'session_update', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'stored answer' } } },
    { type: 'turn_ended', turnId: 't1', stopReason: 'end_turn' },
    { type: 'agent_status', status: { phase: 'stopped', agentName: 'Sessions' } },
  ];
  return actions.reduce(reduce, initialState());
}

const messages = (state: TranscriptState): string[] =>
  entriesOf(state).flatMap((entry) =>
    entry.kind === 'message' ? [`${entry.role}: ${entry.content.map((block) => (block.type === 'text' ? block.text : '')).join('')}`] : [],
  );
const notices = (state: TranscriptState): string[] => entriesOf(state).flatMap((entry) => (entry.kind === 'notice' ? [entry.title] : []));

async function eventually<T>(probe: () => T | undefined, what: string, timeoutMs = 8000): Promise<T> {
  for (let waited = 0; waited < timeoutMs; waited += 20) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return assert.fail(`timed out waiting for ${what}`);
}

function settlesWithin<T>(promise: Promise<T>, ms: number): Promise<'settled' | 'pending'> {
  return Promise.race([
    promise.then(
      () => 'settled' as const,
      () => 'settled' as const,
    ),
    new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), ms)),
  ]);
}

describe('a session load or resume the user gives up on', function () {
  this.timeout(30_000);
  const suite = new HarnessSuite('acp-give-up-');
  let pool: AgentPool;
  let agent: SessionsAgent | undefined;
  beforeEach(() => (pool = new AgentPool()));
  afterEach(() => {
    pool.dispose();
    agent?.dispose();
  });

  for (const features of [['resume'], ['load']]) {
    const method = `session/${features[0] ?? ''}`;
    it(`${method} never answered, then Stop: $/cancel_request for its id, the conversation says so and goes on`, async () => {
      agent = sessionsAgent(features, { ACP_SESSIONS_HANG_ONCE: '1' });
      const wire = (name: string) => agent?.requests().filter((request) => request.method === `wire ${name}`) ?? [];
      // Another conversation keeps the agent's process alive: stopping this one does not end it.
      const other = suite.start({ pool });
      await other.controller.start(agent.config);
      const store = new TranscriptStore(storedConversation('stored-1'));
      const harness = suite.start({ pool, store });
      const starting = harness.controller.start(agent.config);
      const [reopen] = await eventually(() => (wire(method).length > 0 ? wire(method) : undefined), `${method} on the wire`);
      const requestId = reopen?.params['id'];
      assert.ok(typeof requestId === 'number' || typeof requestId === 'string', 'the request has an id');

      await harness.controller.stop();
      assert.equal(await settlesWithin(starting, 3000), 'settled', 'the start that waited on the agent is over');
      const [cancel] = await eventually(
        () => (wire('$/cancel_request').length > 0 ? wire('$/cancel_request') : undefined),
        '$/cancel_request',
      );
      const expected: CancelRequestNotification = { requestId };
      assert.deepEqual(cancel?.params['params'], expected, 'the cancel names the given-up request');
      assert.deepEqual(notices(store.state), [`Stopped waiting for Sessions to ${features[0] ?? ''} the session`]);
      assert.deepEqual(messages(store.state), ['user: stored question', 'agent: stored answer'], 'the transcript is kept');
      assert.equal(store.state.agent.phase, 'stopped');

      // Usable again, as the chat does it: a prompt to a stopped agent starts it (chat-commands ensureAgent) and
      // waits in the queue; the start continues the same session (the agent answers this time), then the prompt goes.
      const restarting = harness.controller.start(agent.config);
      assert.deepEqual(await harness.controller.sendPrompt('again'), { accepted: true, queued: true });
      await restarting;
      assert.equal(store.state.sessionId, 'stored-1', 'the same session, continued');
      assert.equal(wire(method).length, 2, `${method} was asked again`);
      const answered = await harness.waitFor((state) => state.turn.phase === 'idle' && messages(state).includes('user: again'));
      assert.equal(answered.agent.phase, 'ready');
      // The other conversation on the same process was not disturbed.
      assert.deepEqual(await other.controller.sendPrompt('still here'), { accepted: true });
      await other.waitFor((state) => state.turn.phase === 'idle' && entriesOf(state).some((entry) => entry.kind === 'turn_end'));
    });
  }
});
