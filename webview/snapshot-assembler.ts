/**
 * Puts a snapshot sent in parts (src/shared/snapshot-parts.ts) back together before the chat sees it, so the
 * chat only ever gets whole snapshots. Actions that arrive meanwhile wait and follow the snapshot in order; a
 * newer snapshot replaces one still arriving (and the actions held for it).
 */
import type { Entry, TranscriptState } from '../src/shared/model';
import type { HostToWebviewMessage } from '../src/shared/webview-protocol';

type Snapshot = Extract<HostToWebviewMessage, { type: 'snapshot' }>;

interface Arriving {
  readonly snapshot: Snapshot;
  readonly pages: (readonly Entry[])[];
  readonly positions: TranscriptState['positions'][number][];
  remaining: number;
  readonly held: HostToWebviewMessage[];
}

export class SnapshotAssembler {
  private arriving: Arriving | undefined;

  /** The messages now ready for the chat, in order (none while a snapshot is still arriving). */
  accept(message: HostToWebviewMessage): HostToWebviewMessage[] {
    if (message.type === 'snapshot') {
      this.arriving = undefined;
      if (!message.partsToFollow) return [message];
      this.arriving = {
        snapshot: message,
        pages: [...message.state.pages],
        positions: [...message.state.positions],
        remaining: message.partsToFollow,
        held: [],
      };
      return [];
    }
    const arriving = this.arriving;
    if (message.type === 'snapshot_part') {
      // A part of no snapshot (its start was replaced) is dropped.
      if (!arriving) return [];
      arriving.pages.push(...message.pages);
      arriving.positions.push(...message.positions);
      if (--arriving.remaining > 0) return [];
      this.arriving = undefined;
      const { partsToFollow: _whole, ...snapshot } = arriving.snapshot;
      return [{ ...snapshot, state: { ...snapshot.state, pages: arriving.pages, positions: arriving.positions } }, ...arriving.held];
    }
    if (arriving && message.type === 'actions') {
      arriving.held.push(message);
      return [];
    }
    return [message];
  }
}
