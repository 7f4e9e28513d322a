/**
 * The share of one animation frame that rendering may spend, so the main thread is never blocked for long:
 * work that does not fit is left for the next frame. One budget is shared by every view drawn in the frame.
 *
 * Two allowances, whichever runs out first: script time, and characters of new text put into the page. Script
 * time alone let a flood through: a 4 KB paragraph renders in a fraction of a millisecond but costs the layout
 * that follows several times that (about 2 ms each on a busy 2-core machine), so a frame that fit 165 of them in
 * its script time held the thread for 300 ms in layout. In code-server the chat's frame shares that thread with
 * the workbench, and every command the user gave waited behind it (test/integration/host-floods.test.ts).
 */
import type { WorkBudget } from '../markdown/markdown-stream';

/** Render work per frame (ms): leaves room for style, layout and paint within a 60 Hz frame. */
export const FRAME_WORK_MS = 8;

/**
 * Characters of new text drawn per frame, at most: about 8 paragraphs of 4 KB, a few milliseconds of layout idle and
 * some 15 ms on a busy machine; a slower machine gets fewer (layout-pace.ts). At 60 frames a second that still shows 2 MB a second, ten times the rate of a fast
 * agent's stream (the webview bench's 200 KB/s).
 */
export const FRAME_CHARS = 32_000;

/**
 * Render work per frame (ms) for the entries in view, which the user is looking at: past the budget, but not
 * without end. With the CPU throttled 2x (issue 31), the frame after a long conversation's first one drew the rest
 * of the view at once (six entries with code, 18-21 ms) and laid them out (18-25 ms): over 50 ms with any task
 * before it. With 16 ms such frames still read 52-60 ms in 3 runs of 6 (the drawing overshoots by an entry, and
 * layout takes about as long again); with 12, 50-58 in 2 of 6. At full speed the view fits in it as before.
 */
export const IN_VIEW_WORK_MS = 12;

export class FrameBudget implements WorkBudget {
  private readonly deadline: number;
  private readonly inViewDeadline: number;
  private chars = 0;

  /** `maxChars`: this frame's character allowance (the transcript learns it from layout: layout-pace.ts). */
  constructor(
    milliseconds = FRAME_WORK_MS,
    private readonly maxChars = FRAME_CHARS,
  ) {
    const now = performance.now();
    this.deadline = now + milliseconds;
    this.inViewDeadline = now + Math.max(milliseconds, IN_VIEW_WORK_MS);
  }

  /** Characters of text put where they are laid out this frame. */
  get charsSpent(): number {
    return this.chars;
  }

  /** This frame's character allowance. */
  get frameChars(): number {
    return this.maxChars;
  }

  exhausted(): boolean {
    return this.chars >= this.maxChars || performance.now() >= this.deadline;
  }

  /** The allowance for entries in view (IN_VIEW_WORK_MS) is spent. Characters are not counted: a view is small. */
  inViewExhausted(): boolean {
    return performance.now() >= this.inViewDeadline;
  }

  spend(chars: number, layoutDeferred = false): void {
    if (!layoutDeferred) this.chars += chars;
  }

  now(): number {
    return performance.now();
  }
}
