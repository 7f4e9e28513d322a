/**
 * The agent's own sessions against a real fixture agent process: listing them page by page (a malformed entry
 * left out, not the page), forking, retitling, deleting and closing, with the exact params that reach the agent.
 */
import * as assert from 'node:assert/strict';
import { startAgentSession, type AgentSessionHarness } from '../../support/agent-session-harness';
import { sessionsAgent, type SessionsAgent } from '../../support/sessions-agent';

describe('the agent’s own sessions: list, fork, title, delete, close', function () {
  this.timeout(20_000);
  let harness: AgentSessionHarness;
  let agent: SessionsAgent;
  beforeEach(async () => {
    agent = sessionsAgent(['list', 'fork', 'close', 'delete', 'title']);
    harness = startAgentSession(agent.config);
    await harness.session.start();
  });
  afterEach(async () => {
    await harness.dispose();
    agent.dispose();
  });

  const sent = (method: string): Record<string, unknown>[] =>
    agent
      .requests()
      .filter((request) => request.method === method)
      .map((request) => request.params);

  it('advertises what it serves', () => {
    assert.deepEqual(harness.session.sessionSupport, {
      load: false,
      list: true,
      resume: false,
      fork: true,
      close: true,
      delete: true,
      setTitle: true,
      additionalDirectories: false,
    });
  });

  it('lists two pages by cursor in our cwd; a malformed entry is left out and logged, the rest of its page kept', async () => {
    const first = await harness.session.listSessions();
    assert.deepEqual(first, {
      sessions: [
        { sessionId: 'stored-1', cwd: harness.cwd, title: 'First', updatedAt: '2026-11-20T10:00:00Z' },
        { sessionId: 'stored-2', cwd: harness.cwd, title: 'Second', updatedAt: '2026-11-21T10:00:00Z' },
      ],
      nextCursor: 'page-2',
    });
    assert.equal(harness.logLines.filter((line) => line.includes('left out an entry') && line.includes('broken-1')).length, 1);
    const second = await harness.session.listSessions(first.nextCursor);
    assert.deepEqual(
      second.sessions.map((session) => session.sessionId),
      ['stored-3', 'new-1'],
      'the other folder’s session is not ours',
    );
    assert.equal(second.nextCursor, undefined);
    assert.deepEqual(sent('session/list'), [{ cwd: harness.cwd }, { cwd: harness.cwd, cursor: 'page-2' }]);
  });

  it('forks the open session and stays on it', async () => {
    const forked = await harness.session.forkSession();
    assert.equal(forked, 'fork-2');
    assert.equal(harness.session.sessionId, 'new-1');
    assert.deepEqual(sent('session/fork'), [{ sessionId: 'new-1', cwd: harness.cwd, mcpServers: [] }]);
  });

  it('retitles the open session or a named one, and answers the title as the agent stored it', async () => {
    assert.equal(await harness.session.setTitle('  Renamed  '), 'Renamed');
    assert.equal(await harness.session.setTitle('Old one', 'stored-1'), 'Old one');
    assert.deepEqual(sent('session/set_title'), [
      { sessionId: 'new-1', title: '  Renamed  ' },
      { sessionId: 'stored-1', title: 'Old one' },
    ]);
    const listed = await harness.session.listSessions();
    assert.equal(listed.sessions.find((session) => session.sessionId === 'stored-1')?.title, 'Old one');
  });

  it('deletes another session; the open one is refused without sending', async () => {
    await harness.session.deleteSession('stored-2');
    await assert.rejects(harness.session.deleteSession('new-1'), /close it before deleting it/);
    assert.deepEqual(sent('session/delete'), [{ sessionId: 'stored-2' }]);
    const listed = await harness.session.listSessions();
    assert.ok(!listed.sessions.some((session) => session.sessionId === 'stored-2'));
  });

  it('closes the open session: no session is open afterwards', async () => {
    await harness.session.closeSession();
    assert.deepEqual(sent('session/close'), [{ sessionId: 'new-1' }]);
    assert.equal(harness.session.sessionId, undefined);
    assert.throws(() => harness.session.prompt([{ type: 'text', text: 'hi' }]), /No ACP session is open/);
    await assert.rejects(harness.session.closeSession(), /No ACP session is open/);
  });
});
