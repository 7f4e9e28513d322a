/**
 * A conversation's changes as one set: every file any of its turns (or restores) changed and did not undo, from
 * its state before the first of them to what the last one left. Restoring to the conversation's first turn is the
 * Undo of all of it, with the same plan and conflict rules as "Restore to here" (restore-plan.ts).
 */
import type { FileChangeRecord, TurnChangeRecord } from './change-records';
import { pairRenames } from './change-view';
import { sameState } from './file-state';

export function conversationChanges(records: readonly TurnChangeRecord[]): FileChangeRecord[] {
  const byPath = new Map<string, FileChangeRecord>();
  for (const record of records)
    for (const file of record.files) {
      if (file.review === 'undone') continue;
      const seen = byPath.get(file.path);
      // The earliest "before", the latest "after"; still under review if any turn's change to it is.
      byPath.set(
        file.path,
        seen
          ? { ...file, before: seen.before, review: seen.review === 'pending' || file.review === 'pending' ? 'pending' : file.review }
          : file,
      );
    }
  return [...byPath.values()].filter((f) => !sameState(f.before, f.after));
}

/** The changes as the card and the diff editor list them: a rename is one entry (its old path's deletion folded in). */
export function listedChanges(changes: readonly FileChangeRecord[]): FileChangeRecord[] {
  const { folded } = pairRenames(changes);
  return changes.filter((change) => !folded.has(change.path));
}

/** The paths one listed entry stands for: a renamed file's new path and its old one; otherwise the path itself. */
export function pathsOfEntry(changes: readonly FileChangeRecord[], path: string): string[] {
  const renamedFrom = pairRenames(changes).from.get(path);
  return renamedFrom === undefined ? [path] : [path, renamedFrom];
}
