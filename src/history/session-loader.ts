/**
 * Loading a stored session: the snapshot, then every log generation in order, applying each action the
 * snapshot does not already hold. Records a torn write cut short are dropped; anything stored before them loads.
 */
import * as path from 'node:path';
import { POSITION_BUCKETS, type TranscriptState } from '../shared/model';
import { positionsInBuckets } from '../shared/pages';
import { initialState, reduce } from '../shared/reducer';
import { actionRecordSchema, logHeaderSchema, parseVersioned, snapshotSchema } from './format';
import { readRecords } from './record-framing';
import { logFile, logGenerations, readFileIfExists, SNAPSHOT_FILE } from './session-files';

export interface LoadedSession {
  readonly state: TranscriptState;
  /** The last action sequence number in the state; a writer continues after it. */
  readonly seq: number;
  readonly droppedEntries: number;
  /** Bytes of torn records dropped while loading (0 after a clean shutdown). */
  readonly tornBytes: number;
  readonly generations: readonly number[];
  /** How many logged actions were applied on top of the snapshot. */
  readonly tailActions: number;
  /** Whole records that were not actions (never expected: a sign of a bug, reported rather than fatal). */
  readonly skippedRecords: number;
}

export async function loadSession(dir: string): Promise<LoadedSession> {
  const snapshotText = await readFileIfExists(path.join(dir, SNAPSHOT_FILE));
  const snapshot = snapshotText
    ? parseVersioned(path.join(dir, SNAPSHOT_FILE), JSON.parse(snapshotText.toString('utf8')), snapshotSchema)
    : undefined;
  let state = snapshot ? inMemoryBuckets(snapshot.state) : initialState();
  let seq = snapshot?.seq ?? 0;
  let tornBytes = 0;
  let tailActions = 0;
  let skippedRecords = 0;
  const generations = await logGenerations(dir);
  for (const generation of generations) {
    const file = logFile(dir, generation);
    const buffer = await readFileIfExists(file);
    if (!buffer) continue;
    const { records, droppedBytes } = readRecords(buffer);
    tornBytes += droppedBytes;
    for (const raw of records) {
      // The first record is the header; the shutdown flush may repeat it further down (see SessionRecorder).
      if (isHeader(raw)) {
        parseVersioned(file, raw, logHeaderSchema);
        continue;
      }
      const parsed = actionRecordSchema.safeParse(raw);
      if (!parsed.success) {
        skippedRecords++;
        continue;
      }
      const record = parsed.data;
      // Already in the snapshot, or written twice (the shutdown flush repeats a write still in flight).
      if (record.s <= seq) continue;
      state = reduce(state, record.a);
      seq = record.s;
      tailActions++;
    }
  }
  return { state, seq, droppedEntries: snapshot?.droppedEntries ?? 0, tornBytes, generations, tailActions, skippedRecords };
}

/** The stored key index (STORED_POSITION_BUCKETS) in the buckets this version keeps in memory. */
function inMemoryBuckets(state: TranscriptState): TranscriptState {
  return { ...state, positions: positionsInBuckets(state.positions, POSITION_BUCKETS) };
}

function isHeader(record: unknown): boolean {
  return typeof record === 'object' && record !== null && 'format' in record;
}
