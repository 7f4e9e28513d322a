/** The Sessions view's groups, and when a refresh may name them instead of refreshing the whole tree. */
import * as assert from 'node:assert/strict';
import type { AgentSessionInfo } from '../../../src/conversations/agent-sessions';
import type { ConversationInfo } from '../../../src/conversations/conversations';
import { groupsToRefresh, sessionGroups, type GroupNode } from '../../../src/editor/sessions-tree-groups';

const NOW = new Date(2026, 11, 6, 12, 0).getTime();
const HOUR = 3_600_000;

function conversation(id: string, updatedAt: number, status: ConversationInfo['status'] = 'idle'): ConversationInfo {
  return {
    id,
    title: id,
    firstPrompt: id,
    agentName: 'Alpha',
    createdAt: updatedAt,
    updatedAt,
    status,
    loaded: true,
    prompted: true,
  };
}

const NO_AGENT_SESSIONS = new Map<string, readonly AgentSessionInfo[]>();
const labels = (groups: readonly GroupNode[]) => groups.map((group) => (group.kind === 'day' ? group.label : group.agentName));
const ids = (group: GroupNode | undefined) => (group?.kind === 'day' ? group.items.map((info) => info.id) : []);

describe('Sessions view groups', () => {
  it('groups conversations by day in the order they come, then each agent that listed sessions of its own', () => {
    const agentSessions = new Map([['Claude', [{ sessionId: 's1', cwd: '/w', agentName: 'Claude' }]]]);
    const groups = sessionGroups(
      [conversation('new', NOW - HOUR), conversation('older', NOW - 2 * HOUR), conversation('old', NOW - 30 * HOUR)],
      agentSessions,
      NOW,
    );
    assert.deepEqual(labels(groups), ['Today', 'Yesterday', 'Claude']);
    assert.deepEqual(ids(groups[0]), ['new', 'older']);
  });

  it('refreshes the groups VS Code holds, refilled, while the same groups stay in the same order', () => {
    const shown = sessionGroups([conversation('a', NOW - HOUR, 'running')], NO_AGENT_SESSIONS, NOW);
    const today = shown[0];
    const next = sessionGroups([conversation('b', NOW), conversation('a', NOW - HOUR, 'idle')], NO_AGENT_SESSIONS, NOW);
    const refreshed = groupsToRefresh(shown, next);
    assert.notEqual(refreshed, 'whole');
    // The very object VS Code was given (it knows a node by its object), with the new content.
    assert.equal(refreshed === 'whole' ? undefined : refreshed[0], today);
    assert.deepEqual(ids(today), ['b', 'a']);
    assert.equal(today?.kind === 'day' ? today.items[1]?.status : undefined, 'idle');
  });

  it('refreshes the whole tree when a group comes, goes or moves, or before VS Code has asked for any', () => {
    const today = () => sessionGroups([conversation('a', NOW)], NO_AGENT_SESSIONS, NOW);
    const todayAndYesterday = sessionGroups([conversation('a', NOW), conversation('b', NOW - 30 * HOUR)], NO_AGENT_SESSIONS, NOW);
    assert.equal(groupsToRefresh(undefined, today()), 'whole');
    assert.equal(groupsToRefresh(today(), todayAndYesterday), 'whole', 'a day came');
    assert.equal(groupsToRefresh(todayAndYesterday, today()), 'whole', 'a day went');
    // Past midnight "Today" becomes "Yesterday": same number of groups, another name.
    assert.equal(groupsToRefresh(today(), sessionGroups([conversation('a', NOW)], NO_AGENT_SESSIONS, NOW + 24 * HOUR)), 'whole');
    const withAgent = sessionGroups(
      [conversation('a', NOW)],
      new Map([['Claude', [{ sessionId: 's1', cwd: '/w', agentName: 'Claude' }]]]),
      NOW,
    );
    assert.equal(groupsToRefresh(today(), withAgent), 'whole', "an agent's own sessions came");
  });
});
