/**
 * The webview's half of the host's flow control (src/views/action-poster.ts): after a frame that drew the
 * conversation up to some action number has been painted, the host hears that number (`drawn`), and only then
 * posts the next batch of streamed chunks. Acknowledging on arrival instead would let a host outrun a view that
 * cannot draw as fast: what matters is what the user sees. Numbers that draw nothing new (stale ones, dropped by
 * the sync) are acknowledged at once. A view that draws no frames (hidden) acknowledges nothing: the host gives up
 * waiting on its own. DOM-free: the page gives it how to run a task after the frame being drawn is painted.
 */
export class DrawnAcks {
  /** The highest number the host has been told of (a new conversation's snapshot is number 0). */
  private told = -1;
  /** The highest number a frame drew, waiting for that frame's paint. */
  private waiting: number | undefined;

  /**
   * @param send tells the host the view has drawn up to `seq`
   * @param afterPaint runs its callback in a task after the frame being drawn now has been painted
   */
  constructor(
    private readonly send: (seq: number) => void,
    private readonly afterPaint: (callback: () => void) => void,
  ) {}

  /** A snapshot starts the count afresh (the host's count restarts with it, e.g. after the view reloaded). */
  reset(): void {
    this.told = -1;
    this.waiting = undefined;
  }

  /** The frame being drawn shows the conversation up to `seq`. */
  drew(seq: number): void {
    if (seq <= this.told || (this.waiting !== undefined && seq <= this.waiting)) return;
    const first = this.waiting === undefined;
    this.waiting = seq;
    if (first) this.afterPaint(() => this.tell());
  }

  /** Up to `seq` is in the view already (nothing new to draw): the host hears it now, unless a paint is awaited. */
  alreadyShown(seq: number): void {
    if (this.waiting !== undefined) return this.drew(seq);
    if (seq <= this.told) return;
    this.told = seq;
    this.send(seq);
  }

  private tell(): void {
    const seq = this.waiting;
    this.waiting = undefined;
    if (seq === undefined || seq <= this.told) return;
    this.told = seq;
    this.send(seq);
  }
}
