/**
 * A long transcript's snapshot, cut into messages the webview can each receive in a short task: taking a
 * 10,000-entry snapshot in one message cost 40-100 ms of deserializing in one task (the trace's
 * SerializedScriptValueFactory::deserialize). Whole pages go in each part, so cutting copies nothing but the
 * page list.
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
  const parts: HostToWebviewMessage[] = [];
  for (let from = pagesPerPart; from < state.pages.length; from += pagesPerPart)
    parts.push({ type: 'snapshot_part', pages: state.pages.slice(from, from + pagesPerPart) });
  const first: Snapshot = {
    type: 'snapshot',
    seq,
    state: { ...state, pages: state.pages.slice(0, pagesPerPart) },
    ...conversation,
    partsToFollow: parts.length,
  };
  return [first, ...parts];
}
