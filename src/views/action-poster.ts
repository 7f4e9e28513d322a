/**
 * Posts the store's actions to the webview with sequence numbers. Chunks are merged, so the bytes posted per chunk
 * stay proportional to the chunk; any other action flushes them first, so order is kept. A snapshot (on `ready`
 * or `resync`) flushes first and carries the current sequence number.
 *
 * Chunks are throttled with a leading edge: after a quiet window, what arrived is posted as soon as the current
 * read has been handled; while chunks keep coming, at most one post per window. And they wait for the receiver:
 * while MAX_IN_FLIGHT posts are not yet delivered (the sink's promise: VS Code settles `postMessage` once the
 * workbench has handed the message to the webview), chunks keep merging here instead of queueing in the
 * transport. Without that, a terminal flood posted a display-sized text every window (8 MB/s), faster than the
 * browser-hosted workbench reads, and every later message (a command's answer too) waited behind tens of seconds
 * of backlog (test/integration/host-floods.test.ts).
 */
import { isChunkAction, mergeChunkActions } from '../shared/coalesce';
import type { TranscriptAction } from '../shared/actions';
import type { TranscriptState } from '../shared/model';
import type { HostToWebviewMessage } from '../shared/webview-protocol';
import { postSnapshotPaced, snapshotMessages } from '../shared/snapshot-parts';

/**
 * The least time between two posts of chunks. Half a 60 Hz frame: a chunk that arrives early in a frame still
 * makes that frame (with a full frame, p95 chunk-to-paint sat at the 33 ms target; with half, 24 ms, `npm run
 * bench`), and the view renders once per frame however many posts arrive.
 */
export const CHUNK_WINDOW_MS = 8;

/**
 * After a post that carried a lot of terminal output (a flood), the next waits this long: the card shows a
 * display-sized tail that the webview redraws on each post, on the workbench's own thread in the browser, and
 * delivery does not include that redraw. Four redraws a second still look live.
 */
export const TERMINAL_FLOOD_WINDOW_MS = 250;
const TERMINAL_FLOOD_CHARS = 8_192;

/** Posts not yet delivered after which chunks wait: two, so one is on its way while the receiver reads the other. */
export const MAX_IN_FLIGHT = 2;

/** Posts a message; a promise it returns settles once the receiver has it (either way), which paces the chunks. */
export type WebviewSink = (message: HostToWebviewMessage) => PromiseLike<unknown> | undefined;

export class ActionPoster {
  private seq = 0;
  private pending: TranscriptAction[] = [];
  private cancelScheduled: (() => void) | undefined;
  private lastPostAt = -Infinity;
  private lastPostFlooded = false;
  private cancelParts: () => void = () => undefined;
  private inFlight = 0;
  private disposed = false;

  constructor(
    private readonly sink: WebviewSink,
    private readonly windowMs = CHUNK_WINDOW_MS,
  ) {}

  push(action: TranscriptAction): void {
    const last = this.pending[this.pending.length - 1];
    const merged = last && mergeChunkActions(last, action);
    if (merged) this.pending[this.pending.length - 1] = merged;
    else this.pending.push(action);
    if (isChunkAction(action)) this.schedule();
    else this.flush();
  }

  private schedule(): void {
    if (this.cancelScheduled || this.inFlight >= MAX_IN_FLIGHT) return;
    const window = this.lastPostFlooded ? Math.max(this.windowMs, TERMINAL_FLOOD_WINDOW_MS) : this.windowMs;
    const wait = this.lastPostAt + window - performance.now();
    if (wait <= 0) {
      // Quiet until now: post once the chunks of this read are all in (they arrive in one turn of the loop).
      const immediate = setImmediate(() => this.flush());
      this.cancelScheduled = () => clearImmediate(immediate);
    } else {
      const timer = setTimeout(() => this.flush(), wait);
      this.cancelScheduled = () => clearTimeout(timer);
    }
  }

  flush(): void {
    this.cancelScheduled?.();
    this.cancelScheduled = undefined;
    if (this.pending.length === 0) return;
    this.lastPostAt = performance.now();
    this.lastPostFlooded = this.pending.some((action) => action.type === 'terminal_output' && action.text.length >= TERMINAL_FLOOD_CHARS);
    const actions = this.pending;
    this.pending = [];
    const firstSeq = this.seq + 1;
    this.seq += actions.length;
    this.track(this.sink({ type: 'actions', firstSeq, actions }));
  }

  /** Counts a post until it is delivered; chunks held back meanwhile are scheduled when it is. */
  private track(delivery: PromiseLike<unknown> | undefined): void {
    if (!delivery) return;
    this.inFlight++;
    const delivered = (): void => {
      this.inFlight--;
      if (!this.disposed && this.pending.length > 0) this.schedule();
    };
    delivery.then(delivered, delivered);
  }

  snapshot(state: TranscriptState, conversation: { readonly conversationId: string; readonly draft: string }): void {
    this.flush();
    this.cancelParts();
    // Actions posted while the older parts are still on their way wait in the webview until the snapshot is whole.
    this.cancelParts = postSnapshotPaced(snapshotMessages(this.seq, state, conversation), this.sink);
  }

  dispose(): void {
    this.disposed = true;
    this.cancelParts();
    this.cancelScheduled?.();
    this.cancelScheduled = undefined;
    this.pending = [];
  }
}
