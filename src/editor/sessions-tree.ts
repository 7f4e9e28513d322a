/**
 * The Sessions view: every conversation of this workspace, newest first, grouped by day, each with its title,
 * agent, age and a status icon. Selecting one shows it in the chat. Refreshes are coalesced: streaming in many
 * conversations at once costs the tree one refresh per window, not one per change, and a refresh names the groups
 * when they stay as they were (sessions-tree-groups.ts says why).
 */
import * as vscode from 'vscode';
import type { ConversationInfo, Conversations } from '../conversations/conversations';
import type { AgentSessionInfo, AgentSessions } from '../conversations/agent-sessions';
import { STATUS_WORDS, type ConversationStatus } from '../conversations/conversation-status';
import { shortAge } from '../shared/relative-time';
import { visibleText } from '../shared/visible-text';
import type { EditorToolsStatus } from '../editor-tools/editor-tools-offer';
import { conversationDescription, conversationLabel, editorToolsLine } from './sessions-tree-text';
import { groupsToRefresh, sessionGroups, type GroupNode } from './sessions-tree-groups';

const REFRESH_WINDOW_MS = 250;
const TITLE_CHARS = 80;

export type SessionNode = GroupNode | ConversationNode | { readonly kind: 'agent_session'; readonly session: AgentSessionInfo };
interface ConversationNode {
  readonly kind: 'conversation';
  readonly info: ConversationInfo;
}

export class SessionsTree implements vscode.TreeDataProvider<SessionNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<SessionNode | SessionNode[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The groups last given to VS Code as the tree's roots; undefined until it asks again after a whole-tree refresh. */
  private groups: GroupNode[] | undefined;
  private readonly subscription: { dispose(): void };

  constructor(
    private readonly conversations: Conversations,
    private readonly agentSessions: AgentSessions,
    /** Whether the conversation's agent offers `session/fork` (its menu shows Fork only then). */
    private readonly canFork: (id: string) => boolean,
    private readonly now: () => number = Date.now,
  ) {
    const listed = agentSessions.onDidChange(() => this.refreshSoon());
    const changed = conversations.onDidChange(() => this.refreshSoon());
    this.subscription = { dispose: () => (listed.dispose(), changed.dispose()) };
  }

  /** Files changed by a loaded conversation, for its "N files changed" (set by the review loop). */
  private changedFiles: ((id: string) => number | undefined) | undefined;

  countChangedFiles(count: (id: string) => number | undefined): void {
    this.changedFiles = count;
    this.refreshSoon();
  }

  /** Whether a loaded conversation's agent got the editor's MCP server (its tooltip says so, and why not). */
  private editorTools: ((id: string) => EditorToolsStatus | undefined) | undefined;

  describeEditorTools(status: (id: string) => EditorToolsStatus | undefined): void {
    this.editorTools = status;
    this.refreshSoon();
  }

  refresh(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    // The agents' own lists are read in the background; the tree refreshes again if they changed.
    void this.agentSessions.refresh();
    const groups = groupsToRefresh(this.groups, this.currentGroups());
    if (groups === 'whole') this.groups = undefined;
    this.changed.fire(groups === 'whole' ? undefined : groups);
  }

  getChildren(node?: SessionNode): SessionNode[] {
    if (node?.kind === 'day') return node.items.map((info) => ({ kind: 'conversation', info }));
    if (node?.kind === 'agent') return node.sessions.map((session) => ({ kind: 'agent_session', session }));
    if (node) return [];
    void this.agentSessions.refresh();
    this.groups = this.currentGroups();
    return [...this.groups];
  }

  private currentGroups(): GroupNode[] {
    return sessionGroups(this.conversations.listed(), this.agentSessions.list(), this.now());
  }

  getTreeItem(node: SessionNode): vscode.TreeItem {
    if (node.kind === 'agent') {
      const item = new vscode.TreeItem(`${visibleText(node.agentName)}'s own sessions`, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `agent:${node.agentName}`;
      item.description = String(node.sessions.length);
      item.tooltip = `Sessions ${visibleText(node.agentName)} keeps for this folder (session/list). Open one to load it here.`;
      item.contextValue = 'agentSessions';
      return item;
    }
    if (node.kind === 'agent_session') return agentSessionItem(node.session, this.now());
    if (node.kind === 'day') {
      const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Expanded);
      item.id = `day:${node.label}`;
      item.contextValue = 'day';
      return item;
    }
    const { info } = node;
    const shown = this.conversations.shown?.id === info.id;
    const item = new vscode.TreeItem(conversationLabel(info), vscode.TreeItemCollapsibleState.None);
    item.id = `conversation:${info.id}`;
    item.description = conversationDescription(info, this.changedFiles?.(info.id) ?? 0, this.now());
    item.iconPath = statusIcon(info.status);
    item.tooltip = tooltip(info, shown, this.editorTools?.(info.id));
    item.contextValue = `conversation${this.canFork(info.id) ? ' forkable' : ''}`;
    item.accessibilityInformation = {
      label: `${conversationLabel(info)}, ${info.agentName ?? ''}, ${STATUS_WORDS[info.status]}`,
      role: 'treeitem',
    };
    item.command = { command: 'acpClient.showSession', title: 'Show in Chat', arguments: [info.id] };
    return item;
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.subscription.dispose();
    this.changed.dispose();
  }

  private refreshSoon(): void {
    this.timer ??= setTimeout(() => this.refresh(), REFRESH_WINDOW_MS);
  }
}

