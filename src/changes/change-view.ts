/**
 * A turn's records as the change card shows them: created/modified/deleted/renamed, line counts (the `diff`
 * package) when both sides are text we kept, and a note where there is no diff or the agent's own report differs.
 */
import { diffLines } from 'diff';
import type { ChangedFileView } from '../shared/model';
import type { FileChangeRecord, ReportedTexts } from './change-records';
import type { ContentStore } from './content-store';
import type { FileState } from './file-state';

/** Past this, counting lines could hold the extension host's loop too long: the card says "large" instead. */
const MAX_DIFF_BYTES = 512 * 1024;
/** Files counted between yields to the event loop, so a 1,000-file turn never blocks it for long. */
const FILES_PER_SLICE = 20;
/** A change seen while another conversation's turn also ran, that neither agent named. */
export const SHARED_NOTE =
  "Changed while another conversation's agent was also working, and neither agent named this file: it may be the other agent's change.";
/** Files whose blobs are read at once while counting. */
const VIEW_CONCURRENCY = 8;

export async function viewOfRecords(
  records: readonly FileChangeRecord[],
  store: ContentStore,
  reported: ReportedTexts = new Map(),
): Promise<ChangedFileView[]> {
  await store.ready();
  const renames = pairRenames(records);
  const shown = records.filter((record) => !renames.folded.has(record.path));
  const views = new Array<ChangedFileView>(shown.length);
  const viewOf = async (record: FileChangeRecord): Promise<ChangedFileView> => {
    const renamedFrom = renames.from.get(record.path);
    const change = renamedFrom !== undefined ? 'renamed' : changeKind(record.before, record.after);
    const before = renamedFrom !== undefined ? (records.find((r) => r.path === renamedFrom)?.before ?? record.before) : record.before;
    const counts = await lineCounts(before, record.after, store);
    // The after-text is read again only for a file the agent reported a diff for.
    const after = reported.has(record.path) && !isBinary(record.after) ? await textOf(record.after, store) : undefined;
    const notes = [mismatch(record.path, record.after, after, reported) ?? counts.note, record.shared ? SHARED_NOTE : undefined].filter(
      (n): n is string => n !== undefined,
    );
    const note = notes.length > 0 ? notes.join(' ') : undefined;
    return {
      path: record.path,
      change,
      ...(renamedFrom !== undefined ? { renamedFrom } : {}),
      ...(counts.added !== undefined ? { added: counts.added, removed: counts.removed } : {}),
      ...(note !== undefined ? { note } : {}),
      review: record.review,
    };
  };
  // A few files at a time: the reads overlap, and each file's diff is a short task between them.
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < shown.length) {
      const index = next++;
      views[index] = await viewOf(shown[index]!);
      if (index % FILES_PER_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  };
  await Promise.all(Array.from({ length: VIEW_CONCURRENCY }, worker));
  return views;
}

const isBinary = (state: FileState): boolean => state.kind === 'file' && state.binary;

function changeKind(before: FileState, after: FileState): ChangedFileView['change'] {
  if (after.kind === 'absent') return 'deleted';
  if (before.kind === 'absent') return 'created';
  return 'modified';
}

/** A deletion and a creation with the same content in one turn are a rename (the watcher sees two events). */
export function pairRenames(records: readonly FileChangeRecord[]): { from: Map<string, string>; folded: Set<string> } {
  const deleted = new Map<string, string>();
  for (const r of records) if (r.after.kind === 'absent' && r.before.kind === 'file') deleted.set(r.before.hash, r.path);
  const from = new Map<string, string>();
  const folded = new Set<string>();
  for (const r of records) {
    if (r.before.kind !== 'absent' || r.after.kind !== 'file') continue;
    const old = deleted.get(r.after.hash);
    if (old === undefined || folded.has(old)) continue;
    from.set(r.path, old);
    folded.add(old);
  }
  return { from, folded };
}

async function lineCounts(
  before: FileState,
  after: FileState,
  store: ContentStore,
): Promise<{ added?: number; removed?: number; note?: string }> {
  const sides = [before, after];
  if (sides.some((s) => s.kind === 'unknown'))
    return { note: 'Its content before the turn is unknown (it was never read or snapshotted).' };
  if (sides.some((s) => s.kind === 'file' && !s.stored)) return { note: 'Too large to keep: tracked by hash, no diff or undo.' };
  if (sides.some((s) => s.kind === 'file' && !store.has(s.hash)))
    return {
      note: 'Its content was evicted to keep snapshots within acpClient.review.maxSnapshotMB: tracked by hash, no diff or undo.',
    };
  if (sides.some((s) => s.kind === 'file' && s.binary)) return { note: 'Binary file: tracked by hash, no diff.' };
  if (sides.some((s) => s.kind === 'file' && s.size > MAX_DIFF_BYTES)) return { note: 'Large file: open the diff to see the change.' };
  const oldText = before.kind === 'file' ? ((await textOf(before, store)) ?? '') : '';
  const newText = after.kind === 'file' ? ((await textOf(after, store)) ?? '') : '';
  let added = 0;
  let removed = 0;
  for (const part of diffLines(oldText, newText)) {
    if (part.added) added += part.count;
    else if (part.removed) removed += part.count;
  }
  return { added, removed };
}

export async function textOf(state: FileState, store: ContentStore): Promise<string | undefined> {
  if (state.kind !== 'file' || !state.stored) return undefined;
  const bytes = await store.get(state.hash);
  return bytes && new TextDecoder('utf-8').decode(bytes);
}

/** The agent reported a diff for this file: does the file on disk say the same? */
function mismatch(path: string, after: FileState, afterText: string | undefined, reported: ReportedTexts): string | undefined {
  if (!reported.has(path)) return undefined;
  const text = reported.get(path);
  if (text === undefined) return undefined;
  if (after.kind === 'absent') return "The agent's tool call reported new content, but the file is gone.";
  // A whole file must match. Some agents report only the replaced fragment in a finished edit's diff (OpenCode 1.18:
  // oldText "beta", newText "BETA"), against the spec's whole texts: such a report agrees if the file holds it.
  if (afterText !== undefined && afterText !== text && !afterText.includes(text))
    return "Differs from the diff the agent's tool call reported.";
  return undefined;
}
