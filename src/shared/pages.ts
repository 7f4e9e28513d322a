/**
 * The paged entry store behind TranscriptState (see model.ts): replacing or appending one entry copies one page
 * and the page list, so the cost of a streaming chunk does not grow with the transcript.
 */
import { ENTRY_PAGE_SIZE, POSITION_BUCKETS, type Entry, type EntryKey, type TranscriptState } from './model';

/** FNV-1a: cheap, stable across host and webview, and across versions (stored snapshots hold the index). */
function bucketOf(key: EntryKey, buckets = POSITION_BUCKETS): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % buckets;
}

/**
 * The same key index in `buckets` buckets: for history, which stores it in a fixed count whatever this version
 * keeps in memory. As appending builds it: a bucket exists once a key is in it (a hole before, null once stored
 * as JSON), so an index re-bucketed there and back equals the one appends built.
 */
export function positionsInBuckets(positions: TranscriptState['positions'], buckets: number): TranscriptState['positions'] {
  const result: Record<EntryKey, number>[] = [];
  for (const bucket of positions) {
    if (!bucket) continue;
    for (const key of Object.keys(bucket)) (result[bucketOf(key, buckets)] ??= {})[key] = bucket[key]!;
  }
  return result;
}

export function entryAtPosition(state: TranscriptState, position: number): Entry | undefined {
  return state.pages[Math.floor(position / ENTRY_PAGE_SIZE)]?.[position % ENTRY_PAGE_SIZE];
}

export function positionOf(state: TranscriptState, key: EntryKey): number | undefined {
  const bucket = state.positions[bucketOf(key)];
  return bucket && Object.prototype.hasOwnProperty.call(bucket, key) ? bucket[key] : undefined;
}

function withPosition(positions: TranscriptState['positions'], key: EntryKey, position: number): TranscriptState['positions'] {
  const index = bucketOf(key);
  const next = positions.slice();
  next[index] = { ...positions[index], [key]: position };
  return next;
}

export function lastEntry(state: TranscriptState): Entry | undefined {
  return state.entryCount === 0 ? undefined : entryAtPosition(state, state.entryCount - 1);
}

export function replaceEntry(state: TranscriptState, position: number, entry: Entry): TranscriptState {
  const pageIndex = Math.floor(position / ENTRY_PAGE_SIZE);
  const page = state.pages[pageIndex];
  if (!page || page[position % ENTRY_PAGE_SIZE] === entry) return state;
  const nextPage = page.slice();
  nextPage[position % ENTRY_PAGE_SIZE] = entry;
  const pages = state.pages.slice();
  pages[pageIndex] = nextPage;
  return { ...state, pages };
}

export function appendEntry(state: TranscriptState, entry: Entry): TranscriptState {
  const position = state.entryCount;
  const pageIndex = Math.floor(position / ENTRY_PAGE_SIZE);
  const pages = state.pages.slice();
  pages[pageIndex] = [...(pages[pageIndex] ?? []), entry];
  return { ...state, pages, entryCount: position + 1, positions: withPosition(state.positions, entry.key, position) };
}

/** Rare (a plan removed): rebuilds pages and positions. */
export function removeEntry(state: TranscriptState, key: EntryKey): TranscriptState {
  if (positionOf(state, key) === undefined) return state;
  return fromEntries(
    state,
    allEntries(state).filter((entry) => entry.key !== key),
  );
}

export function allEntries(state: TranscriptState): Entry[] {
  return state.pages.flat();
}

/** Builds pages and positions for a list of entries (rare: removal, tests). */
export function fromEntries(state: TranscriptState, entries: readonly Entry[]): TranscriptState {
  const pages: Entry[][] = [];
  // Buckets as appending makes them (see positionsInBuckets): one exists once a key is in it.
  const positions: Record<EntryKey, number>[] = [];
  entries.forEach((entry, index) => {
    const pageIndex = Math.floor(index / ENTRY_PAGE_SIZE);
    (pages[pageIndex] ??= []).push(entry);
    (positions[bucketOf(entry.key)] ??= {})[entry.key] = index;
  });
  return { ...state, pages, positions, entryCount: entries.length };
}