function agentSessionItem(session: AgentSessionInfo, now: number): vscode.TreeItem {
  const label = visibleText((session.title ?? session.sessionId).replace(/\s+/g, ' ').trim()) || visibleText(session.sessionId);
  const item = new vscode.TreeItem(label.length > TITLE_CHARS ? `${label.slice(0, TITLE_CHARS - 1)}…` : label);
  item.id = `agent-session:${session.agentName}:${session.sessionId}`;
  const updated = session.updatedAt === undefined ? Number.NaN : Date.parse(session.updatedAt);
  item.description = [Number.isNaN(updated) ? undefined : shortAge(updated, now), session.cannotOpen ? 'cannot open' : undefined]
    .filter((part) => part !== undefined)
    .join(' · ');
  item.iconPath = new vscode.ThemeIcon(session.cannotOpen ? 'circle-slash' : 'history');
  item.tooltip =
    session.cannotOpen ??
    `${visibleText(session.agentName)}'s session ${visibleText(session.sessionId)}. Open it to load its history here.`;
  item.contextValue = 'agentSession';
  item.command = { command: 'acpClient.openAgentSession', title: 'Open', arguments: [session.agentName, session.sessionId, session.title] };
  return item;
}

function statusIcon(status: ConversationStatus): vscode.ThemeIcon {
  switch (status) {
    case 'running':
      return new vscode.ThemeIcon('sync~spin', new vscode.ThemeColor('charts.blue'));
    case 'waiting':
      return new vscode.ThemeIcon('bell-dot', new vscode.ThemeColor('list.warningForeground'));
    case 'starting':
      return new vscode.ThemeIcon('loading~spin');
    case 'idle':
      return new vscode.ThemeIcon('comment-discussion', new vscode.ThemeColor('charts.green'));
    case 'sign_in':
      return new vscode.ThemeIcon('account', new vscode.ThemeColor('list.warningForeground'));
    case 'error':
      return new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.errorForeground'));
    case 'exited':
      return new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground'));
    case 'stopped':
      return new vscode.ThemeIcon('comment');
  }
}

/**
 * Plain text, not markdown: a tree item's string tooltip is shown as text (line breaks kept), while markdown would
 * turn a bare web address in an agent's title into a link and load an image it names.
 */
function tooltip(info: ConversationInfo, shown: boolean, editorTools: EditorToolsStatus | undefined): string {
  const lines = [
    conversationLabel(info),
    `${STATUS_WORDS[info.status]}${info.agentName ? ` · ${visibleText(info.agentName)}` : ''}${shown ? ' · in the chat' : ''}`,
  ];
  if (editorTools) lines[1] += `\n${editorToolsLine(editorTools)}`;
  if (info.firstPrompt && info.firstPrompt !== info.title) lines.push(visibleText(info.firstPrompt, 'multiline'));
  return lines.join('\n\n');
}
