/**
 * The share of one animation frame that rendering may spend, so the main thread is never blocked for long:
 * work that does not fit is left for the next frame. One budget is shared by every view drawn in the frame.
 */
import type { WorkBudget } from '../markdown/markdown-stream';

/** Render work per frame (ms): leaves room for style, layout and paint within a 60 Hz frame. */
export const FRAME_WORK_MS = 8;

export class FrameBudget implements WorkBudget {
  private readonly deadline: number;

  constructor(milliseconds = FRAME_WORK_MS) {
    this.deadline = performance.now() + milliseconds;
  }

  exhausted(): boolean {
    return performance.now() >= this.deadline;
  }

  now(): number {
    return performance.now();
  }
}
