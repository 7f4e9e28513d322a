/** A turn's change set: one entry per turn, replaced whole (the list is small: paths and counts, no content). */
import type { ChangedFileView, TranscriptState } from './model';
import { appendEntry, entryAtPosition, positionOf, removeEntry, replaceEntry } from './pages';

export function changeSetKey(turnId: string): string {
  return `changes:${turnId}`;
}

export function recordChangeSet(
  state: TranscriptState,
  turnId: string,
  origin: 'turn' | 'restore',
  files: readonly ChangedFileView[],
  notes?: readonly string[],
): TranscriptState {
  const key = changeSetKey(turnId);
  const position = positionOf(state, key);
  if (files.length === 0) return position === undefined ? state : removeEntry(state, key);
  const entry = { kind: 'changes' as const, key, turnId, origin, files, ...(notes?.length ? { notes } : {}) };
  if (position === undefined) return appendEntry(state, entry);
  return entryAtPosition(state, position)?.kind === 'changes' ? replaceEntry(state, position, entry) : state;
}
