/**
 * A conversation whose agent starts again (after a reload, an idle stop or a crash) continues its ACP session:
 * resume where offered, else load with the replay left out (the stored transcript shows it already), else a fresh
 * session with a note. Checked against what reaches a real agent process.
 */
import * as assert from 'node:assert/strict';
import { TranscriptStore } from '../../../src/session/transcript-store';
import { initialState, reduce } from '../../../src/shared/reducer';
import type { TranscriptAction } from '../../../src/shared/actions';
import type { TranscriptState } from '../../../src/shared/model';
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

describe('continuing a conversation when its agent starts again', function () {
  this.timeout(20_000);
  const suite = new HarnessSuite('acp-continue-');
  let agent: SessionsAgent | undefined;
  afterEach(() => agent?.dispose());

  async function startOn(features: string[], sessionId = 'stored-1') {
    agent = sessionsAgent(features);
    const store = new TranscriptStore(storedConversation(sessionId));
    const harness = suite.start({ store });
    await harness.controller.start(agent.config);
    return {
      harness,
      store,
      requests: agent.requests().map((request) => `${request.method} ${String(request.params['sessionId'] ?? '')}`),
    };
  }

  it('resumes with session/resume when offered: no replay, nothing doubled, no note', async () => {
    const { store, requests } = await startOn(['resume', 'load']);
    assert.deepEqual(requests, ['session/resume stored-1']);
    assert.equal(store.state.agent.phase, 'ready');
    assert.equal(store.state.sessionId, 'stored-1');
    assert.deepEqual(messages(store.state), ['user: stored question', 'agent: stored answer']);
    assert.deepEqual(notices(store.state), []);
  });

  it('loads with session/load when only that is offered, leaving the replay out of the transcript it already shows', async () => {
    const { harness, store, requests } = await startOn(['load']);
    assert.deepEqual(requests, ['session/load stored-1']);
    // What the agent says after the load answered is live and shown; the replay before it is not doubled.
    await harness.waitFor((state) => messages(state).some((line) => line.includes('loaded and listening')));
    assert.deepEqual(messages(store.state), ['user: stored question', 'agent: stored answer', 'agent: loaded and listening']);
  });

  it('opens a fresh session with a note when the agent offers neither', async () => {
    const { store, requests } = await startOn([]);
    assert.deepEqual(requests, ['session/new ']);
    assert.deepEqual(notices(store.state), ['Sessions cannot continue the earlier session']);
    assert.deepEqual(messages(store.state), ['user: stored question', 'agent: stored answer'], 'the transcript stays');
  });

  it('falls back to a fresh session, saying why, when the agent no longer knows the session', async () => {
    const { store, requests } = await startOn(['resume'], 'forgotten-7');
    assert.deepEqual(requests, ['session/resume forgotten-7', 'session/new ']);
    assert.equal(store.state.agent.phase, 'ready');
    assert.deepEqual(notices(store.state), ['Sessions could not continue the earlier session']);
  });
});
