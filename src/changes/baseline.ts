/**
 * The workspace as it was when nothing was running: every file's last known content, so a change the agent makes
 * on disk directly has a "before". Seeded once by a walk of the workspace (off the update path), then kept current:
 * a turn's end makes its after-states the baseline, and changes outside turns (the user, git) are re-read.
 *
 * The walk may still be running when a turn starts. Two things keep that from losing or misreporting a change:
 * - a file the agent names (a tool call's locations or diff, announced before the tool runs) is read at once,
 *   ahead of the walk (`prime`), and a change seen on it waits for that read (`settled`);
 * - while a turn runs, a read (the walk's or a prime's) counts as "before" only if the file was last modified
 *   before the turn began; otherwise it may already be the agent's result, and the file's before is unknown
 *   rather than wrongly "unchanged" (which would hide the change) or "absent" (which would call it created).
 */
import { sep } from 'node:path';
import { ABSENT, UNKNOWN, type FileState } from './file-state';
import type { ChangeFiles, ReadNow } from './change-ports';
import type { ContentStore } from './content-store';
import { snapshotFile, stateOfRead } from './snapshot-read';

/** Reads in flight while seeding: enough to keep the disk busy, few enough not to starve the agent's own reads. */
const SEED_CONCURRENCY = 16;
/**
 * Reads in flight while a turn runs: as many as Node's file-system thread pool has threads (4). A read ahead of the
 * walk (`prime`) queues behind every walk read already in the pool, each several pool jobs (lstat, open, read,
 * close, stat): behind 16 of them, on a 2-core machine at half speed, a file announced 5 ms before the agent wrote it
 * was read after the write, and its before was unknown (`npm run bench`, changes: 19 of the 20 named known).
 */
const TURN_CONCURRENCY = 4;
/**
 * A named file up to this size is read on the event loop, at once, ahead of the agent's write: even the walk's reads
 * cut to 4 left the pool queue long enough, on a machine losing a third of its CPU to steal, for a write 5 ms after
 * the tool call to land first (`npm run bench`, changes: 16 of the 20 named known).
 */
const READ_NOW_BYTES = 256 * 1024;
/** Bytes read on the event loop before it turns: a tool call naming many files reads the rest the usual way. */
const READ_NOW_BYTES_PER_TURN_OF_LOOP = 1024 * 1024;
/**
 * File times come from a coarse kernel clock (a few ms behind): a file modified this close before a turn began
 * is treated as possibly modified in it.
 */
const MTIME_SLACK_MS = 100;

export class Baseline {
  private readonly states = new Map<string, FileState>();
  /** Read during a turn after it may have changed: its before is unknown, even once the walk is done. */
  private readonly doubtful = new Set<string>();
  /** Reads ahead of the walk in flight, by path. */
  private readonly priming = new Map<string, Promise<void>>();
  /**
   * Reads for the baseline in flight, by path: the number of the latest. Only the latest may record what it read,
   * and nothing set since it began is overwritten by it (a read from before a deletion, finishing after it, would
   * bring a deleted file back); a folder's deletion counts the files being read in it as known there.
   */
  private readonly readsInFlight = new Map<string, number>();
  private readsBegun = 0;
  /** Turns running now, with when each began. */
  private readonly turns = new Map<object, number>();
  /** When the latest turn began: a turn that begins and ends during one read still counts for it. */
  private latestBegan = -Infinity;
  private seeded = false;
  /**
   * Per path a turn's end has set: how often its state was recorded since, and whether the last time was a turn's
   * end (`mark`). Only those paths: the walk records every file of the workspace, and a path no turn's end has set
   * needs no entry (its mark is 0 until one does).
   */
  private readonly changes = new Map<string, { count: number; byTurnEnd: boolean }>();
  private seeding: Promise<void> | undefined;
  /** Bytes read on the event loop since it last turned (READ_NOW_BYTES_PER_TURN_OF_LOOP). */
  private readNowBytes = 0;
  /** Walk workers waiting for a read to end (or the turns to) while a turn limits the reads in flight. */
  private walkWaiting: (() => void)[] = [];

