/**
 * The files one running turn has touched, each with its state before the turn's first change to it. Events are
 * handled one after another on a private queue, never on the update path: the turn streams at full speed while
 * the disk is read here.
 */
import type { Baseline } from './baseline';
import type { Attribution } from './concurrent-turns';
import type { ChangeFiles } from './change-ports';
import type { FileChangeRecord } from './change-records';
import type { ContentStore } from './content-store';
import { sameState, UNKNOWN, type FileState } from './file-state';
import { dirname } from 'node:path';
import { snapshotFile } from './snapshot-read';

/** Reads in flight when a turn ends. */
const FINISH_CONCURRENCY = 8;

interface Touched {
  readonly before: FileState;
  readonly origin: 'client' | 'disk';
  /** Other conversations capturing a turn when the change was seen (their agents may have made it). */
  readonly alongside: readonly string[];
}

/**
 * Filesystem timestamps and Date.now() disagree by a little: Linux stamps files from a clock that lags by up to a
 * tick (1–10 ms): a file written just after a turn began has been seen stamped 3 ms before it. Not more: at
 * 100 ms, a file the user made before a 74 ms turn (a real agent against a mock model), whose watcher event came
 * late, showed as a change of the turn after it.
 */
const CLOCK_SLACK_MS = 20;

/** The turns of other conversations on the same workspace (see concurrent-turns.ts). */
export interface CapturePeers {
  othersCapturing(): readonly string[];
  attribute(path: string, alongside: readonly string[]): Attribution;
}

const ALONE: CapturePeers = { othersCapturing: () => [], attribute: () => 'own' };

export class TurnCapture {
  private readonly touched = new Map<string, Touched>();
  /** Paths the agent wrote or read through us in this turn: certainly its own business. */
  private readonly named = new Set<string>();
  private queue: Promise<void> = Promise.resolve();
  private readonly startedAt = Date.now();
  /** When the turn's capture closed (its card's files read): later changes are not the turn's. */
  private endedAt: number | undefined;

  constructor(
    readonly turnId: string,
    private readonly files: ChangeFiles,
    private readonly store: ContentStore,
    private readonly baseline: Baseline,
    private readonly onError: (error: unknown) => void,
    private readonly peers: CapturePeers = ALONE,
  ) {}

  /** The agent read this path through us during the turn. */
  noteRead(path: string): void {
    this.named.add(path);
  }

  names(path: string): boolean {
    return this.named.has(path);
  }

  /** Runs `step` after every earlier event; a failing step is logged and never stops the ones after it. */
  enqueue(step: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(step).catch(this.onError);
    return this.queue;
  }

  has(path: string): boolean {
    return this.touched.has(path);
  }

  /** Our own fs/write_text_file of `content`: the "before" is what is on disk right before it lands (see beforeOfWrite). */
  async beforeClientWrite(path: string, content?: string): Promise<void> {
    this.named.add(path);
    if (this.touched.has(path)) return;
    // Claimed first: the watcher's event for this very write must not claim it as the agent's disk change.
    this.touched.set(path, { before: this.baseline.stateOf(path), origin: 'client', alongside: [] });
    const now = await snapshotFile(this.files, this.store, path);
    this.touched.set(path, { before: await this.beforeOfWrite(path, now, content), origin: 'client', alongside: [] });
  }

  /**
   * The disk right before our write, unless it already holds the very content being written: then the agent wrote it
   * on disk itself a moment before asking us to (OpenCode 1.18 with edit "ask" does), its watcher event is not handled
   * yet, and the file as the turn found it (the baseline) is the before, or the turn would show no change at all.
   */
  private async beforeOfWrite(path: string, now: FileState, content: string | undefined): Promise<FileState> {
    if (content === undefined || now.kind !== 'file' || !now.stored) return now;
    const bytes = await this.store.get(now.hash);
    if (!bytes || new TextDecoder('utf-8').decode(bytes) !== content) return now;
    const found = await this.beforeOf(path);
    return found.kind === 'unknown' ? now : found;
  }

  /** The watcher saw a change on disk: the agent's, unless it left the file as the baseline has it. */
  diskChanged(path: string): void {
    if (this.touched.has(path)) return;
    // Who else was working is read when the change is seen, not when the queue reaches it.
    const alongside = this.peers.othersCapturing();
    const beforeNow = this.beforeAsSeen(path);
    void this.enqueue(async () => {
      if (this.touched.has(path)) return;
      // Read in turn, not when the event came: a user's save queued before it has updated the baseline by now.
      const before = await beforeNow();
      // The content this change replaced is the one to keep longest.
      if (before.kind === 'file') this.store.touch(before.hash);
      const current = await snapshotFile(this.files, this.store, path);
      if (sameState(current, before)) return;
      if (await this.changedBeforeTurn(path)) {
        // A change from before this turn whose event came late (a file made between turns, on a loaded machine):
        // not the agent's. The baseline learns the file as it is.
        this.baseline.set(path, current);
        return;
      }
      this.touched.set(path, { before, origin: 'disk', alongside });
    });
  }

  /**
   * The turn is ending and its tool calls named this path: a change to it counts even if the watcher's event never
   * came in time (under load VS Code's watcher reports a write after the turn has settled, and the change was lost).
   * A file last changed before the turn is not read at all: most named files were only read.
   */
  namedAtEnd(path: string): void {
    if (this.touched.has(path)) return;
    const alongside = this.peers.othersCapturing();
    const beforeNow = this.beforeAsSeen(path);
    void this.enqueue(async () => {
      if (this.touched.has(path) || (await this.changedBeforeTurn(path))) return;
      const before = await beforeNow();
      if (before.kind === 'file') this.store.touch(before.hash);
      // Missing now (never written, or deleted by the agent) or changed during the turn: compared with the baseline.
      if (sameState(await snapshotFile(this.files, this.store, path), before)) return;
      this.touched.set(path, { before, origin: 'disk', alongside });
    });
  }

