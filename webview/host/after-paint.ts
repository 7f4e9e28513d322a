/**
 * Work that must not hold up the frame on its way: it runs in the task after the next frame's paint (the task after
 * an animation frame's callbacks runs after that frame is painted). A page that is not rendered (hidden, or behind
 * another panel) gets no animation frames: there it runs after `hiddenMs` all the same.
 */
function afterNextPaint(callback: () => void, hiddenMs = 250): void {
  let done = false;
  const run = (): void => {
    if (done) return;
    done = true;
    clearTimeout(fallback);
    callback();
  };
  const fallback = setTimeout(run, hiddenMs);
  requestAnimationFrame(() => setTimeout(run, 0));
}

/**
 * Coalesces calls into one `callback` after the next paint; `flush` runs a waiting one at once (the page is going).
 */
export class AfterPaint {
  private waiting = false;

  constructor(private readonly callback: () => void) {}

  request(): void {
    if (this.waiting) return;
    this.waiting = true;
    afterNextPaint(() => this.flush());
  }

  flush(): void {
    if (!this.waiting) return;
    this.waiting = false;
    this.callback();
  }
}
