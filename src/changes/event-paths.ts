/**
 * What one watcher event stands for. VS Code reports a folder made with files in it, or deleted with them, as the
 * folder only: a new (or re-made) folder's files are looked up on disk, a deleted folder's are the ones the baseline
 * knew under it. Both the tracker capturing a turn and the baseline kept up to date between turns hear them so.
 */
import type { Baseline } from './baseline';
import type { ChangeFiles } from './change-ports';

export type DiskEventKind = 'changed' | 'created' | 'deleted';

/** Calls `each` for the files inside `folder` the event stands for; what needs a disk listing comes in the promise. */
export function filesOfFolderEvent(
  kind: DiskEventKind,
  folder: string,
  files: ChangeFiles,
  baseline: Baseline,
  each: (path: string) => void,
): Promise<void> {
  if (kind === 'deleted') {
    baseline.knownUnder(folder).forEach(each);
    return Promise.resolve();
  }
  return files.filesIn(folder).then((inside) => inside.forEach(each));
}
