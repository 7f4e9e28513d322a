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
 *
 * Why delivery and not the webview's own word (issue 31): an acknowledgement posted by the chat once it had drawn
 * (or even once a message arrived) was measured in the real VS Code against this pacing, back to back on this
 * 2-core machine, and lost: p95 write-to-paint 1,337 ms (acknowledged when painted) and 538 ms (when arrived)
 * against 230-266 ms here. The webview's message to the host crosses the workbench's busy renderer thread once
 * more than VS Code's own answer to `postMessage`, so the host waited longer and the chat fell further behind.
 *
 * A delivery that never settles (it should not, but the host must not depend on it) counts as lost after
 * DELIVERY_TIMEOUT_MS, so chunks never wait forever.
 */
import { canMergeChunks, chunkText, isChunkAction, mergeChunkActions, withChunkText } from '../shared/coalesce';
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
// A wider window was measured against this one in the real VS Code (issue 31, `BENCH_ONLY=stream`, 16 and 33 ms,
// idle and with the workbench's CPU throttled 3x): fewer posts, but the workbench's thread stayed as busy (each
// post then brings more to draw) and p95 write-to-paint was no better (3x: 319 and 337 ms against 130-219). When
// delivery is slow, MAX_IN_FLIGHT already thins the posts (about 30 a second at 3x, against 75 idle).

/**
 * After a post that carried a lot of terminal output (a flood), the next waits this long: the card shows a
 * display-sized tail that the webview redraws on each post, on the workbench's own thread in the browser, and
 * delivery does not include that redraw. Four redraws a second still look live. A lot is what arrived from the
 * command since the last post, not what the post carries: with a low `outputByteLimit` the merge keeps 2,000
 * characters of a flood, and judged by that the flood was posted at every 8 ms window instead.
 */
export const TERMINAL_FLOOD_WINDOW_MS = 250;
const TERMINAL_FLOOD_CHARS = 8_192;

/** Posts not yet delivered after which chunks wait: two, so one is on its way while the receiver reads the other. */
export const MAX_IN_FLIGHT = 2;

/** A post whose delivery has not settled by then is taken as lost, and no longer holds chunks back. */
export const DELIVERY_TIMEOUT_MS = 2_000;

/** What the pacing did since the poster was made (the chat's log line per turn, and the stream bench, read it). */
export interface FlowCounts {
  /** Posts of actions counted in flight. */
  posted: number;
  /** Of those, delivered (or refused: either way settled). */
  delivered: number;
  /** Given up after DELIVERY_TIMEOUT_MS without settling. */
  timedOut: number;
}

export interface PosterOptions {
  readonly windowMs?: number;
  readonly deliveryTimeoutMs?: number;
}

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
 * Characters of the post's last message that wait in `pending` (the chunks at its front that continue it): the post's
 * `heldChars`. A stream faster than the chat takes it waits here in POST_CHARS posts, so the chat never has more
 * than two of them and cannot tell a backlog of megabytes from a steady stream; told, it draws what is far from the
 * end where it is not laid out (issue 31: a 20 MB message was laid out whole, 4 MB of it, with the workbench's
 * thread saturated for seconds and a command waiting behind it). A terminal's output is not counted: its card
 * shows the end only.
 */
function heldOf(post: readonly TranscriptAction[], pending: readonly TranscriptAction[]): number {
  const last = post[post.length - 1];
  if (!last || last.type !== 'session_update' || chunkText(last) === undefined) return 0;
  let held = 0;
  for (const action of pending) {
    if (!canMergeChunks(last, action)) break;
    held += chunkText(action)?.length ?? 0;
  }
  return held;
}

/** Posts a message; a promise it returns settles once the receiver has it (either way), which paces the chunks. */
export type WebviewSink = (message: HostToWebviewMessage) => PromiseLike<unknown> | undefined;

