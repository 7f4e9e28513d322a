/**
 * Asks for animation frames for one drawing callback, at most one at a time. After a frame whose drawing ran
 * past the frame's work budget, the next frame is asked for from a timer task instead of at once, whether the
 * frame itself or a message after it asks: Chromium runs a frame that is already due before any waiting timer,
 * so two long frames in a row held the main thread for 50 ms and more while a long message streamed. The timer
 * in between lets the page's own timers run first. (A 1 ms timer, not 0: Chromium runs zero-delay timers from a
 * queue of their own, ahead of timers that are already overdue.)
 *
 * A frame's length counts the browser's layout of what was drawn, which comes after the drawing (the transcript
 * reads its heights after layout, never forcing it): told of it by `laidOut`, a frame whose drawing and layout
 * together ran past LAID_OUT_FRAME_MS takes back the next frame it asked for at once and asks for
 * it after the timers.
 */
import { FRAME_WORK_MS } from './frame-budget';

/**
 * Drawing plus layout (ms) past which the next frame waits for the timers: half the main thread's 50 ms bound
 * (a 60 Hz frame and a half). Not the drawing's
 * budget (FRAME_WORK_MS): the layout of a budget's worth of drawing takes longer than the budget on a slow
 * machine, so nearly every frame of a long stream deferred the next one, the frame rate halved, and a 2 MB
 * message fell behind the stream (shown 1.1-2.5 s after the last post with the CPU throttled 2.5x, against about
 * 0.1 s). Two frames of this length in a row still leave the main thread well within its 50 ms.
 */
export const LAID_OUT_FRAME_MS = 25;
/**
 * After such a frame, the next one waits this share of the frame's length (drawing and layout) from its end. In
 * code-server the chat's frames run on the workbench's own main thread: a Chromium trace of the workbench's page
 * while a 20 MB message streamed had the thread busy 84% of the time, 56% of it in frames of 29 ms on average
 * (16 a second), and a command waited 205-237 ms at p95 behind them. A rest as long as the frame leaves the
 * workbench at least half of its thread while the chat's frames are long; short frames are unaffected. Measured
 * back to back (host-floods.test.ts, the 20 MB message, a machine losing 12-17% to steal): p95 361 and 397 ms with
 * the rest, 537 and 666 without; the webview bench's long messages showed no change (fully shown within 10 ms).
 */
export const REST_PER_LONG_FRAME = 1;
/**
 * Two frames back to back are one block of the main thread: Chromium runs a frame already due before any task.
 * Traced (issue 31, a 2 MB message streamed on a slow 2-core machine): every block over 50 ms was two frames of
 * 22-30 ms each, with no task between them; the first one's drawing and layout were under LAID_OUT_FRAME_MS and
 * its paint put it over, so neither rule above saw it. So a frame that begins within BACK_TO_BACK_MS of the last
 * one's layout (only that frame's paint between them), where that whole frame, drawing to paint, took over
 * WHOLE_FRAME_MS, draws nothing and asks for the next frame after the timers: the page's own tasks (in
 * code-server, the workbench's) come between the two. Measured (BENCH_WEBVIEW=message, 3 runs each): the 2 MB
 * message's longest block 72, 48, 52 ms before and 34, 45, 50 after, its blocks over 50 ms 8, 0, 3 against 0;
 * the message still shown within 32-44 ms of its last post.
 */
export const BACK_TO_BACK_MS = 15;
/**
 * A whole frame (drawing to paint, ms) past which the next frame, straight after it, waits for the tasks. 20 let
 * through pairs of 15 and 36 ms (the first under it, the second over) with the renderer throttled 1.5x: the 2 MB
 * message's longest block 53-61 ms in 3 runs against 42-49 at 17. At 14 most frames at full speed waited too, the
 * frame rate halved, and that message's end was shown 90-97 ms after its last post in 4 runs against 27, 36 and
 * 118 at 17.
 */