  /**
   * The change's before, read when its turn in the queue comes (`beforeOf`), unless another conversation's turn has
   * ended since the change was seen and made its after-state the baseline: that is the disk as it is now, the change
   * itself, and compared with it the change vanished from this card while the other card left it to this one (lost
   * from both; CI caught it once, this queue behind a slow read). Then the baseline as it was when the change was seen.
   */
  private beforeAsSeen(path: string): () => Promise<FileState> {
    const asSeen = this.baseline.stateOf(path);
    const mark = this.baseline.mark(path);
    return async () => {
      const before = await this.beforeOf(path);
      return asSeen.kind !== 'unknown' && this.baseline.setByTurnEndSince(path, mark) ? asSeen : before;
    };
  }

  /**
   * The file's state before the turn. The baseline calls a file it never heard of absent; but the user may have made
   * it a moment before the turn, its watcher event still on the way (seconds on a loaded machine). A file born before
   * the turn began and written during it was there before the agent: its before is unknown, so Undo leaves it rather
   * than deleting it. Born before but not written since: the agent moved it here (a rename keeps both times), and it
   * is new at this path. (A writer that replaces a file by a rename gives it a new birth: that case stays "created".)
   */
  private async beforeOf(path: string): Promise<FileState> {
    const before = await this.baseline.settled(path);
    if (before.kind !== 'absent') return before;
    const born = await this.files.bornAt(path);
    if (born === undefined || born >= this.startedAt - CLOCK_SLACK_MS) return before;
    const modified = await this.files.modifiedAt(path);
    return modified !== undefined && modified >= this.startedAt - CLOCK_SLACK_MS ? UNKNOWN : before;
  }

  /**
   * The turn is ending: the folders it changed files in are looked through for more changes of the turn that no
   * watcher event reported (VS Code's watcher drops some under load; a file written last before the turn ended was
   * never reported at all). A file there is checked as a named one is: only one changed during the turn counts.
   * A missing file is not looked for: when it went cannot be told (the user may have deleted it before the turn,
   * its event still on the way), and calling that the agent's deletion would be wrong. Folders the turn never
   * touched are not read: an end-of-turn cost of a few listings.
   */
  async sweepTouchedFolders(): Promise<void> {
    await this.queue;
    const folders = new Set([...this.touched.keys()].map((path) => dirname(path)));
    for (const folder of folders)
      for (const path of await this.files.filesDirectlyIn(folder)) if (!this.touched.has(path)) this.namedAtEnd(path);
  }

  /** The file last changed before this turn began (its ctime, which no tool sets back), with a little slack. */
  private async changedBeforeTurn(path: string): Promise<boolean> {
    const changed = await this.files.statusChangedAt(path);
    return changed !== undefined && changed < this.startedAt - CLOCK_SLACK_MS;
  }

  /** Whether a watcher event now may still be one of this turn's changes, reported late (see lateChange). */
  awaitsLate(windowMs: number): boolean {
    return this.endedAt !== undefined && Date.now() - this.endedAt <= windowMs;
  }

  /**
   * A watcher event after the turn's card was out: on a loaded machine VS Code reports a write seconds late, and the
   * change was lost (the baseline silently took it). It is the turn's if the file changed while the turn ran (its
   * ctime; for a deletion its folder's) and nobody else's turn named it; answers the record to add to the card.
   */
  lateChange(path: string): Promise<FileChangeRecord | undefined> {
    const alongside = this.peers.othersCapturing();
    let found: FileChangeRecord | undefined;
    return this.enqueue(async () => {
      const ended = this.endedAt;
      if (ended === undefined || this.touched.has(path)) return;
      const before = await this.beforeOf(path);
      const current = await snapshotFile(this.files, this.store, path);
      if (sameState(current, before)) return;
      const changed = await this.files.statusChangedAt(current.kind === 'absent' ? dirname(path) : path);
      if (changed !== undefined && (changed < this.startedAt - CLOCK_SLACK_MS || changed > ended + CLOCK_SLACK_MS)) return;
      const attribution = this.peers.attribute(path, alongside);
      if (attribution === 'others') return;
      this.touched.set(path, { before, origin: 'disk', alongside });
      found = { path, before, after: current, origin: 'disk', review: 'pending', ...(attribution === 'shared' ? { shared: true } : {}) };
    }).then(() => found);
  }

  /** The turn is over: every touched file's state now, without the ones that ended as they began. */
  async finish(): Promise<FileChangeRecord[]> {
    await this.queue;
    this.endedAt = Date.now();
    const touched = [...this.touched];
    const afters = new Array<FileState>(touched.length);
    // A few reads in flight: a 1,000-file turn is read in a fraction of the time, without flooding the disk.
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < touched.length) {
        const index = next++;
        afters[index] = await snapshotFile(this.files, this.store, touched[index]![0]);
      }
    };
    await Promise.all(Array.from({ length: FINISH_CONCURRENCY }, worker));
    const records: FileChangeRecord[] = [];
    touched.forEach(([path, { before, origin, alongside }], index) => {
      const after = afters[index]!;
      this.baseline.set(path, after, true);
      if (sameState(before, after)) return;
      // Our own writes are this agent's for certain; a change seen on disk may be another conversation's agent's.
      const attribution = origin === 'client' ? 'own' : this.peers.attribute(path, alongside);
      if (attribution === 'others') return;
      records.push({ path, before, after, origin, review: 'pending', ...(attribution === 'shared' ? { shared: true } : {}) });
    });
    return records;
  }
}
