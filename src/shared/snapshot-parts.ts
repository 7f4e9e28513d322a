/**
 * A long transcript's snapshot, cut into messages the webview can each receive in a short task: taking a
 * 10,000-entry snapshot in one message cost 40-100 ms of deserializing in one task (the trace's
 * SerializedScriptValueFactory::deserialize). Whole pages (and whole buckets of the key index) go in each part,
 * so cutting copies nothing but the two lists.
 */
import type { TranscriptState } from './model';
import type { HostToWebviewMessage } from './webview-protocol';

/** Pages (of ENTRY_PAGE_SIZE entries) per message: 1,024 entries take a few ms to receive. */
export const SNAPSHOT_PAGES_PER_PART = 4;

type Snapshot = Extract<HostToWebviewMessage, { type: 'snapshot' }>;

export function snapshotMessages(
  seq: number,
  state: TranscriptState,
  conversation: { readonly conversationId: string; readonly draft: string },
  pagesPerPart = SNAPSHOT_PAGES_PER_PART,
): HostToWebviewMessage[] {
  if (state.pages.length <= pagesPerPart) return [{ type: 'snapshot', seq, state, ...conversation }];
  const count = Math.ceil(state.pages.length / pagesPerPart) - 1;
  // The key -> position buckets are as big as the pages' keys: they are shared out over the parts too.
  const bucketsPerPart = Math.ceil(state.positions.length / count);
  const parts: HostToWebviewMessage[] = [];
  for (let part = 0; part < count; part++) {
    const from = (part + 1) * pagesPerPart;
    parts.push({
      type: 'snapshot_part',
      pages: state.pages.slice(from, from + pagesPerPart),
      positions: state.positions.slice(part * bucketsPerPart, (part + 1) * bucketsPerPart),
    });
  }
  const first: Snapshot = {
    type: 'snapshot',
    seq,
    state: { ...state, pages: state.pages.slice(0, pagesPerPart), positions: [] },
    ...conversation,
    partsToFollow: parts.length,
  };
  return [first, ...parts];
}
