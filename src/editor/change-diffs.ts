/**
 * Diffs of captured changes in VS Code's diff editors: the "before" side is served from the content store by hash
 * (read-only virtual documents), the other side is the file as it is now. A whole turn opens in the multi-file diff
 * editor (`vscode.changes`). Proposed writes under review (before mode) are served here too.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FileChangeRecord } from '../changes/change-records';
import type { ContentStore } from '../changes/content-store';
import type { FileState } from '../changes/file-state';
import { pairRenames } from '../changes/change-view';
import { visibleText } from '../shared/visible-text';

export const CHANGE_SCHEME = 'acp-change';

export class ChangeDiffs implements vscode.TextDocumentContentProvider {
  private readonly proposals = new Map<string, string>();
  private nextProposal = 1;

  constructor(private readonly content: ContentStore) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const query = new URLSearchParams(uri.query);
    const proposal = query.get('proposal');
    if (proposal !== null) return this.proposals.get(proposal) ?? '';
    const hash = query.get('hash');
    const bytes = hash === null ? undefined : await this.content.get(hash);
    return bytes ? new TextDecoder('utf-8').decode(bytes) : '';
  }

  /** One file: before ↔ now. */
  async openFile(record: FileChangeRecord, renamedFrom?: FileChangeRecord): Promise<void> {
    const name = visibleText(path.basename(record.path));
    const before = this.stateUri(renamedFrom?.before ?? record.before, renamedFrom?.path ?? record.path);
    await vscode.commands.executeCommand('vscode.diff', before, this.nowUri(record), `${name} (agent's change)`);
  }

  /**
   * A whole turn (or a whole conversation's changes) in VS Code's multi-file diff editor, whose tab adds the count
   * to `title` itself ("Agent changes (5 files)"; with ours in the title too it read "5 files (5 files)").
   */
  async openAll(records: readonly FileChangeRecord[], title = 'Agent changes'): Promise<number> {
    // A rename is one entry, its new path against the old path's content, as the card shows it.
    const renames = pairRenames(records);
    const byPath = new Map(records.map((r) => [r.path, r]));
    const shown = records.filter((r) => !renames.folded.has(r.path));
    const resources = shown.map((r) => {
      const from = byPath.get(renames.from.get(r.path) ?? '');
      return [vscode.Uri.file(r.path), this.stateUri(from?.before ?? r.before, r.path), this.nowUri(r)];
    });
    await vscode.commands.executeCommand('vscode.changes', title, resources);
    return shown.length;
  }

  /** A proposed text (review before write), served until `withdraw`. */
  propose(absolutePath: string, text: string): { uri: vscode.Uri; withdraw(): void } {
    const id = String(this.nextProposal++);
    this.proposals.set(id, text);
    const uri = vscode.Uri.from({ scheme: CHANGE_SCHEME, path: `/proposed/${path.basename(absolutePath)}`, query: `proposal=${id}` });
    return { uri, withdraw: () => this.proposals.delete(id) };
  }

  emptyUri(absolutePath: string): vscode.Uri {
    return vscode.Uri.from({ scheme: CHANGE_SCHEME, path: `/none/${path.basename(absolutePath)}`, query: 'empty=1' });
  }

  private stateUri(state: FileState, absolutePath: string): vscode.Uri {
    if (state.kind !== 'file' || !state.stored) return this.emptyUri(absolutePath);
    return vscode.Uri.from({ scheme: CHANGE_SCHEME, path: `/before/${path.basename(absolutePath)}`, query: `hash=${state.hash}` });
  }

  private nowUri(record: FileChangeRecord): vscode.Uri {
    return record.after.kind === 'absent' ? this.emptyUri(record.path) : vscode.Uri.file(record.path);
  }
}
