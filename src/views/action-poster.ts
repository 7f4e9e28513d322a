/**
 * Posts the store's actions to the webview with sequence numbers. Chunks are merged, so the bytes posted per chunk
 * stay proportional to the chunk; any other action flushes them first, so order is kept. A snapshot (on `ready`
 * or `resync`) flushes first and carries the current sequence number.
 *
 * Chunks are flow-controlled by acknowledgement: the webview says which sequence number it has drawn (`drawn`,
 * sent after the frame that shows it was painted), and while MAX_IN_FLIGHT batches are not acknowledged, chunks
 * keep merging here into the next batch. A receiver that draws every frame gets every frame; a slow one (a loaded
 * 2-core machine, where the browser-hosted workbench reads every message from the extension host one at a time on
 * its main thread) gets fewer, larger messages; the transcript is the same either way. A fixed post window tuned on
 * one machine was the wrong tool: at 8 ms a slow workbench queued hundreds of messages and the chat fell a third of
 * a second behind the agent (issue 31), and a terminal flood queued tens of seconds of backlog in front of every
 * command (test/integration/host-floods.test.ts).
 *
 * Acknowledgements can stop coming: a view hidden while retained draws no frames, a reloaded view forgets what it
 * had (it asks for a snapshot, which starts the count afresh), a disposed one answers nothing. A batch not
 * acknowledged within ACK_TIMEOUT_MS counts as lost, so a silent view costs at most one merged post per timeout
 * and nothing waits forever. A post the sink says was not delivered is not waited for at all.
 */
import { chunkText, isChunkAction, mergeChunkActions, withChunkText } from '../shared/coalesce';
import type { TranscriptAction } from '../shared/actions';
import type { TranscriptState } from '../shared/model';
import type { HostToWebviewMessage } from '../shared/webview-protocol';
import { postSnapshotPaced, snapshotMessages } from '../shared/snapshot-parts';

/** Batches posted and not yet drawn after which chunks wait: two, so one is on its way while the receiver draws the other. */
export const MAX_IN_FLIGHT = 2;

/** A batch not acknowledged by then is taken as lost (the view is hidden, reloading or gone). */
export const ACK_TIMEOUT_MS = 1_000;

/**
 * After a post that carried a lot of terminal output (a flood), the next chunks wait this long as well as for the
 * acknowledgement: the card shows a display-sized tail that the webview rebuilds on each post, on the workbench's
 * own thread in the browser (the webview shares its renderer), and a view that keeps up would otherwise rebuild it
 * every frame, taking the CPU a 2-core machine's extension host needs. Four redraws a second still look live.
 */
export const TERMINAL_FLOOD_WINDOW_MS = 250;
const TERMINAL_FLOOD_CHARS = 8_192;

/**
 * Characters of chunk text per post; what is over waits for the next. In code-server the workbench reads every
 * post on its own thread (about a second per megabyte on a busy 2-core machine), and a user's command waits behind
 * the posts on their way: merged while two were undelivered, a 20 MB message went out in posts of megabytes and a
 * command waited 5-10 s. Two posts this size cost it a few tens of milliseconds.
 */
export const POST_CHARS = 64_000;

/**
 * Takes one post's actions from the front of `pending`: actions while their chunk text fits POST_CHARS, and of a
 * chunk that does not fit, its first part (its rest stays first in `pending`). Applying the parts one after the
 * other is applying the chunk: chunks are merged on the same rule (shared/coalesce.ts).
 */
function takePost(pending: TranscriptAction[]): TranscriptAction[] {
  let room = POST_CHARS;
  let taken = 0;
  for (; taken < pending.length && room > 0; taken++) {
    const action = pending[taken]!;
    const text = chunkText(action);
    if (text === undefined || text.length <= room) {
      room -= text?.length ?? 0;
      continue;
    }
    // Never between the halves of a surrogate pair: each part is shown on its own.
    const code = text.charCodeAt(room - 1);
    const cut = code >= 0xd800 && code <= 0xdbff ? room - 1 : room;
    if (cut <= 0) break;
    const post = pending.slice(0, taken);
    post.push(withChunkText(action, text.slice(0, cut)));
    pending.splice(0, taken + 1, withChunkText(action, text.slice(cut)));
    return post;
  }
  return pending.splice(0, taken);
}

/**
 * Posts a message. What it returns, if anything, settles once VS Code has handed the message on: `false` when it
 * could not (the webview is gone), and then no acknowledgement will come for it.
 */
export type WebviewSink = (message: HostToWebviewMessage) => PromiseLike<boolean> | undefined;

export interface PosterOptions {
  readonly maxInFlight?: number;
  readonly ackTimeoutMs?: number;
}

/** What the flow control did since the poster was made: how its batches left the in-flight count. */
export interface FlowCounts {
  /** Batches posted and counted in flight (snapshots included). */
  posted: number;
  /** Released by the view's `drawn`. */
  acknowledged: number;
  /** Given up after ACK_TIMEOUT_MS without an acknowledgement. */
  timedOut: number;
  /** VS Code said the view could not get them. */
  undelivered: number;
}

/** A batch on its way: the sequence number of its last action, and when it was posted. */
interface InFlight {
  readonly seq: number;
  readonly at: number;
}

export class ActionPoster {
  private seq = 0;
  private pending: TranscriptAction[] = [];
  private cancelScheduled: (() => void) | undefined;
  private cancelParts: () => void = () => undefined;
  private inFlight: InFlight[] = [];
  /** Counts of what happened to the batches (the log and the bench read them: a view whose acknowledgements never arrive shows as timeouts). */
  readonly counts: FlowCounts = { posted: 0, acknowledged: 0, timedOut: 0, undelivered: 0 };
  private ackTimer: ReturnType<typeof setTimeout> | undefined;
  /** When the last post that carried a terminal flood went, if one did. */
  private floodPostedAt = -Infinity;
  private disposed = false;
  private readonly maxInFlight: number;
  private readonly ackTimeoutMs: number;

