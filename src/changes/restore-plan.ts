/**
 * Undo and "Restore to here" as plans: what each file must become, checked against what is on disk now. A file
 * whose content is no longer what the agent left (the user edited it since) is a conflict: never overwritten
 * silently, the caller asks first.
 */
import type { FileChangeRecord, TurnChangeRecord } from './change-records';
import { sameState, type FileState } from './file-state';

export interface PlannedFile {
  readonly path: string;
  /** What the file becomes. */
  readonly target: FileState;
  /** What the agent left; anything else on disk now is a conflict. */
  readonly expected: FileState;
}

export interface RestorePlan {
  readonly files: readonly PlannedFile[];
  /** Files whose earlier content we do not have (unknown, too large to keep, or evicted since): left as they are. */
  readonly unrestorable: readonly string[];
}

/** Whether a state's content can still be written back; by default, whether it was stored at all. */
export type ContentKept = (state: FileState) => boolean;

const storedAtAll: ContentKept = (state) => state.kind === 'absent' || (state.kind === 'file' && state.stored);

/** Undo of some records of one turn: each file back to its before-state. */
export function planUndo(records: readonly FileChangeRecord[], kept: ContentKept = storedAtAll): RestorePlan {
  return split(
    records.filter((r) => r.review !== 'undone').map((r) => ({ path: r.path, target: r.before, expected: r.after })),
    kept,
  );
}

/**
 * Restore to just before turn `turnId`: every file changed in it or later goes back to its before-state in the
 * earliest of those turns, and must now be what the latest of them left. `turnOrder`: every turn (and restore) in
 * the order it ran, with or without changes, so a message whose own turn changed nothing still rewinds the later ones.
 */
export function planRestore(
  records: readonly TurnChangeRecord[],
  turnOrder: readonly string[],
  turnId: string,
  kept: ContentKept = storedAtAll,
): RestorePlan | undefined {
  const start = turnOrder.indexOf(turnId);
  if (start < 0) return undefined;
  const later = new Set(turnOrder.slice(start));
  const byPath = new Map<string, { target: FileState; expected: FileState }>();
  for (const record of records.filter((r) => later.has(r.turnId))) {
    for (const file of record.files) {
      if (file.review === 'undone') continue;
      const seen = byPath.get(file.path);
      byPath.set(file.path, { target: seen?.target ?? file.before, expected: file.after });
    }
  }
  return split(
    [...byPath].map(([path, planned]) => ({ path, ...planned })).filter((f) => !sameState(f.target, f.expected)),
    kept,
  );
}

function split(files: readonly PlannedFile[], kept: ContentKept): RestorePlan {
  return { files: files.filter((f) => kept(f.target)), unrestorable: files.filter((f) => !kept(f.target)).map((f) => f.path) };
}

/** The planned files that are no longer what the agent left. */
export function conflictsOf(plan: RestorePlan, current: ReadonlyMap<string, FileState>): string[] {
  return plan.files.filter((f) => !sameState(current.get(f.path) ?? f.expected, f.expected)).map((f) => f.path);
}
