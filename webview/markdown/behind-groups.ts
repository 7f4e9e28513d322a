/**
 * Shows the groups a stream drew while it was behind (streaming-markdown.ts: neither styled nor laid out until
 * shown) as they come near the transcript's viewport, one group a frame, the newest first. All at once, the groups
 * within the margin were laid out in the frame the observer reported them, on top of that frame's drawing: traced on
 * a 2 MB message with the renderer throttled 1.5x (a slow 2-core machine), such frames held the main thread 50-80 ms.
 * One a frame, each stays a frame's worth of layout; the newest first, because it is the one on screen while the
 * reader is at the bottom.
 */

/** How near the viewport (px) a behind group is shown. */
const SHOW_MARGIN_PX = 1_500;

export class BehindGroupShower {
  private observer: IntersectionObserver | undefined;
  private readonly near: Element[] = [];
  private frameAsked = false;

  /** `root`: the scroller (an observer of the page's viewport sees a group only once it is on screen). */
  constructor(
    private readonly root: () => Element | null,
    private readonly show: (group: Element) => void,
  ) {}

  /** Shows each of `groups` once it comes within the margin of the viewport. */
  watch(groups: readonly Element[]): void {
    this.observer ??= new IntersectionObserver((entries) => this.reported(entries), {
      root: this.root(),
      rootMargin: `${SHOW_MARGIN_PX}px 0px`,
    });
    for (const group of groups) this.observer.observe(group);
  }

  private reported(entries: readonly IntersectionObserverEntry[]): void {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      this.observer?.unobserve(entry.target);
      this.near.push(entry.target);
    }
    this.askFrame();
  }

  private askFrame(): void {
    if (this.frameAsked || this.near.length === 0) return;
    this.frameAsked = true;
    requestAnimationFrame(() => {
      this.frameAsked = false;
      this.show(this.takeNewest());
      this.askFrame();
    });
  }

  /** The group last in the document of those waiting (a stream's newest text is its last). */
  private takeNewest(): Element {
    let newest = 0;
    for (let index = 1; index < this.near.length; index++) {
      if (this.near[newest]!.compareDocumentPosition(this.near[index]!) & Node.DOCUMENT_POSITION_FOLLOWING) newest = index;
    }
    return this.near.splice(newest, 1)[0]!;
  }
}