  constructor(
    private readonly sink: WebviewSink,
    options: PosterOptions = {},
  ) {
    this.maxInFlight = options.maxInFlight ?? MAX_IN_FLIGHT;
    this.ackTimeoutMs = options.ackTimeoutMs ?? ACK_TIMEOUT_MS;
  }

  /** Batches posted and not yet acknowledged (for tests and the bench). */
  get unacknowledged(): number {
    return this.inFlight.length;
  }

  push(action: TranscriptAction): void {
    if (this.disposed) return;
    const last = this.pending[this.pending.length - 1];
    const merged = last && mergeChunkActions(last, action);
    if (merged) this.pending[this.pending.length - 1] = merged;
    else this.pending.push(action);
    if (isChunkAction(action)) this.schedule();
    else this.flush();
  }

  /** The webview has drawn everything up to `seq` (and painted it): the batches that held are no longer in flight. */
  drawn(seq: number): void {
    if (this.disposed) return;
    const before = this.inFlight.length;
    this.inFlight = this.inFlight.filter((batch) => batch.seq > seq);
    this.counts.acknowledged += before - this.inFlight.length;
    this.armAckTimer();
    this.schedule();
  }

  private schedule(): void {
    if (this.cancelScheduled || this.pending.length === 0 || this.inFlight.length >= this.maxInFlight) return;
    const wait = this.floodPostedAt + TERMINAL_FLOOD_WINDOW_MS - performance.now();
    if (wait > 0) {
      const timer = setTimeout(() => this.flush(), wait);
      this.cancelScheduled = () => clearTimeout(timer);
      return;
    }
    // Post once the chunks of this read are all in (they arrive in one turn of the loop).
    const immediate = setImmediate(() => this.flush());
    this.cancelScheduled = () => clearImmediate(immediate);
  }

  /**
   * Posts what waits now, up to POST_CHARS of chunk text, whatever is in flight (any action other than a chunk goes
   * at once, in order); the rest is scheduled (it waits for an acknowledgement).
   */
  flush(): void {
    this.cancelScheduled?.();
    this.cancelScheduled = undefined;
    if (this.pending.length === 0 || this.disposed) return;
    const actions = takePost(this.pending);
    if (actions.some((action) => action.type === 'terminal_output' && action.text.length >= TERMINAL_FLOOD_CHARS))
      this.floodPostedAt = performance.now();
    const firstSeq = this.seq + 1;
    this.seq += actions.length;
    this.post({ type: 'actions', firstSeq, actions, postedAt: performance.timeOrigin + performance.now() }, this.seq);
    if (this.pending.length > 0) this.schedule();
  }

  snapshot(state: TranscriptState, conversation: { readonly conversationId: string; readonly draft: string }): void {
    // Everything that waits goes before the snapshot (which carries the number of the last).
    while (this.pending.length > 0 && !this.disposed) this.flush();
    this.cancelParts();
    // The view (re)starts from this snapshot: what was in flight before it is moot, and the snapshot itself is
    // acknowledged once drawn whole. Actions posted while its parts are on their way wait in the webview.
    this.inFlight = [];
    const batch: InFlight = { seq: this.seq, at: performance.now() };
    this.cancelParts = postSnapshotPaced(snapshotMessages(this.seq, state, conversation), (message) => {
      const delivery = this.sink(message);
      if (message.type === 'snapshot') this.track(batch, delivery);
    });
  }

  dispose(): void {
    this.disposed = true;
    this.cancelParts();
    this.cancelScheduled?.();
    this.cancelScheduled = undefined;
    if (this.ackTimer !== undefined) clearTimeout(this.ackTimer);
    this.ackTimer = undefined;
    this.pending = [];
    this.inFlight = [];
  }

  private post(message: HostToWebviewMessage, seq: number): void {
    this.track({ seq, at: performance.now() }, this.sink(message));
  }

  /** Counts `batch` as in flight until it is acknowledged, unless it was not delivered. */
  private track(batch: InFlight, delivery: PromiseLike<boolean> | undefined): void {
    // No webview to post to: nothing will be drawn, and nothing is waited for (a view that loads asks for a snapshot).
    if (!delivery) return;
    this.inFlight.push(batch);
    this.counts.posted++;
    this.armAckTimer();
    delivery.then(
      (delivered) => {
        if (!delivered) this.forget(batch);
      },
      () => this.forget(batch),
    );
  }

  /** A batch that will never be acknowledged. */
  private forget(batch: InFlight): void {
    if (this.disposed || !this.inFlight.includes(batch)) return;
    this.inFlight = this.inFlight.filter((other) => other !== batch);
    this.counts.undelivered++;
    this.armAckTimer();
    this.schedule();
  }

  /** One timer, for the oldest batch in flight: when it fires, batches older than the timeout are given up. */
  private armAckTimer(): void {
    if (this.ackTimer !== undefined) clearTimeout(this.ackTimer);
    this.ackTimer = undefined;
    const oldest = this.inFlight[0];
    if (!oldest || this.disposed) return;
    this.ackTimer = setTimeout(
      () => {
        this.ackTimer = undefined;
        const cutoff = performance.now() - this.ackTimeoutMs;
        const before = this.inFlight.length;
        this.inFlight = this.inFlight.filter((batch) => batch.at > cutoff);
        this.counts.timedOut += before - this.inFlight.length;
        this.armAckTimer();
        this.schedule();
      },
      Math.max(0, oldest.at + this.ackTimeoutMs - performance.now()),
    );
  }
}