export class ActionPoster {
  private seq = 0;
  private pending: TranscriptAction[] = [];
  private cancelScheduled: (() => void) | undefined;
  private lastPostAt = -Infinity;
  private lastPostFlooded = false;
  /** Characters of terminal output pushed since the last post (before the merge dropped any). */
  private terminalCharsSincePost = 0;
  private cancelParts: () => void = () => undefined;
  private inFlight = 0;
  private disposed = false;
  private readonly windowMs: number;
  private readonly deliveryTimeoutMs: number;
  readonly counts: FlowCounts = { posted: 0, delivered: 0, timedOut: 0 };
  /** The give-up timers of the posts in flight (cleared on dispose). */
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();

  constructor(
    private readonly sink: WebviewSink,
    options: PosterOptions = {},
  ) {
    this.windowMs = options.windowMs ?? CHUNK_WINDOW_MS;
    this.deliveryTimeoutMs = options.deliveryTimeoutMs ?? DELIVERY_TIMEOUT_MS;
  }

  /** Posts not yet delivered (nor given up). */
  get undelivered(): number {
    return this.inFlight;
  }

  push(action: TranscriptAction): void {
    if (action.type === 'terminal_output') this.terminalCharsSincePost += action.text.length;
    const last = this.pending[this.pending.length - 1];
    // A message's chunk merges onto the last only while that fits one post: a backlog of megabytes (a fast agent,
    // a webview taking a post at a time) stays a list of post-sized chunks. Merged into one growing text, each
    // post's cut re-read (flattened) all that was left of it: seconds of this thread for a 20 MB message. A
    // terminal's output always merges: the merge keeps only the newest display's worth, so a flood stays one post.
    const merged =
      last && (last.type === 'terminal_output' || (chunkText(last)?.length ?? 0) < POST_CHARS) && mergeChunkActions(last, action);
    if (merged) this.pending[this.pending.length - 1] = merged;
    // A terminal's read alone is cut to what the display keeps, as a merge is: one 64 KB read posted whole was 64
    // times a 1,000-byte limit's card.
    else this.pending.push(action.type === 'terminal_output' ? withChunkText(action, action.text) : action);
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

  /** Posts what waits, up to POST_CHARS of chunk text; the rest is scheduled (it waits for a delivery). */
  flush(): void {
    this.cancelScheduled?.();
    this.cancelScheduled = undefined;
    if (this.pending.length === 0) return;
    this.lastPostAt = performance.now();
    const actions = takePost(this.pending);
    this.lastPostFlooded = this.terminalCharsSincePost >= TERMINAL_FLOOD_CHARS;
    this.terminalCharsSincePost = 0;
    const firstSeq = this.seq + 1;
    this.seq += actions.length;
    const heldChars = heldOf(actions, this.pending);
    this.track(
      this.sink({
        type: 'actions',
        firstSeq,
        actions,
        postedAt: performance.timeOrigin + performance.now(),
        ...(heldChars > 0 ? { heldChars } : {}),
      }),
    );
    if (this.pending.length > 0) this.schedule();
  }

  /** Counts a post until it is delivered (or given up); chunks held back meanwhile are scheduled when it is. */
  private track(delivery: PromiseLike<unknown> | undefined): void {
    if (!delivery) return;
    this.inFlight++;
    this.counts.posted++;
    let settled = false;
    const release = (outcome: 'delivered' | 'timedOut'): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      this.timers.delete(timer);
      this.inFlight--;
      this.counts[outcome]++;
      if (!this.disposed && this.pending.length > 0) this.schedule();
    };
    const timer = setTimeout(() => release('timedOut'), this.deliveryTimeoutMs);
    this.timers.add(timer);
    delivery.then(
      () => release('delivered'),
      () => release('delivered'),
    );
  }

  snapshot(state: TranscriptState, conversation: { readonly conversationId: string; readonly draft: string }): void {
    // Everything that waits goes before the snapshot (which carries the number of the last).
    while (this.pending.length > 0) this.flush();
    this.cancelParts();
    // Actions posted while the older parts are still on their way wait in the webview until the snapshot is whole.
    this.cancelParts = postSnapshotPaced(snapshotMessages(this.seq, state, conversation), this.sink);
  }

  dispose(): void {
    this.disposed = true;
    this.cancelParts();
    this.cancelScheduled?.();
    this.cancelScheduled = undefined;
    this.timers.forEach((timer) => clearTimeout(timer));
    this.timers.clear();
    this.pending = [];
  }
}
