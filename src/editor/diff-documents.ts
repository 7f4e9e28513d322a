/**
 * Opens a tool call's diff in VS Code's diff editor. The before/after texts live in the transcript, so they are
 * served from a read-only virtual document scheme rather than written anywhere.
 */
import * as vscode from 'vscode';
import type { TranscriptStore } from '../session/transcript-store';
import { toolCallEntry } from '../shared/selectors';
import { visibleText } from '../shared/visible-text';
import { agentFileToOpen } from './agent-file-opening';

export const DIFF_SCHEME = 'acp-diff';

export class DiffDocuments implements vscode.TextDocumentContentProvider {
  /** `storeOf`: the transcript of a loaded conversation, by its id (each diff names the conversation it is from). */
  constructor(private readonly storeOf: (conversationId: string) => TranscriptStore | undefined) {}

  provideTextDocumentContent(uri: vscode.Uri): string {
    const query = new URLSearchParams(uri.query);
    const file = this.findFile(
      query.get('conversation') ?? '',
      query.get('tool') ?? '',
      Number(query.get('content')),
      Number(query.get('file')),
    );
    if (!file) return '';
    return (query.get('side') === 'old' ? file.oldText : file.newText) ?? '';
  }

  async open(conversationId: string, toolCallId: string, contentIndex: number, fileIndex: number): Promise<void> {
    const file = this.findFile(conversationId, toolCallId, contentIndex, fileIndex);
    if (!file) {
      void vscode.window.showWarningMessage('That diff is no longer in the transcript.');
      return;
    }
    const name = visibleText(file.path.split(/[\\/]/).pop() ?? file.path);
    const side = (which: 'old' | 'new'): vscode.Uri =>
      vscode.Uri.from({
        scheme: DIFF_SCHEME,
        path: `/${which}/${name}`,
        query: new URLSearchParams({
          conversation: conversationId,
          tool: toolCallId,
          content: String(contentIndex),
          file: String(fileIndex),
          side: which,
        }).toString(),
      });
    // Without the new text (a v2 diff with only a patch), compare against the file as it is now: a path the agent
    // named, so opened as its links are (outside the workspace only once the user agrees; UNC or NUL never).
    const right = file.newText === undefined ? await agentFileToOpen(file.path) : side('new');
    if (!right) return;
    await vscode.commands.executeCommand('vscode.diff', side('old'), right, `${name} (agent's change)`);
  }

  private findFile(conversationId: string, toolCallId: string, contentIndex: number, fileIndex: number) {
    const store = this.storeOf(conversationId);
    const entry = store && toolCallEntry(store.state, toolCallId);
    if (!entry) return undefined;
    const content = entry.content[contentIndex];
    if (!content || content.type !== 'diff') return undefined;
    return content.files[fileIndex];
  }
}
