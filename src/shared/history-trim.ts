/**
 * Stored history has a size cap: when a transcript outgrows it, its oldest entries are dropped and one notice at
 * the top says so, so a reader never mistakes a cut transcript for the whole conversation.
 */
import type { Entry, NoticeEntry, TranscriptState } from './model';
import { allEntries, fromEntries } from './pages';

/** One fixed key: trimming twice updates the same notice instead of stacking notices. */
export const DROPPED_HISTORY_KEY = 'history:dropped';

function droppedHistoryNotice(droppedEntries: number): NoticeEntry {
  return {
    kind: 'notice',
    key: DROPPED_HISTORY_KEY,
    severity: 'info',
    title: 'Earlier history was dropped',
    detail: `${droppedEntries} older ${droppedEntries === 1 ? 'entry was' : 'entries were'} removed to keep stored history within its size limit.`,
  };
}

/**
 * Drops the `count` oldest entries (never the notice itself) and puts the notice first, counting
 * `previouslyDropped` (what earlier trims dropped; the caller keeps that total) plus this trim.
 */
export function dropOldestEntries(
  state: TranscriptState,
  count: number,
  previouslyDropped: number,
): { state: TranscriptState; dropped: number } {
  if (count <= 0) return { state, dropped: 0 };
  const entries = allEntries(state).filter((entry) => entry.key !== DROPPED_HISTORY_KEY);
  const kept: Entry[] = entries.slice(Math.min(count, entries.length));
  const dropped = entries.length - kept.length;
  return { state: fromEntries(state, [droppedHistoryNotice(previouslyDropped + dropped), ...kept]), dropped };
}
