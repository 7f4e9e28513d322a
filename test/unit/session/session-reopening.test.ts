/**
 * Opening one of the agent's own sessions again, against a real fixture agent process: `session/load` with its
 * replay shown as it streams or left out (never doubled), `session/resume` with its early updates, and methods
 * the agent did not advertise refused before anything is sent.
 */
import * as assert from 'node:assert/strict';
import { AuthRequired } from '../../../src/session/auth-required';
import { SessionMethodUnsupported, type AgentAction } from '../../../src/session/agent-session';
import { startAgentSession, type AgentSessionHarness } from '../../support/agent-session-harness';
import { sessionsAgent as fixtureAgent, type SessionsAgent } from '../../support/sessions-agent';

const NONE = {
  load: false,
  list: false,
  resume: false,
  fork: false,
  close: false,
  delete: false,
  setTitle: false,
  additionalDirectories: false,
};

/** The text of a message chunk, or the kind of any other update. */
function described(action: AgentAction): string {
  if (action.type !== 'session_update') return action.type;
  const { update } = action;
  if ((update.sessionUpdate === 'user_message_chunk' || update.sessionUpdate === 'agent_message_chunk') && update.content.type === 'text')
    return `${update.sessionUpdate}: ${update.content.text}`;
  return update.sessionUpdate;
}

async function until(harness: AgentSessionHarness, text: string): Promise<void> {
  for (let waited = 0; waited < 5000; waited += 10) {
    if (harness.actions.map(described).some((line) => line.includes(text))) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.fail(`no "${text}" in ${JSON.stringify(harness.actions.map(described))}`);
}

const REPLAY = ['user_message_chunk: hello from the past', 'agent_message_chunk: an old answer', 'tool_call', 'available_commands_update'];

describe('reopening an agent’s own sessions', function () {
  this.timeout(20_000);
  let harness: AgentSessionHarness | undefined;
  const agents: SessionsAgent[] = [];
  const sessionsAgent = (...args: Parameters<typeof fixtureAgent>): SessionsAgent => {
    const agent = fixtureAgent(...args);
    agents.push(agent);
    return agent;
  };
  afterEach(async () => {
    await harness?.dispose();
    harness = undefined;
    agents.splice(0).forEach((agent) => agent.dispose());
  });

  it('load, replay shown: the history reaches the hooks as it streams, before the answer, then live updates follow', async () => {
    const agent = sessionsAgent(['load']);
    harness = startAgentSession(agent.config);
    const started = await harness.session.start({ kind: 'load', sessionId: 'stored-1', replay: 'show' });
    assert.deepEqual(harness.session.sessionSupport, { ...NONE, load: true });
    assert.deepEqual(agent.requests(), [{ method: 'session/load', params: { sessionId: 'stored-1', cwd: harness.cwd, mcpServers: [] } }]);
    assert.equal(started.sessionId, 'stored-1');
    assert.equal(harness.session.sessionId, 'stored-1');
    assert.equal(started.modes?.current, 'ask', 'the answer’s modes are read');
    assert.deepEqual(harness.actions.map(described), REPLAY, 'all of the replay, in order, by the time the load answered');
    assert.deepEqual(started.earlyUpdates, []);
    await until(harness, 'loaded and listening');
    assert.deepEqual(harness.actions.map(described), [...REPLAY, 'agent_message_chunk: loaded and listening']);
  });

  it('load, replay suppressed: the history is left out (counted, logged once), state updates and live ones pass', async () => {
    const agent = sessionsAgent(['load']);
    harness = startAgentSession(agent.config);
    await harness.session.start({ kind: 'load', sessionId: 'stored-2', replay: 'suppress' });
    assert.deepEqual(harness.actions.map(described), ['available_commands_update'], 'the command list replaces, it cannot double');
    assert.deepEqual(
      harness.logLines.filter((line) => line.includes('replayed')),
      ['Sessions: left out 3 replayed updates of session stored-2'],
    );
    await until(harness, 'loaded and listening');
    assert.deepEqual(harness.actions.map(described), ['available_commands_update', 'agent_message_chunk: loaded and listening']);
  });

  it('load of an unknown session fails and leaves the session open until then as it was', async () => {
    harness = startAgentSession(sessionsAgent(['load']).config);
    await harness.session.start();
    await assert.rejects(harness.session.openSession({ kind: 'load', sessionId: 'nope', replay: 'show' }), /nope|not found/i);
    assert.equal(harness.session.sessionId, 'new-1');
  });

  it('resume: the same cwd and MCP servers as session/new, no replay, the updates before its answer come as early updates', async () => {
    const agent = sessionsAgent(['resume']);
    harness = startAgentSession(agent.config);
    await harness.session.start();
    assert.deepEqual(harness.session.sessionSupport, { ...NONE, resume: true });
    const resumed = await harness.session.openSession({ kind: 'resume', sessionId: 'stored-3' });
    assert.equal(resumed.sessionId, 'stored-3');
    assert.equal(harness.session.sessionId, 'stored-3');
    assert.deepEqual(
      resumed.earlyUpdates.map((update) => update.sessionUpdate),
      ['available_commands_update'],
    );
    const [created, resume] = agent.requests();
    assert.deepEqual(resume, { method: 'session/resume', params: { sessionId: 'stored-3', cwd: harness.cwd, mcpServers: [] } });
    assert.deepEqual(created?.params, { cwd: harness.cwd, mcpServers: [] });
    await assert.rejects(harness.session.openSession({ kind: 'load', sessionId: 'stored-1', replay: 'show' }), SessionMethodUnsupported);
    assert.equal(agent.requests().length, 2, 'the load was not sent');
  });

  it('an agent with neither: only new sessions; every lifecycle method refuses without sending anything', async () => {
    const agent = sessionsAgent([]);
    harness = startAgentSession(agent.config);
    await harness.session.start();
    assert.deepEqual(harness.session.sessionSupport, NONE);
    const session = harness.session;
    const refusals: [string, () => Promise<unknown>][] = [
      ['session/load', () => session.openSession({ kind: 'load', sessionId: 'stored-1', replay: 'suppress' })],
      ['session/resume', () => session.openSession({ kind: 'resume', sessionId: 'stored-1' })],
      ['session/list', () => session.listSessions()],
      ['session/fork', () => session.forkSession()],
      ['session/close', () => session.closeSession()],
      ['session/delete', () => session.deleteSession('stored-1')],
      ['session/set_title', () => session.setTitle('Renamed')],
    ];
    for (const [method, call] of refusals)
      await assert.rejects(call(), (error: unknown) => {
        assert.ok(error instanceof SessionMethodUnsupported);
        assert.equal(error.method, method);
        assert.equal(error.message, `Sessions does not support ${method}`);
        return true;
      });
    assert.deepEqual(
      agent.requests().map((request) => request.method),
      ['session/new'],
    );
    assert.equal(session.sessionId, 'new-1');
  });

  it('auth_required on load and resume throws AuthRequired, as on session/new, and the agent keeps running', async () => {
    harness = startAgentSession(sessionsAgent(['load', 'resume'], { ACP_SESSIONS_AUTH: '1' }).config);
    await harness.session.start();
    await assert.rejects(harness.session.openSession({ kind: 'load', sessionId: 'stored-1', replay: 'show' }), AuthRequired);
    await assert.rejects(harness.session.openSession({ kind: 'resume', sessionId: 'stored-1' }), AuthRequired);
    assert.equal(harness.session.exited, false);
    assert.equal(harness.session.sessionId, 'new-1');
  });
});