export const WHOLE_FRAME_MS = 17;
// Frames are not capped below the display's rate. Measured (issue 31, the real VS Code at 1,000 chunks/s): at most
// 30 a second cut the workbench renderer's CPU over the stream by about 30% (in code-server each frame of the
// chat re-runs the lifecycle of the whole workbench page), but the chunks waited that much longer for their frame
// and p95 write-to-paint did not improve (63 ms against 53-70).
// Nor does a chain of short frames yield to the page's tasks. With the CPU throttled 2x, a 2 MB message's frames
// (about 15 ms each, drawing and layout) ran back to back and the longest blocks were three of them; a rule that
// put the next frame after the timers once a timer had waited 20 ms made it worse (longest block 78-87 ms in 4
// runs against 56-65): the frames it skipped let the stream fall behind, and catching up costs a longer frame.

/** The page's frames and timers; DOM-free here so the scheduler is unit-tested with a clock of its own. */
export interface FrameClock {
  /** Returns what cancels the frame. */
  requestFrame(callback: () => void): () => void;
  /** Runs `callback` from a timer task, after the timers already due, and no sooner than `delayMs` from now. */
  afterTimers(callback: () => void, delayMs?: number): void;
  now(): number;
}

export class FrameScheduler {
  private requested = false;
  private drawing = false;
  private disposed = false;
  /** The last frame's drawing ran past the budget: the next frame is asked for after the timers. */
  private afterLongFrame = false;
  /** When the last frame's drawing began, until its layout is known. */
  private drawnAt: number | undefined;
  /** No frame is asked for before this time (ms): the rest after a long frame. */
  private restUntil = -Infinity;
  /** The last frame drawn, once the browser has laid it out: when its drawing began and when its layout was done. */
  private lastLaidOut: { began: number; at: number } | undefined;
  /** Takes back the next frame, while it was asked for at once and has not come. */
  private cancelFrame: (() => void) | undefined;

  /** `onRequest` counts the frames asked for (render statistics). */
  constructor(
    private readonly draw: () => void,
    private readonly onRequest: () => void,
    private readonly clock: FrameClock,
  ) {}

  /** A frame is asked for and not drawn yet. */
  get pending(): boolean {
    return this.requested;
  }

  request(): void {
    if (this.requested || this.disposed) return;
    this.requested = true;
    this.onRequest();
    // Asked from inside a frame: asked for once the frame's length is known.
    if (!this.drawing) this.schedule();
  }

  dispose(): void {
    this.disposed = true;
  }

  /** The browser has laid out what the last frame drew (before painting it). */
  laidOut(): void {
    const began = this.drawnAt;
    this.drawnAt = undefined;
    if (began === undefined) return;
    this.lastLaidOut = { began, at: this.clock.now() };
    const took = this.clock.now() - began;
    if (took <= LAID_OUT_FRAME_MS) return;
    this.restUntil = this.clock.now() + took * REST_PER_LONG_FRAME;
    if (this.afterLongFrame) return;
    this.afterLongFrame = true;
    if (!this.cancelFrame) return;
    this.cancelFrame();
    this.cancelFrame = undefined;
    this.schedule();
  }

  private readonly run = (): void => {
    this.requested = false;
    this.cancelFrame = undefined;
    if (this.disposed) return;
    const began = this.clock.now();
    const straightAfterLongFrame = this.cameStraightAfterLongFrame(began);
    this.lastLaidOut = undefined;
    if (straightAfterLongFrame) {
      this.requested = true;
      this.clock.afterTimers(() => this.askFrame());
      return;
    }
    this.drawing = true;
    try {
      this.draw();
    } finally {
      this.drawing = false;
    }
    this.drawnAt = began;
    this.afterLongFrame = this.clock.now() - began > FRAME_WORK_MS;
    if (this.requested && !this.disposed) this.schedule();
  };

  private cameStraightAfterLongFrame(now: number): boolean {
    const last = this.lastLaidOut;
    return last !== undefined && now - last.began > WHOLE_FRAME_MS && now - last.at < BACK_TO_BACK_MS;
  }

  private schedule(): void {
    if (this.afterLongFrame) this.clock.afterTimers(() => this.askFrame());
    else this.askFrame();
  }

  private askFrame(): void {
    if (this.disposed) return;
    const rest = this.restUntil - this.clock.now();
    if (rest > 0) {
      this.clock.afterTimers(() => this.askFrame(), rest);
      return;
    }
    this.cancelFrame = this.clock.requestFrame(this.run);
  }
}
