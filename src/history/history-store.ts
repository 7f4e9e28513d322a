/**
 * Crash-safe local history of chat sessions: the one entry point. Editor-free (plain `node:fs`), so the session
 * layer owns it and tests run it in plain Node.
 *
 *   const history = await HistoryStore.open(storageDir);
 *   const { id, recorder } = await history.create({ agentName });
 *   store.subscribe((action, state) => recorder.record(action, state));
 *   ...
 *   const loaded = await history.load(id);          // snapshot + tail
 *   const recorder = await history.resume(id, loaded);
 *   await history.flush();   // shutdown, tests
 *   history.flushSync();     // deactivate
 */
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import type { SessionSummary } from './format';
import { HistoryIndex } from './history-index';
import { removeStaleTemporaries, sessionDir, sessionsDir } from './session-files';
import { loadSession, type LoadedSession } from './session-loader';
import { SessionRecorder, type RecorderLimits } from './session-recorder';
import { summaryFromState } from './summary-from-state';
import { LastActivity } from '../shared/last-activity';
import { initialState } from '../shared/reducer';

export interface HistoryOptions extends Partial<RecorderLimits> {
  /** Oldest sessions (by last update) are deleted beyond this count. */
  readonly maxSessions?: number;
  /** How often the index may be rewritten while sessions stream. */
  readonly indexWindowMs?: number;
  readonly onError?: (error: unknown) => void;
  readonly now?: () => number;
}

const HISTORY_DEFAULTS = {
  maxSessions: 200,
  maxSessionBytes: 8 * 1024 * 1024,
  // Bounds the tail a load replays (the reducer is the cost there) against how often a snapshot is written.
  compactAfterBytes: 512 * 1024,
  flushWindowMs: 50,
  indexWindowMs: 500,
} as const;

export class HistoryStore {
  private readonly recorders = new Map<string, SessionRecorder>();

  private constructor(
    private readonly root: string,
    private readonly index: HistoryIndex,
    private readonly limits: RecorderLimits,
    private readonly maxSessions: number,
    private readonly onError: (error: unknown) => void,
    private readonly now: () => number,
  ) {}

  /** Reads only the index. Refuses (HistoryVersionError) an index written by a newer format. */
  static async open(root: string, options: HistoryOptions = {}): Promise<HistoryStore> {
    const onError = options.onError ?? (() => undefined);
    await fs.mkdir(sessionsDir(root), { recursive: true });
    const index = await HistoryIndex.open(root, options.indexWindowMs ?? HISTORY_DEFAULTS.indexWindowMs, onError);
    const limits: RecorderLimits = {
      flushWindowMs: options.flushWindowMs ?? HISTORY_DEFAULTS.flushWindowMs,
      compactAfterBytes: options.compactAfterBytes ?? HISTORY_DEFAULTS.compactAfterBytes,
      maxSessionBytes: options.maxSessionBytes ?? HISTORY_DEFAULTS.maxSessionBytes,
    };
    return new HistoryStore(root, index, limits, options.maxSessions ?? HISTORY_DEFAULTS.maxSessions, onError, options.now ?? Date.now);
  }

  /** Stored sessions, most recently updated first. */
  list(): SessionSummary[] {
    return this.index.list();
  }

  get(id: string): SessionSummary | undefined {
    return this.index.get(id);
  }

  /** A new stored session, in the index on disk before this resolves; the oldest go beyond `maxSessions`. */
  async create(meta: { readonly agentName: string }): Promise<{ id: string; recorder: SessionRecorder }> {
    const id = randomUUID();
    await fs.mkdir(sessionDir(this.root, id), { recursive: true });
    const at = this.now();
    this.index.set({ id, agentName: meta.agentName, createdAt: at, updatedAt: at, status: 'idle' });
    const evicted = this.evictBeyondLimit(id);
    // The index stops naming them before their files go, so a crash in between leaves no dangling entry.
    await this.index.flush();
    for (const old of evicted) await fs.rm(sessionDir(this.root, old), { recursive: true, force: true });
    const recorder = this.startRecorder(id, { seq: 0, generation: 0, olderGenerations: [], droppedEntries: 0, state: initialState() });
    return { id, recorder };
  }

  /** Snapshot + tail. A newer format is refused (HistoryVersionError); a torn last record is dropped. */
  async load(id: string): Promise<LoadedSession> {
    await this.recorders.get(id)?.flush();
    return loadSession(sessionDir(this.root, id));
  }

  /** Continues recording a loaded session; the caller's store must start from `loaded.state`. */
  async resume(id: string, loaded: LoadedSession): Promise<SessionRecorder> {
    await this.recorders.get(id)?.close();
    await removeStaleTemporaries(sessionDir(this.root, id));
    const generation = (loaded.generations.at(-1) ?? -1) + 1;
    return this.startRecorder(id, {
      seq: loaded.seq,
      generation,
      olderGenerations: loaded.generations,
      droppedEntries: loaded.droppedEntries,
      state: loaded.state,
    });
  }

  setDraft(id: string, draft: string): void {
    const summary = this.index.get(id);
    if (!summary || summary.draft === draft) return;
    const { draft: _previous, ...rest } = summary;
    this.index.set(draft ? { ...rest, draft } : rest);
  }

  /** The session stops recording; its status says it was closed, not interrupted. */
  async close(id: string): Promise<void> {
    const recorder = this.recorders.get(id);
    this.recorders.delete(id);
    await recorder?.close();
    const summary = this.index.get(id);
    if (summary) this.index.set({ ...summary, status: 'closed' });
  }

  async remove(id: string): Promise<void> {
    const recorder = this.recorders.get(id);
    this.recorders.delete(id);
    await recorder?.close();
    this.index.delete(id);
    await this.index.flush();
    await fs.rm(sessionDir(this.root, id), { recursive: true, force: true });
  }

  async flush(): Promise<void> {
    await Promise.all([...this.recorders.values()].map((recorder) => recorder.flush()));
    await this.index.flush();
  }

  /** Best effort, for deactivate: synchronous, so it completes before the host goes. */
  flushSync(): void {
    for (const recorder of this.recorders.values()) recorder.flushSync();
    this.index.flushSync();
  }

  private startRecorder(id: string, start: ConstructorParameters<typeof SessionRecorder>[1]): SessionRecorder {
    // The index ages a conversation by its own activity, never by when it was last written (see LastActivity).
    const activity = new LastActivity(this.index.get(id)?.updatedAt ?? this.now(), start.state.agentUpdatedAt);
    const recorder = new SessionRecorder(sessionDir(this.root, id), start, this.limits, {
      recorded: (action, state) => activity.apply(action, state, this.now()),
      written: (state) => {
        const summary = this.index.get(id);
        if (summary) this.index.set(summaryFromState(summary, state, activity.at));
      },
      error: this.onError,
    });
    this.recorders.set(id, recorder);
    return recorder;
  }

  /** Oldest first, never `keep` (the session being created) nor one recording right now. */
  private evictBeyondLimit(keep: string): string[] {
    const candidates = this.index
      .list()
      .reverse()
      .filter((summary) => summary.id !== keep && !this.recorders.has(summary.id));
    const evicted = candidates.slice(0, Math.max(0, this.index.size - this.maxSessions)).map((summary) => summary.id);
    for (const id of evicted) this.index.delete(id);
    return evicted;
  }
}
