/**
 * The list of stored sessions, one small file read once at startup so that the history list never opens a
 * transcript. Changes are held in memory and written at most once per window. Two windows on one workspace share
 * the file, so a write never replaces it with this window's copy: under a lock, it re-reads the file, applies only
 * what this window changed (set or deleted) since its last write, and renames the merge into place; the merge
 * then becomes this window's list, so it also shows the other window's conversations.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { HISTORY_FORMAT_VERSION, INDEX_FORMAT, indexFileSchema, parseVersioned, type SessionSummary } from './format';
import { withIndexLock, withIndexLockSync } from './index-lock';
import { readFileIfExists, writeFileAtomic, writeFileAtomicSync } from './session-files';

const INDEX_FILE = 'index.json';

/** What this window changed since its last write: ids set (their summary is the one in memory) and ids deleted. */
interface Changes {
  readonly set: Set<string>;
  readonly deleted: Set<string>;
}

export class HistoryIndex {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<void> = Promise.resolve();
  private changes: Changes = { set: new Set(), deleted: new Set() };

  private constructor(
    private readonly file: string,
    private readonly summaries: Map<string, SessionSummary>,
    private readonly windowMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  static async open(root: string, windowMs: number, onError: (error: unknown) => void): Promise<HistoryIndex> {
    const file = path.join(root, INDEX_FILE);
    const text = await readFileIfExists(file);
    return new HistoryIndex(file, parseIndex(file, text), windowMs, onError);
  }

  /** Newest first. */
  list(): SessionSummary[] {
    return [...this.summaries.values()].sort((a, b) => b.updatedAt - a.updatedAt);
  }

  get(id: string): SessionSummary | undefined {
    return this.summaries.get(id);
  }

  get size(): number {
    return this.summaries.size;
  }

  set(summary: SessionSummary): void {
    this.summaries.set(summary.id, summary);
    this.changes.set.add(summary.id);
    this.changes.deleted.delete(summary.id);
    this.scheduleWrite();
  }

  delete(id: string): void {
    if (!this.summaries.delete(id)) return;
    this.changes.deleted.add(id);
    this.changes.set.delete(id);
    this.scheduleWrite();
  }

  /** Writes now (after any write in progress) and resolves when the file is on disk. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    // The changes are taken inside the lock, when the write starts: a change still queued stays in `changes`,
    // where adopting an earlier merge cannot drop it.
    this.writing = this.writing.then(() => this.writeMerged());
    await this.writing;
  }

  flushSync(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.pending()) return;
    try {
      withIndexLockSync(this.file, () => {
        const changes = this.takeChanges();
        try {
          const merged = this.merge(parseIndex(this.file, readIfExistsSync(this.file)), changes);
          writeFileAtomicSync(this.file, textOf(merged));
          this.adopt(merged);
        } catch (error) {
          this.restore(changes);
          throw error;
        }
      });
    } catch (error) {
      this.onError(error);
    }
  }

  private async writeMerged(): Promise<void> {
    if (!this.pending()) return;
    try {
      await withIndexLock(this.file, async () => {
        const changes = this.takeChanges();
        try {
          const merged = this.merge(parseIndex(this.file, await readFileIfExists(this.file)), changes);
          await writeFileAtomic(this.file, textOf(merged));
          this.adopt(merged);
        } catch (error) {
          this.restore(changes);
          throw error;
        }
      });
    } catch (error) {
      this.onError(error);
    }
  }

  private pending(): boolean {
    return this.changes.set.size > 0 || this.changes.deleted.size > 0;
  }

  private takeChanges(): Changes {
    const taken = this.changes;
    this.changes = { set: new Set(), deleted: new Set() };
    return taken;
  }

  /** A write that failed: its changes are pending again (unless changed since), so the next write carries them. */
  private restore(changes: Changes): void {
    for (const id of changes.set) if (!this.changes.deleted.has(id)) this.changes.set.add(id);
    for (const id of changes.deleted) if (!this.changes.set.has(id)) this.changes.deleted.add(id);
  }

  /** The file as the other window left it, with this window's changes on top (a newer summary there wins). */
  private merge(onDisk: Map<string, SessionSummary>, changes: Changes): Map<string, SessionSummary> {
    for (const id of changes.deleted) onDisk.delete(id);
    for (const id of changes.set) {
      const ours = this.summaries.get(id);
      const theirs = onDisk.get(id);
      if (ours && (!theirs || theirs.updatedAt <= ours.updatedAt)) onDisk.set(id, ours);
    }
    return onDisk;
  }

  /** The merge becomes this window's list, except what changed here while it was written (pending still). */
  private adopt(merged: Map<string, SessionSummary>): void {
    for (const id of [...this.summaries.keys()]) if (!merged.has(id) && !this.changes.set.has(id)) this.summaries.delete(id);
    for (const [id, summary] of merged) if (!this.changes.set.has(id) && !this.changes.deleted.has(id)) this.summaries.set(id, summary);
  }

  private scheduleWrite(): void {
    this.timer ??= setTimeout(() => void this.flush(), this.windowMs);
  }
}

function parseIndex(file: string, text: Buffer | undefined): Map<string, SessionSummary> {
  const sessions = text ? parseVersioned(file, JSON.parse(text.toString('utf8')), indexFileSchema).sessions : [];
  return new Map(sessions.map((summary) => [summary.id, summary]));
}

function textOf(summaries: Map<string, SessionSummary>): string {
  const sessions = [...summaries.values()].sort((a, b) => b.updatedAt - a.updatedAt);
  return JSON.stringify({ format: INDEX_FORMAT, version: HISTORY_FORMAT_VERSION, sessions });
}

function readIfExistsSync(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return undefined;
    throw error;
  }
}
