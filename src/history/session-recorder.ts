/**
 * Records one session as it happens: each action the transcript store applies is queued, streaming chunks are
 * merged while they wait, and once per window the batch is appended to the current log generation in one write.
 * When a generation grows past `compactAfterBytes` and past the last snapshot's size, the latest state becomes a
 * snapshot and the covered logs go.
 * Nothing here blocks the caller: `record` only queues; disk work is asynchronous and in order.
 */
import { appendFileSync, promises as fs } from 'node:fs';
import type { TranscriptAction } from '../shared/actions';
import { ChunkRun } from '../shared/coalesce';
import type { TranscriptState } from '../shared/model';
import { HISTORY_FORMAT_VERSION, LOG_FORMAT, type ActionRecord, type LogHeader } from './format';
import { frameRecord } from './record-framing';
import { logFile } from './session-files';
import { snapshotText, writeSnapshot } from './snapshot-writer';
import { WriteQueue } from './write-queue';

export interface RecorderLimits {
  /** How long actions wait to be written together; a crash loses at most this window. */
  readonly flushWindowMs: number;
  readonly compactAfterBytes: number;
  /** The snapshot's size cap; the oldest entries are dropped beyond it. */
  readonly maxSessionBytes: number;
}

/**
 * A turn's end compacts the log once it holds this share of the last snapshot's length (and TURN_END_MIN_BYTES): a
 * reload between turns then replays a short tail, not up to a snapshot's length of actions (issue 31: the
 * 10,000-entry session's 1,900-action tail took 170 ms of a freshly started host's 180 ms load, its snapshot 13 ms).
 * Serializing at most eight times what was recorded since, once per turn, is cheap beside that, and off the open.
 */
const TURN_END_SNAPSHOT_SHARE = 8;
const TURN_END_MIN_BYTES = 64 * 1024;

export interface RecorderStart {
  /** Where the stored session ends: the writer continues after `seq`, in a generation no file has used. */
  readonly seq: number;
  readonly generation: number;
  /** Older generations on disk that the first compaction covers. */
  readonly olderGenerations: readonly number[];
  readonly droppedEntries: number;
  readonly state: TranscriptState;
}

export interface RecorderEvents {
  /** An action was queued, with the state it produced (the index folds the conversation's activity from these). */
  readonly recorded: (action: TranscriptAction, state: TranscriptState) => void;
  /** A batch was handed to the disk queue; `state` is the latest state (for the session index). */
  readonly written: (state: TranscriptState) => void;
  readonly error: (error: unknown) => void;
}

export class SessionRecorder {
  private seq: number;
  private generation: number;
  private headerQueued = false;
  /** The current generation's header is on disk (so the shutdown flush must not write another). */
  private headerWritten = false;
  private generationBytes = 0;
  /**
   * The last snapshot's length. A generation compacts only once it is at least this long, so the snapshots' total
   * work stays proportional to what was recorded: compacting every `compactAfterBytes` re-serialized a 4 MB message
   * every 512 KB of its chunks (tasks of 70-110 ms each, seconds in all, in the extension host's CPU profile under
   * a 20 MB message, test/integration/host-floods.test.ts).
   */
  private lastSnapshotChars = 0;
  private uncompacted: number[];
  /** Dropped before this recorder started; each compaction trims the live state afresh on top of these. */
  private readonly droppedBefore: number;
  private latest: TranscriptState;
  private pending: ActionRecord[] = [];
  /** The chunks merged into the last pending record, joined when it is written. */
  private readonly run = new ChunkRun();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly queue: WriteQueue;
  private closed = false;
  private lostBatch = false;

  constructor(
    private readonly dir: string,
    start: RecorderStart,
    private readonly limits: RecorderLimits,
    private readonly events: RecorderEvents,
  ) {
    this.seq = start.seq;
    this.generation = start.generation;
    this.uncompacted = [...start.olderGenerations];
    this.droppedBefore = start.droppedEntries;
    this.latest = start.state;
    this.queue = new WriteQueue(
      (generation, text) => this.appendToLog(generation, text),
      (error) => {
        // A lost batch leaves a gap in the log; the next batch compacts, so a snapshot covers the gap.
        this.lostBatch = true;
        events.error(error);
      },
    );
  }

