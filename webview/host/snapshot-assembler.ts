/**
 * Puts a snapshot sent in parts (src/shared/snapshot-parts.ts) back together. Its first message (the newest
 * pages) goes to the chat at once as a preview, which it may draw; the whole snapshot follows when the last
 * part is in. Actions that arrive meanwhile wait and follow the whole snapshot in order; a newer snapshot
 * replaces one still arriving (and the actions held for it).
 *
 * The host posts a snapshot with the page's HTML and again in answer to the page's `ready` (src/views/chat-binding.ts):
 * the second, identical to the first taken whole (same conversation, number and draft, nothing since), is dropped,
 * or the chat would draw the whole transcript twice as it opens.
 */
import type { Entry, TranscriptState } from '../../src/shared/model';
import type { HostToWebviewMessage } from '../../src/shared/webview-protocol';

type Snapshot = Extract<HostToWebviewMessage, { type: 'snapshot' }>;

interface Arriving {
  readonly snapshot: Snapshot;
  /** Runs of pages, newest first: each part's pages go before those of the one before. */
  readonly runs: (readonly (readonly Entry[])[])[];
  /** The parts' slices of the key index, in order: put together by concat, which keeps a slice's holes as holes. */
  readonly positionRuns: TranscriptState['positions'][];
  remaining: number;
  readonly held: HostToWebviewMessage[];
}

export class SnapshotAssembler {
  private arriving: Arriving | undefined;
  /** The last snapshot taken whole, while no action has come after it. */
  private current: Snapshot | undefined;

  /** The messages now ready for the chat, in order. */
  accept(message: HostToWebviewMessage): HostToWebviewMessage[] {
    const ready = this.assemble(message);
    for (const taken of ready)
      if (taken.type === 'snapshot') this.current = taken.partsToFollow ? undefined : taken;
      else if (taken.type === 'actions') this.current = undefined;
    return ready;
  }

  private assemble(message: HostToWebviewMessage): HostToWebviewMessage[] {
    if (message.type === 'snapshot') {
      // Its parts, if any, find no snapshot arriving and are dropped as well.
      if (!this.arriving && this.current && sameSnapshot(this.current, message)) return [];
      this.arriving = undefined;
      if (!message.partsToFollow) return [message];
      this.arriving = { snapshot: message, runs: [message.state.pages], positionRuns: [], remaining: message.partsToFollow, held: [] };
      return [message];
    }
    const arriving = this.arriving;
    if (message.type === 'snapshot_part') {
      // A part of no snapshot (its start was replaced) is dropped.
      if (!arriving) return [];
      arriving.runs.push(message.pages);
      arriving.positionRuns.push(message.positions);
      if (--arriving.remaining > 0) return [];
      this.arriving = undefined;
      return [whole(arriving), ...arriving.held];
    }
    if (arriving && message.type === 'actions') {
      arriving.held.push(message);
      return [];
    }
    return [message];
  }
}

/**
 * The host numbers the actions it posts to a page in order, and the transcript changes only by them: the same
 * conversation at the same number is the same transcript. The draft is compared too, as the snapshot carries it.
 */
function sameSnapshot(current: Snapshot, next: Snapshot): boolean {
  return current.conversationId === next.conversationId && current.seq === next.seq && current.draft === next.draft;
}

function whole(arriving: Arriving): Snapshot {
  const pages = arriving.runs.reverse().flat();
  const entryCount = pages.reduce((sum, page) => sum + page.length, 0);
  const { partsToFollow: _whole, ...snapshot } = arriving.snapshot;
  const positions = ([] as TranscriptState['positions'][number][]).concat(...arriving.positionRuns);
  return { ...snapshot, state: { ...snapshot.state, pages, positions, entryCount } };
}
