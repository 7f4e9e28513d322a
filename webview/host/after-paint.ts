/**
 * Work that must not hold up the frame on its way: it runs in the task after the next frame's paint (the task after
 * an animation frame's callbacks runs after that frame is painted). A page that is not rendered (hidden, or behind
 * another panel) gets no animation frames: there it runs after HIDDEN_PAGE_MS all the same.
 */
export interface PaintClock {
  readonly frame: (callback: () => void) => void;
  /** Runs `callback` after `ms`; returns what cancels it. */
  readonly timer: (callback: () => void, ms: number) => () => void;
}

export const HIDDEN_PAGE_MS = 250;

export function afterNextPaint(callback: () => void, clock: PaintClock): void {
  let done = false;
  const run = (): void => {
    if (done) return;
    done = true;
    cancelFallback();
    callback();
  };
  const cancelFallback = clock.timer(run, HIDDEN_PAGE_MS);
  clock.frame(() => void clock.timer(run, 0));
}

/**
 * Coalesces calls into one `callback` after the next paint; `flush` runs a waiting one at once (the page is going).
 */
export class AfterPaint {
  private waiting = false;

  constructor(
    private readonly callback: () => void,
    private readonly clock: PaintClock,
  ) {}

  request(): void {
    if (this.waiting) return;
    this.waiting = true;
    afterNextPaint(() => this.flush(), this.clock);
  }

  flush(): void {
    if (!this.waiting) return;
    this.waiting = false;
    this.callback();
  }
}
