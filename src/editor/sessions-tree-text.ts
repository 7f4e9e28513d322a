/**
 * What the Sessions view writes for one conversation: its label, its description (agent, changed files, age) and
 * its day group. Pure (no vscode), so what the user reads is unit-tested apart from the tree.
 */
import type { ConversationInfo } from '../conversations/conversations';
import type { EditorToolsStatus } from '../editor-tools/editor-tools-offer';
import { dayGroup, shortAge } from '../shared/relative-time';
import { visibleText } from '../shared/visible-text';

const TITLE_CHARS = 80;

/** The agent's (or user's) title, else the first prompt, else a placeholder; one line, bounded. */
export function conversationLabel(info: ConversationInfo): string {
  const text = (info.title ?? info.firstPrompt ?? 'New conversation').replace(/\s+/g, ' ').trim();
  const line = visibleText(text || 'New conversation');
  return line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 1)}…` : line;
}

/** "Agent · 2 files changed · 3 h": the age is of the last activity (the agent's reported time when it gave one). */
export function conversationDescription(info: ConversationInfo, changedFiles: number, now: number): string {
  return [
    info.agentName ? visibleText(info.agentName) : undefined,
    changedFiles > 0 ? `${changedFiles} file${changedFiles === 1 ? '' : 's'} changed` : undefined,
    shortAge(info.updatedAt, now),
  ]
    .filter((part) => part !== undefined)
    .join(' · ');
}

/** The day heading a conversation is listed under, by its last activity. */
export function conversationDay(info: ConversationInfo, now: number): string {
  return dayGroup(info.updatedAt, now);
}

/** The tooltip's line on the editor's own MCP server: whether this conversation's agent got it, and why not. */
export function editorToolsLine(status: EditorToolsStatus): string {
  return status.given ? `Editor tools: given ${status.how}` : `Editor tools: not given (${visibleText(status.reason)})`;
}
