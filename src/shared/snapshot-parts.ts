/**
 * A long transcript's snapshot, cut into messages the webview can each receive in a short task: taking a
 * 10,000-entry snapshot in one message cost 40-100 ms of deserializing in one task (the trace's
 * SerializedScriptValueFactory::deserialize). Whole pages (and whole buckets of the key index) go in each part,
 * so cutting copies nothing but the two lists.
 *
 * The newest pages go first: the chat opens at the bottom of a conversation, so it can draw what the user sees
 * from the first message alone (a preview) while the older pages are still on their way. Switching to a long
 * conversation then costs the time to receive one small message, not the whole transcript.
 */
import { ENTRY_PAGE_SIZE, type TranscriptState } from './model';
import type { HostToWebviewMessage } from './webview-protocol';

/** Pages (of ENTRY_PAGE_SIZE entries) per message: 512 entries take a few ms to send and to receive. */
export const SNAPSHOT_PAGES_PER_PART = 2;
/**
 * The older parts go out this far apart, so that copying them (on both sides of the post, in the webview's frame
 * in VS Code) never piles up into one long frame; 10,000 entries arrive within half a second.
 */
export const SNAPSHOT_PART_INTERVAL_MS = 24;
/** The first older part waits longer: the webview draws the newest pages meanwhile, the heaviest frame of a switch. */
export const SNAPSHOT_FIRST_PART_DELAY_MS = 80;
/** Entries in the first message at least: more than any viewport shows, few enough to receive at once. */
const PREVIEW_ENTRIES = ENTRY_PAGE_SIZE;

type Snapshot = Extract<HostToWebviewMessage, { type: 'snapshot' }>;

/** How many of the last pages the first message carries: enough for PREVIEW_ENTRIES. */
function previewPageCount(pages: TranscriptState['pages']): number {
  let count = 0;
  let entries = 0;
  while (count < pages.length && entries < PREVIEW_ENTRIES) entries += pages[pages.length - 1 - count++]!.length;
  return count;
}

export function snapshotMessages(
  seq: number,
  state: TranscriptState,
  conversation: { readonly conversationId: string; readonly draft: string },
  pagesPerPart = SNAPSHOT_PAGES_PER_PART,
): HostToWebviewMessage[] {
  if (state.pages.length <= pagesPerPart) return [{ type: 'snapshot', seq, state, ...conversation }];
  const previewFrom = state.pages.length - previewPageCount(state.pages);
  const older: (typeof state.pages)[] = [];
  for (let end = previewFrom; end > 0; end -= pagesPerPart) older.push(state.pages.slice(Math.max(0, end - pagesPerPart), end));
  // The key -> position buckets are as big as the pages' keys: they are shared out over the parts too.
  const bucketsPerPart = Math.ceil(state.positions.length / older.length);
  const parts: HostToWebviewMessage[] = older.map((pages, part) => ({
    type: 'snapshot_part',
    pages,
    positions: state.positions.slice(part * bucketsPerPart, (part + 1) * bucketsPerPart),
  }));
  const preview = state.pages.slice(previewFrom);
  const first: Snapshot = {
    type: 'snapshot',
    seq,
    // Whole in itself, as far as drawing goes: the newest pages, and as many entries as they hold.
    state: { ...state, pages: preview, positions: [], entryCount: preview.reduce((sum, page) => sum + page.length, 0) },
    ...conversation,
    partsToFollow: parts.length,
  };
  return [first, ...parts];
}

/**
 * Sends `messages` (a snapshot's) through `post`: the first at once, the second SNAPSHOT_FIRST_PART_DELAY_MS
 * later, the rest SNAPSHOT_PART_INTERVAL_MS apart. Returns a cancel for the parts not sent yet (a newer snapshot
 * makes them pointless).
 */
export function postSnapshotPaced(
  messages: readonly HostToWebviewMessage[],
  post: (message: HostToWebviewMessage) => void,
  intervalMs = SNAPSHOT_PART_INTERVAL_MS,
  firstDelayMs = SNAPSHOT_FIRST_PART_DELAY_MS,
): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const send = (index: number): void => {
    const message = messages[index];
    if (!message) return;
    post(message);
    if (index + 1 < messages.length) timer = setTimeout(() => send(index + 1), index === 0 ? firstDelayMs : intervalMs);
  };
  send(0);
  return () => clearTimeout(timer);
}
