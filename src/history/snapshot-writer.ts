/**
 * Compaction: the reduced state goes into a new snapshot (atomically), then the log generations it covers are
 * deleted. A crash before the rename leaves the old snapshot and every log; after it, the new snapshot, and the
 * loader skips the actions it already holds in logs not yet deleted. No point in between loses anything.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { TranscriptState } from '../shared/model';
import { dropOldestEntries } from '../shared/history-trim';
import { positionsInBuckets } from '../shared/pages';
import { HISTORY_FORMAT_VERSION, SNAPSHOT_FORMAT, STORED_POSITION_BUCKETS, type SnapshotFile } from './format';
import { logFile, SNAPSHOT_FILE, writeFileAtomic } from './session-files';

export interface SnapshotInput {
  readonly state: TranscriptState;
  readonly seq: number;
  readonly droppedEntries: number;
}

/** Room left under the cap after a trim, so the next compactions do not trim again at once. */
const TRIM_TARGET = 0.75;

/** The snapshot text, its oldest entries dropped while it is over `maxBytes`. */
export function snapshotText(input: SnapshotInput, maxBytes: number): { text: string; droppedEntries: number; state: TranscriptState } {
  let { state, droppedEntries } = input;
  let text = serialize(state, input.seq, droppedEntries);
  // Entries differ in size, so the cut is estimated from the average and repeated until it fits.
  while (text.length > maxBytes && state.entryCount > 1) {
    const share = 1 - (maxBytes * TRIM_TARGET) / text.length;
    const count = Math.max(1, Math.ceil(state.entryCount * share));
    const trimmed = dropOldestEntries(state, count, droppedEntries);
    if (trimmed.dropped === 0) break;
    state = trimmed.state;
    droppedEntries += trimmed.dropped;
    text = serialize(state, input.seq, droppedEntries);
  }
  return { text, droppedEntries, state };
}

function serialize(state: TranscriptState, seq: number, droppedEntries: number): string {
  // In the count every version reads, so that an older version opening this snapshot finds each entry by its key.
  const stored = { ...state, positions: positionsInBuckets(state.positions, STORED_POSITION_BUCKETS) };
  const file: SnapshotFile = { format: SNAPSHOT_FORMAT, version: HISTORY_FORMAT_VERSION, seq, droppedEntries, state: stored };
  return JSON.stringify(file);
}

export async function writeSnapshot(dir: string, text: string, coveredGenerations: readonly number[]): Promise<void> {
  await writeFileAtomic(path.join(dir, SNAPSHOT_FILE), text);
  for (const generation of coveredGenerations) await fs.rm(logFile(dir, generation), { force: true });
}