  /** Call with each action the store applied and the state it produced (a TranscriptStore listener fits). */
  record(action: TranscriptAction, state: TranscriptState): void {
    if (this.closed) return;
    this.seq++;
    this.latest = state;
    this.events.recorded(action, state);
    const last = this.pending.at(-1);
    if (last && this.run.extend(action)) {
      last.s = this.seq;
    } else {
      this.closeRun();
      this.pending.push({ s: this.seq, a: action });
      this.run.start(action);
    }
    this.timer ??= setTimeout(() => this.writePending(), this.limits.flushWindowMs);
  }

  /** Everything recorded so far is on disk (or failed and reported) when this resolves. */
  async flush(): Promise<void> {
    this.writePending();
    await this.queue.whenIdle();
  }

  /**
   * For deactivate, where nothing asynchronous runs again: whatever has not reached the disk is appended now,
   * synchronously, to the current generation. A write still in flight may land later; its records repeat
   * sequence numbers already written, and the loader skips them.
   */
  flushSync(): void {
    this.writePending();
    const texts = this.queue.takeUnwritten();
    if (texts.length === 0) return;
    const header = this.headerWritten ? '' : this.headerText();
    try {
      appendFileSync(logFile(this.dir, this.generation), header + texts.join(''));
      this.headerWritten = true;
    } catch (error) {
      this.events.error(error);
    }
  }

  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
  }

  private headerText(): string {
    const header: LogHeader = { format: LOG_FORMAT, version: HISTORY_FORMAT_VERSION, generation: this.generation };
    return frameRecord(header);
  }

  private writePending(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    this.closeRun();
    let text = this.headerQueued ? '' : this.headerText();
    this.headerQueued = true;
    for (const record of this.pending) text += frameRecord(record);
    const turnEnded = this.pending.some((record) => record.a.type === 'turn_ended');
    this.pending = [];
    this.generationBytes += text.length;
    this.queue.push({ kind: 'append', generation: this.generation, text });
    this.events.written(this.latest);
    const turnEndDue = turnEnded && this.generationBytes >= Math.max(TURN_END_MIN_BYTES, this.lastSnapshotChars / TURN_END_SNAPSHOT_SHARE);
    if (this.generationBytes >= Math.max(this.limits.compactAfterBytes, this.lastSnapshotChars) || turnEndDue || this.lostBatch) {
      this.lostBatch = false;
      this.startCompaction();
    }
  }

  private closeRun(): void {
    const merged = this.run.take();
    const last = this.pending.at(-1);
    if (merged && last && merged !== last.a) this.pending[this.pending.length - 1] = { s: last.s, a: merged };
  }

  /**
   * The state and sequence number are taken now, between two batches, so the snapshot holds exactly the actions
   * queued so far; later actions go to a fresh generation that the compaction leaves alone.
   */
  private startCompaction(): void {
    const covered = [...this.uncompacted, this.generation];
    const input = { state: this.latest, seq: this.seq, droppedEntries: this.droppedBefore };
    this.generation++;
    this.headerQueued = false;
    this.headerWritten = false;
    this.generationBytes = 0;
    this.uncompacted = [];
    this.queue.push({
      kind: 'compact',
      run: async () => {
        const snapshot = snapshotText(input, this.limits.maxSessionBytes);
        this.lastSnapshotChars = snapshot.text.length;
        await writeSnapshot(this.dir, snapshot.text, covered);
      },
    });
  }

  private async appendToLog(generation: number, text: string): Promise<void> {
    await fs.appendFile(logFile(this.dir, generation), text);
    if (generation === this.generation) this.headerWritten = true;
  }
}
