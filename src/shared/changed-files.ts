/**
 * How many files a conversation has changed and not undone, from its change cards (the Sessions view's "N files
 * changed"). A restore puts files back as they were, so it takes them off the count; undoing it puts them back.
 */
import type { TranscriptState } from './model';
import { entriesOf } from './selectors';

export function changedFileCount(state: TranscriptState): number {
  const changed = new Set<string>();
  for (const entry of entriesOf(state)) {
    if (entry.kind !== 'changes') continue;
    for (const file of entry.files) {
      if (file.review === 'undone') continue;
      if (entry.origin === 'restore') changed.delete(file.path);
      else changed.add(file.path);
    }
  }
  return changed.size;
}
