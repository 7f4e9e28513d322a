/**
 * The list of stored sessions, one small file read once at startup so that the history list never opens a
 * transcript. Changes are held in memory and rewritten atomically, at most once per window.
 */
import * as path from 'node:path';
import { HISTORY_FORMAT_VERSION, INDEX_FORMAT, indexFileSchema, parseVersioned, type SessionSummary } from './format';
import { readFileIfExists, writeFileAtomic, writeFileAtomicSync } from './session-files';

const INDEX_FILE = 'index.json';

export class HistoryIndex {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<void> = Promise.resolve();
  private dirty = false;

  private constructor(
    private readonly file: string,
    private readonly summaries: Map<string, SessionSummary>,
    private readonly windowMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  static async open(root: string, windowMs: number, onError: (error: unknown) => void): Promise<HistoryIndex> {
    const file = path.join(root, INDEX_FILE);
    const text = await readFileIfExists(file);
    const sessions = text ? parseVersioned(file, JSON.parse(text.toString('utf8')), indexFileSchema).sessions : [];
    return new HistoryIndex(file, new Map(sessions.map((summary) => [summary.id, summary])), windowMs, onError);
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
    this.scheduleWrite();
  }

  delete(id: string): void {
    if (this.summaries.delete(id)) this.scheduleWrite();
  }

  /** Writes now (after any write in progress) and resolves when the file is on disk. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.dirty) {
      this.dirty = false;
      const text = this.text();
      this.writing = this.writing.then(() => writeFileAtomic(this.file, text)).catch(this.onError);
    }
    await this.writing;
  }

  flushSync(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.dirty) return;
    this.dirty = false;
    try {
      writeFileAtomicSync(this.file, this.text());
    } catch (error) {
      this.onError(error);
    }
  }

  private scheduleWrite(): void {
    this.dirty = true;
    this.timer ??= setTimeout(() => void this.flush(), this.windowMs);
  }

  private text(): string {
    return JSON.stringify({ format: INDEX_FORMAT, version: HISTORY_FORMAT_VERSION, sessions: this.list() });
  }
}
