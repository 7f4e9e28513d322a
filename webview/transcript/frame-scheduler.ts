/**
 * Asks for animation frames for one drawing callback, at most one at a time. After a frame whose drawing ran
 * past the frame's work budget, the next frame is asked for from a timer task instead of at once, whether the
 * frame itself or a message after it asks: Chromium runs a frame that is already due before any waiting timer,
 * so two long frames in a row held the main thread for 50 ms and more while a long message streamed. The timer
 * in between lets the page's own timers run first. (A 1 ms timer, not 0: Chromium runs zero-delay timers from a
 * queue of their own, ahead of timers that are already overdue.)
 */
import { FRAME_WORK_MS } from './frame-budget';

/** The page's frames and timers; DOM-free here so the scheduler is unit-tested with a clock of its own. */
export interface FrameClock {
  requestFrame(callback: () => void): void;
  /** Runs `callback` from a timer task, after the timers already due. */
  afterTimers(callback: () => void): void;
  now(): number;
}

export class FrameScheduler {
  private requested = false;
  private drawing = false;
  private disposed = false;
  /** The last frame's drawing ran past the budget: the next frame is asked for after the timers. */
  private afterLongFrame = false;

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

  private readonly run = (): void => {
    this.requested = false;
    if (this.disposed) return;
    this.drawing = true;
    const began = this.clock.now();
    try {
      this.draw();
    } finally {
      this.drawing = false;
    }
    this.afterLongFrame = this.clock.now() - began > FRAME_WORK_MS;
    if (this.requested && !this.disposed) this.schedule();
  };

  private schedule(): void {
    if (this.afterLongFrame) this.clock.afterTimers(() => this.clock.requestFrame(this.run));
    else this.clock.requestFrame(this.run);
  }
}
