/**
 * Which files changed, and when, for "the files changed in this turn" and "what is new since the edit": every
 * change to a file (typed in an editor, written by an agent through us, or on disk) is noted with the file's
 * diagnostics just before it. A burst of changes counts as one; memory is bounded by MAX_FILES and MAX_SNAPSHOTS.
 */
import * as vscode from 'vscode';
import type { ChangedFile, Problem } from '../editor-tools/ports';

const MAX_FILES = 2_000;
const MAX_SNAPSHOTS = 8;
const BURST_MS = 2_000;

interface Snapshot {
  readonly at: number;
  readonly before: readonly Problem[];
}

export class ChangeHistory implements vscode.Disposable {
  private readonly files = new Map<string, Snapshot[]>();
  private readonly last = new Map<string, number>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly problemsOf: (path: string) => readonly Problem[]) {
    const watcher = vscode.workspace.createFileSystemWatcher('**/*');
    const onFile = (uri: vscode.Uri): void => this.changed(uri);
    this.subscriptions = [
      watcher,
      watcher.onDidChange(onFile),
      watcher.onDidCreate(onFile),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.contentChanges.length > 0) this.changed(event.document.uri);
      }),
    ];
  }

  since(since: number): ChangedFile[] {
    const changed: ChangedFile[] = [];
    for (const [path, snapshots] of this.files) {
      const first = snapshots.find((snapshot) => snapshot.at >= since);
      if (first) changed.push({ path, problemsBefore: first.before });
    }
    return changed;
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
  }

  private changed(uri: vscode.Uri): void {
    if (uri.scheme !== 'file') return;
    const path = uri.fsPath;
    const now = Date.now();
    const previous = this.last.get(path);
    this.last.set(path, now);
    if (previous !== undefined && now - previous < BURST_MS) return;
    const snapshots = this.files.get(path) ?? [];
    // Re-inserted: the map's order is least recently changed first, which is what is dropped.
    this.files.delete(path);
    snapshots.push({ at: now, before: this.problemsOf(path) });
    this.files.set(path, snapshots.slice(-MAX_SNAPSHOTS));
    if (this.files.size > MAX_FILES) {
      const oldest = this.files.keys().next().value;
      if (oldest !== undefined) {
        this.files.delete(oldest);
        this.last.delete(oldest);
      }
    }
  }
}