  constructor(
    private readonly files: ChangeFiles,
    private readonly store: ContentStore,
  ) {}

  get isSeeded(): boolean {
    return this.seeded;
  }

  get size(): number {
    return this.states.size;
  }

  seed(): Promise<void> {
    this.seeding ??= this.walk();
    return this.seeding;
  }

  /** A turn began: until `turnEnded`, reads are checked against the time it began. */
  turnBegan(turn: object, at: number = Date.now()): void {
    this.turns.set(turn, at);
    this.latestBegan = Math.max(this.latestBegan, at);
  }

  turnEnded(turn: object): void {
    this.turns.delete(turn);
    if (this.turns.size === 0) for (const resume of this.walkWaiting.splice(0)) resume();
  }

  /** The file's state before the change now seen; unknown when the walk has not reached it yet. */
  stateOf(absolutePath: string): FileState {
    const known = this.states.get(absolutePath);
    if (known) return known;
    return this.seeded && !this.doubtful.has(absolutePath) ? ABSENT : UNKNOWN;
  }

  /** `stateOf`, once a read ahead of the walk for this path (if any) is done. */
  async settled(absolutePath: string): Promise<FileState> {
    await this.priming.get(absolutePath);
    return this.stateOf(absolutePath);
  }

  /** The files it knows inside `folder`, at any depth (and the ones being read there). */
  knownUnder(folder: string): string[] {
    const prefix = folder.endsWith(sep) ? folder : folder + sep;
    const under = (path: string): boolean => path.startsWith(prefix);
    const reading = [...this.readsInFlight.keys()].filter((path) => under(path) && !this.states.has(path));
    return [...this.states.keys()].filter(under).concat(reading);
  }

  /** `byTurnEnd`: a turn's end makes its after-state the baseline (see `setByTurnEndSince`). */
  set(absolutePath: string, state: FileState, byTurnEnd = false): void {
    this.readsInFlight.delete(absolutePath);
    this.record(absolutePath, state, byTurnEnd);
  }

  /** A mark of the path's state now: `setByTurnEndSince` tells whether a turn's end has set it after. */
  mark(absolutePath: string): number {
    return this.changes.get(absolutePath)?.count ?? 0;
  }

  /** Whether the path's state was set since `mark`, and last by a turn's end. */
  setByTurnEndSince(absolutePath: string, mark: number): boolean {
    const changed = this.changes.get(absolutePath);
    return changed !== undefined && changed.count !== mark && changed.byTurnEnd;
  }

  private record(absolutePath: string, state: FileState, byTurnEnd = false): void {
    const changed = this.changes.get(absolutePath);
    if (byTurnEnd || changed) this.changes.set(absolutePath, { count: (changed?.count ?? 0) + 1, byTurnEnd });
    this.doubtful.delete(absolutePath);
    if (state.kind === 'absent') this.states.delete(absolutePath);
    else this.states.set(absolutePath, state);
  }

  /** Reads the file as it is now into the store and the baseline (a change nobody attributes to the agent). */
  async refresh(absolutePath: string): Promise<FileState> {
    const read = this.beginRead(absolutePath);
    let state: FileState | undefined;
    try {
      state = await snapshotFile(this.files, this.store, absolutePath);
      return state;
    } finally {
      this.endRead(absolutePath, read, state);
    }
  }

  /**
   * A read of the file for the baseline begins elsewhere (a late change's, see ChangeTracker): until `endRead`, the
   * file counts as known in its folder, and a newer read or `set` supersedes it.
   */
  beginRead(absolutePath: string): number {
    const number = ++this.readsBegun;
    this.readsInFlight.set(absolutePath, number);
    return number;
  }

  /** The read `number` is over: what it found (`state`) is recorded unless a newer read or `set` came meanwhile. */
  endRead(absolutePath: string, number: number, state?: FileState): void {
    if (this.readsInFlight.get(absolutePath) !== number) return;
    this.readsInFlight.delete(absolutePath);
    if (state) this.record(absolutePath, state);
  }

