/**
 * The Sessions view's groups (a day's conversations, an agent's own sessions) and how a refresh treats them. Pure (no
 * vscode), so the choice between refreshing groups by name and refreshing the whole tree is unit-tested.
 *
 * VS Code forgets every node of the extension's side at a whole-tree refresh, and a group's children asked for in that
 * moment are answered with none and stay so (`No tree item with id '1/day:Today' found.` in the extension host's log,
 * and "Today" empty until the next change). A group refreshed by name keeps its node, so the whole tree is refreshed
 * only when a group comes, goes or moves.
 */
import type { AgentSessionInfo } from '../conversations/agent-sessions';
import type { ConversationInfo } from '../conversations/conversations';
import { conversationDay } from './sessions-tree-text';

/** A group's content is replaced in place when the group stays: VS Code knows the node by the object it was given. */
export type GroupNode =
  | { readonly kind: 'day'; readonly label: string; items: readonly ConversationInfo[] }
  | { readonly kind: 'agent'; readonly agentName: string; sessions: readonly AgentSessionInfo[] };

/** The days (newest first, as the conversations come), then each agent's own sessions. */
export function sessionGroups(
  conversations: readonly ConversationInfo[],
  agentSessions: ReadonlyMap<string, readonly AgentSessionInfo[]>,
  now: number,
): GroupNode[] {
  const byDay = new Map<string, ConversationInfo[]>();
  for (const info of conversations) {
    const label = conversationDay(info, now);
    const group = byDay.get(label) ?? [];
    group.push(info);
    byDay.set(label, group);
  }
  const days: GroupNode[] = [...byDay].map(([label, items]) => ({ kind: 'day', label, items }));
  const agents: GroupNode[] = [...agentSessions].map(([agentName, sessions]) => ({ kind: 'agent', agentName, sessions }));
  return [...days, ...agents];
}

/**
 * What a refresh gives VS Code: the groups it holds, refilled with their newer content, when the same groups are there
 * in the same order; otherwise `whole` (and the groups it holds are to be forgotten).
 */
export function groupsToRefresh(shown: GroupNode[] | undefined, next: readonly GroupNode[]): GroupNode[] | 'whole' {
  if (!shown || shown.length !== next.length || shown.some((group, index) => groupKey(group) !== groupKey(next[index]!))) return 'whole';
  shown.forEach((group, index) => refill(group, next[index]!));
  return [...shown];
}

function groupKey(group: GroupNode): string {
  return group.kind === 'day' ? `day:${group.label}` : `agent:${group.agentName}`;
}

function refill(group: GroupNode, newer: GroupNode): void {
  if (group.kind === 'day' && newer.kind === 'day') group.items = newer.items;
  if (group.kind === 'agent' && newer.kind === 'agent') group.sessions = newer.sessions;
}
