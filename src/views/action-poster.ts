/**
 * Posts the store's actions to the webview with sequence numbers. Chunks are held for a short window
 * and merged, so the bytes posted per chunk stay proportional to the chunk; any other action flushes them first,
 * so order is kept. A snapshot (on `ready` or `resync`) flushes first and carries the current sequence number.
 */
import { isChunkAction, mergeChunkActions } from '../shared/coalesce';
import type { TranscriptAction } from '../shared/actions';
import type { TranscriptState } from '../shared/model';
import type { HostToWebviewMessage } from '../shared/webview-protocol';

/**
 * How long chunks wait to be merged. Half a 60 Hz frame: a chunk that arrives early in a frame still makes that
 * frame (with a full frame, p95 chunk-to-paint sat at the 33 ms target; with half, 24 ms, `npm run bench`), and
 * the view renders once per frame however many posts arrive.
 */
export const CHUNK_WINDOW_MS = 8;

export type WebviewSink = (message: HostToWebviewMessage) => void;

export class ActionPoster {
  private seq = 0;
  private pending: TranscriptAction[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly sink: WebviewSink,
    private readonly windowMs = CHUNK_WINDOW_MS,
  ) {}

  push(action: TranscriptAction): void {
    const last = this.pending[this.pending.length - 1];
    const merged = last && mergeChunkActions(last, action);
    if (merged) this.pending[this.pending.length - 1] = merged;
    else this.pending.push(action);
    if (isChunkAction(action)) {
      this.timer ??= setTimeout(() => this.flush(), this.windowMs);
    } else {
      this.flush();
    }
  }

  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.pending.length === 0) return;
    const actions = this.pending;
    this.pending = [];
    const firstSeq = this.seq + 1;
    this.seq += actions.length;
    this.sink({ type: 'actions', firstSeq, actions });
  }

  snapshot(state: TranscriptState): void {
    this.flush();
    this.sink({ type: 'snapshot', seq: this.seq, state });
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = [];
  }
}
