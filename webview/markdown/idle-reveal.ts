/**
 * Shows what a stream drew behind while the page has nothing else to do. A group drawn behind is
 * content-visibility: hidden (chat.css): off the accessibility tree and out of reach of find, so a screen reader
 * reading a long message once it ended skipped the middle of it (a 3.9 MB flood left 2.9 MB so) until someone
 * scrolled near each part. Showing a group lays it out once, in the frame after its class changes: each idle period
 * shows about one group's worth of text (`charsPerIdle`, what one frame may lay out), the newest first (nearest the
 * end, where the reader is), so a user who types meanwhile waits at most one such frame. Only in a long idle period
 * (no frame due: Chromium then allows up to 50 ms), never between the frames of a stream still drawing, where that
 * frame would come on top of the stream's own.
 */

/** Calls `run` in the page's next idle period with the milliseconds it has left. */
export type IdleRequest = (run: (remainingMs: number) => void) => void;

/** What is shown: a group element (kept DOM-free here so that plain Node can test the order and the pacing). */
export interface WaitingGroup {
  readonly isConnected: boolean;
  readonly textContent: string | null;
}

/** What an idle period has left when no frame is due soon (between a stream's frames it is under a frame's 16 ms). */
export const LONG_IDLE_MS = 30;

export class IdleReveal<Group extends WaitingGroup> {
  /** Oldest first; shown from the end. */
  private waiting: Group[] = [];
  private scheduled = false;

  /**
   * @param show makes a group visible (and forgets it anywhere else it waits)
   * @param isWaiting whether the group still waits (a scroll may have shown it first)
   */
  constructor(
    private readonly show: (group: Group) => void,
    private readonly isWaiting: (group: Group) => boolean,
    private readonly charsPerIdle: number,
    private readonly request: IdleRequest,
  ) {}

  /** Groups to show, in document order. */
  add(groups: readonly Group[]): void {
    this.waiting.push(...groups);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled || this.waiting.length === 0) return;
    this.scheduled = true;
    this.request((remainingMs) => {
      this.scheduled = false;
      if (remainingMs >= LONG_IDLE_MS) this.showSome();
      this.schedule();
    });
  }

  private showSome(): void {
    let chars = 0;
    while (chars < this.charsPerIdle) {
      const group = this.waiting.pop();
      if (!group) return;
      // Gone with its entry (the transcript dropped it off screen, or the text was replaced), or shown by a scroll.
      if (!group.isConnected || !this.isWaiting(group)) continue;
      this.show(group);
      chars += group.textContent?.length ?? 0;
    }
  }
}