  /** A file the agent is about to work on, read ahead of the walk (nothing when its state is known already). */
  prime(absolutePath: string): Promise<void> {
    if (this.seeded || this.states.has(absolutePath) || this.doubtful.has(absolutePath)) return Promise.resolve();
    const pending = this.priming.get(absolutePath);
    if (pending) return pending;
    const reading = this.readBefore(absolutePath, this.readNow(absolutePath)).finally(() => this.priming.delete(absolutePath));
    this.priming.set(absolutePath, reading);
    return reading;
  }

  /** A small named file read at once, while this turn of the event loop has bytes left for it. */
  private readNow(absolutePath: string): ReadNow | undefined {
    const room = Math.min(READ_NOW_BYTES, this.store.maxFileBytes, READ_NOW_BYTES_PER_TURN_OF_LOOP - this.readNowBytes);
    if (room <= 0) return undefined;
    const now = this.files.readSmallNow(absolutePath, room);
    const size = now?.read instanceof Uint8Array ? now.read.length : 0;
    if (size > 0 && this.readNowBytes === 0) setImmediate(() => (this.readNowBytes = 0));
    this.readNowBytes += size;
    return now;
  }

  /** Content known from elsewhere (an open editor, a read through us): the baseline, unless one is known already. */
  learn(absolutePath: string, content: Promise<FileState>): Promise<void> {
    const learning = content.then((state) => {
      if (this.stateOf(absolutePath).kind !== 'file') this.set(absolutePath, state);
    });
    this.priming.set(absolutePath, learning);
    return learning.finally(() => this.priming.get(absolutePath) === learning && this.priming.delete(absolutePath));
  }

  /**
   * Reads a file for the baseline, unless something newer has told us its state meanwhile; `now`: read already, on
   * the event loop (with its modification time right after).
   */
  private async readBefore(target: string, now?: ReadNow): Promise<void> {
    const startedAt = Date.now();
    const turnsBefore = this.earliestTurn();
    const read = now ? now.read : await this.files.read(target, this.store.maxFileBytes).catch(() => undefined);
    if (read === undefined || this.states.has(target)) return;
    const beganDuring = this.latestBegan >= startedAt ? this.latestBegan : Infinity;
    const since = Math.min(turnsBefore ?? Infinity, this.earliestTurn() ?? Infinity, beganDuring);
    if (since !== Infinity) {
      // Right after the read: if the file was not modified since the turn began, neither was what we read.
      const modified = now ? now.modifiedAfter : await this.files.modifiedAt(target);
      if (modified === undefined || modified >= since - MTIME_SLACK_MS) {
        if (!this.states.has(target)) this.doubtful.add(target);
        return;
      }
    }
    const state = await stateOfRead(this.store, read);
    if (!this.states.has(target)) this.states.set(target, state);
  }

  private earliestTurn(): number | undefined {
    let earliest: number | undefined;
    for (const at of this.turns.values()) earliest = earliest === undefined ? at : Math.min(earliest, at);
    return earliest;
  }

  private async walk(): Promise<void> {
    const paths = [...(await this.files.list())];
    let next = 0;
    let reading = 0;
    const wakeOne = (): void => this.walkWaiting.shift()?.();
    const worker = async (): Promise<void> => {
      while (next < paths.length) {
        if (this.turns.size > 0 && reading >= TURN_CONCURRENCY) {
          await new Promise<void>((resume) => this.walkWaiting.push(resume));
          continue;
        }
        const target = paths[next++]!;
        // Something already told us this file's state (a read, an edit): that is newer than the walk.
        if (this.states.has(target) || this.doubtful.has(target)) continue;
        // A file the agent named is about to change: its read goes first, or it queues behind the walk's reads in
        // the file-system thread pool and reads the agent's result (its before then unknown).
        while (this.priming.size > 0) await Promise.all(this.priming.values());
        reading++;
        try {
          await this.readBefore(target);
        } finally {
          reading--;
          wakeOne();
        }
      }
      // A worker waiting for a slot finds the walk over too, and wakes the next.
      wakeOne();
    };
    await Promise.all(Array.from({ length: SEED_CONCURRENCY }, worker));
    this.seeded = true;
  }
}
