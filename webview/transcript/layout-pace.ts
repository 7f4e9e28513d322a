/**
 * How many characters of new text a frame may put into the page (FrameBudget's character allowance), learned from
 * what their layout costs on this machine. A fixed 32,000 (FRAME_CHARS) was tuned where layout is cheap: traced on a
 * 2-core machine half as fast (issue 31, a 3.9 MB flood of 4 KB paragraphs), the layout after such a frame took
 * 36-56 ms, most of it shaping the new text, and with the drawing before it the main thread was held 60-111 ms.
 * Text shaping costs about the same per character whatever the text, so each frame's layout time per character
 * sets the next frame's allowance: what would be laid out in LAYOUT_MS. Down at once (a slow frame is what the
 * user sees), back up by at most a quarter a frame, never below one paragraph's worth nor above FRAME_CHARS.
 * Pure: the transcript tells it when a frame drew and when the browser had laid that out.
 */
import { FRAME_CHARS } from './frame-budget';

/**
 * The style and layout a frame's new text may cost, ms. What it measures is only part of the frame's cost: pre-paint,
 * paint and layerizing grow with the text too, about as much again. At 12, frames with the renderer throttled 1.5x
 * (a slow 2-core machine's speed) laid out 4,400-7,800 characters, 20-27 ms after their drawing, and two such
 * frames back to back were the 2 MB message's longest blocks; at 8 the frame stays near 25 ms, drawing included.
 */
export const LAYOUT_MS = 8;
/** Always some progress: a 4 KB paragraph. */
export const MIN_FRAME_CHARS = 4_000;
/** A frame that put in less text than this says too little about the cost per character (fixed costs dominate). */
const MIN_SAMPLE_CHARS = 2_000;
/** At most this factor up per frame. */
const GROWTH = 1.25;

export class LayoutPace {
  private allowance = FRAME_CHARS;
  private drawn: { readonly chars: number; readonly at: number } | undefined;

  /** Characters of new text the next frame may put into the page. */
  get charsPerFrame(): number {
    return this.allowance;
  }

  /** A frame's drawing ended at `at` (ms), having put `chars` characters of text where they are laid out. */
  frameDrawn(chars: number, at: number): void {
    this.drawn = chars >= MIN_SAMPLE_CHARS ? { chars, at } : undefined;
  }

  /** The browser has laid out that frame, at `at` (ms). */
  laidOut(at: number): void {
    const drawn = this.drawn;
    this.drawn = undefined;
    if (!drawn) return;
    const perChar = Math.max(at - drawn.at, 0.1) / drawn.chars;
    const fits = LAYOUT_MS / perChar;
    this.allowance = Math.round(Math.min(FRAME_CHARS, Math.max(MIN_FRAME_CHARS, Math.min(fits, this.allowance * GROWTH))));
  }
}
