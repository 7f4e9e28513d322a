/** The agents' own session lists: the Sessions view hears of a listing only when it changed. */
import * as assert from 'node:assert/strict';
import { AgentSessions, type ListingSource } from '../../../src/conversations/agent-sessions';
import { NO_SESSION_SUPPORT, type SessionSupport } from '../../../src/acp/schemas/session-capabilities';
import type { ListedSession } from '../../../src/session/agent-session';

function source(listing: { sessions: ListedSession[] }, support: SessionSupport, held = new Set<string>()): ListingSource {
  return {
    heldAgentSessions: () => held,
    loadedConversations: () => [
      { agentName: 'Claude', controller: { support, listAgentSessions: () => Promise.resolve([...listing.sessions]) } },
    ],
  };
}

const LISTS = { ...NO_SESSION_SUPPORT, list: true, load: true };

describe('agent sessions', () => {
  it('tells its listeners once per real change, not after every listing', async () => {
    const listing = { sessions: [{ sessionId: 's1', cwd: '/w', title: 'First' }] };
    const sessions = new AgentSessions(source(listing, LISTS));
    let changes = 0;
    sessions.onDidChange(() => changes++);

    await sessions.refresh(true);
    assert.equal(changes, 1);
    assert.deepEqual(
      [...(sessions.list().get('Claude') ?? [])].map((s) => s.title),
      ['First'],
    );

    await sessions.refresh(true);
    await sessions.refresh(true);
    assert.equal(changes, 1, 'the same listing again is no change');

    listing.sessions = [...listing.sessions, { sessionId: 's2', cwd: '/w', title: 'Second' }];
    await sessions.refresh(true);
    assert.equal(changes, 2);
    listing.sessions = [{ sessionId: 's1', cwd: '/w', title: 'First, renamed' }, listing.sessions[1]!];
    await sessions.refresh(true);
    assert.equal(changes, 3, 'a new title is a change');
    assert.deepEqual(
      [...(sessions.list().get('Claude') ?? [])].map((s) => s.title),
      ['First, renamed', 'Second'],
    );
  });

  it('never tells its listeners anything for an agent that offers no listing', async () => {
    const sessions = new AgentSessions(source({ sessions: [{ sessionId: 's1', cwd: '/w' }] }, NO_SESSION_SUPPORT));
    let changes = 0;
    sessions.onDidChange(() => changes++);
    await sessions.refresh(true);
    await sessions.refresh(true);
    assert.equal(changes, 0);
    assert.equal(sessions.list().size, 0);
  });

  it('keeps an earlier list when listing fails, without a change', async () => {
    let fail = false;
    const conversations: ListingSource = {
      heldAgentSessions: () => new Set(['held']),
      loadedConversations: () => [
        {
          agentName: 'Claude',
          controller: {
            support: LISTS,
            listAgentSessions: () =>
              fail
                ? Promise.reject(new Error('list failed'))
                : Promise.resolve([
                    { sessionId: 'held', cwd: '/w' },
                    { sessionId: 'free', cwd: '/w' },
                  ]),
          },
        },
      ],
    };
    const sessions = new AgentSessions(conversations);
    let changes = 0;
    sessions.onDidChange(() => changes++);
    await sessions.refresh(true);
    fail = true;
    await sessions.refresh(true);
    assert.equal(changes, 1);
    // A session a conversation here already holds is not offered again.
    assert.deepEqual(
      [...(sessions.list().get('Claude') ?? [])].map((s) => s.sessionId),
      ['free'],
    );
  });
});
