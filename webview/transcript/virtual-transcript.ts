/**
 * The transcript, virtualized: only entries in or near the viewport have DOM; the rest are two spacers sized
 * from measured (or, until seen, estimated) heights. Entry DOM is reused by key and re-rendered only when its
 * entry object changed (the reducer replaces only what changed) or its UI facts did. While the user is at the
 * bottom it follows new output; scrolled up, it keeps the entry at the top of the viewport where it was.
 *
 * Nothing here schedules work by itself: `render` runs when the owner's frame comes, and the owner is asked for
 * a frame only when something changed (state, scroll beyond the rendered range, a size).
 *
 * `render` only writes to the page. Heights come from a ResizeObserver, whose callback runs once the browser has
 * laid the frame out and before it paints: reading `offsetHeight` right after drawing forced that layout inside
 * the frame's script, and each settling pass forced another (in the real VS Code, a command waited 275-314 ms
 * behind a 20 MB message's frames, traced to that read). The callback corrects the spacers and the scroll position in the same frame, so
 * the reader's place and the bottom hold exactly; entries the new heights bring into view are drawn next frame.
 */
import type { TranscriptState } from '../../src/shared/model';
import { h } from '../dom';
import type { ScrollPosition } from '../host/ui-state';
import { createEntryView, viewShape } from './create-view';
import { EntryIndex } from './entry-index';
import type { EntryView, RenderContext } from './entry-view';
import { FrameBudget, FRAME_WORK_MS } from './frame-budget';
import { LayoutPace } from './layout-pace';

interface RenderedEntry {
  readonly view: EntryView;
  readonly shape: string;
  entry: unknown;
  index: number;
}

/** Within this distance (px) of the bottom counts as "at the bottom". */
const BOTTOM_SLACK = 8;

/**
 * The last viewport height any transcript of this page saw, for a new chat's first frame (a switch of
 * conversation builds a new one): reading it from the page then would lay out the whole new chat inside the frame.
 */
let lastViewportHeight: number | undefined;

/** What a frame's new text may be, from what its layout costs on this machine: one for the page, as the machine is. */
const layoutPace = new LayoutPace();

/** An element's border-box height from a resize record (what offsetHeight would say, unrounded). */
function recordHeight(record: ResizeObserverEntry): number {
  const box = record.borderBoxSize[0];
  return box ? box.blockSize : record.contentRect.height;
}

export class VirtualTranscript {
  readonly element: HTMLElement;
  private readonly topSpacer = h('div', { className: 'spacer-top', attrs: { 'aria-hidden': 'true' } });
  private readonly bottomSpacer = h('div', { className: 'spacer-bottom', attrs: { 'aria-hidden': 'true' } });
  private readonly index = new EntryIndex();
  private readonly rendered = new Map<string, RenderedEntry>();
  private readonly forced = new Set<string>();
  /** Sees the entries' heights and the viewport's, after layout (see the top of this file). */
  private readonly layoutObserver: ResizeObserver;
  /** The spacers' heights as last written (writing the same again would still cost a style pass). */
  private spacerHeights = { top: -1, bottom: -1 };
  private pendingState: TranscriptState | undefined;
  private context: RenderContext;
  private range = { start: 0, end: 0 };
  private stick: boolean;
  private anchor: { key: string; index: number; offset: number } | undefined;
  private expectedScrollTop = -1;
  private viewportHeight = 0;
  private drewEntries = false;
  /**
   * The transcript was last seen 0 px high (its view hidden, or not laid out yet). Its entries then measure 0 px
   * too: taken for their heights, those zeros made every frame draw more entries to fill the viewport (thousands,
   * then one layout of them all when shown). While hidden nothing is measured, drawn or scrolled; the report of
   * its new size when it is shown again asks for the frame that draws it.
   */
  private hidden = false;

  /**
   * @param onLaidOut runs after the browser has laid out a frame `render` drew (the owner's frame length counts
   * the layout too, see frame-scheduler.ts)
   */
  constructor(
    private readonly requestFrame: () => void,
    context: RenderContext,
    initialScroll: ScrollPosition,
    private readonly onScrollChanged: (position: ScrollPosition) => void,
    private readonly onLaidOut: () => void = () => undefined,
  ) {
    this.context = context;
    this.stick = initialScroll.atBottom;
    if (!initialScroll.atBottom && initialScroll.anchorKey !== undefined) {
      this.anchor = { key: initialScroll.anchorKey, index: 0, offset: initialScroll.anchorOffset ?? 0 };
    }
    this.element = h(
      'div',
      { className: 'transcript', attrs: { role: 'log', 'aria-live': 'polite', 'aria-label': 'Conversation', tabindex: '0' } },
      this.topSpacer,
      this.bottomSpacer,
    );
    this.element.addEventListener('scroll', () => this.onScroll(), { passive: true });
    this.element.addEventListener('wheel', (event) => this.onWheel(event), { passive: true });
    this.layoutObserver = new ResizeObserver((records) => this.onLaidOutRecords(records));
    this.layoutObserver.observe(this.element);
  }

  get entryCount(): number {
    return this.pendingState?.entryCount ?? this.index.count;
  }

  setState(state: TranscriptState): void {
    this.pendingState = state;
    this.requestFrame();
  }

  /** New UI facts; `keys` are the entries they change (re-rendered even though their entry did not change). */
  setContext(context: RenderContext, keys: Iterable<string>): void {
    this.context = context;
    let any = false;
    for (const key of keys) {
      if (this.rendered.has(key)) {
        this.forced.add(key);
        any = true;
      }
    }
    if (any) this.requestFrame();
  }

  /** The chat is replaced: its detached elements report no more sizes (a 0 would pass for the next chat's viewport). */
  dispose(): void {
    this.layoutObserver.disconnect();
  }

  /** Follow the newest output again (e.g. after the user sends a prompt). */
  scrollToBottom(): void {
    this.stick = true;
    this.requestFrame();
  }

  render(): void {
    if (this.hidden) {
      // The state is kept (cheap); drawing waits for the view to be shown, when the observer asks for a frame.
      if (this.pendingState) {
        this.index.sync(this.pendingState);
        this.pendingState = undefined;
      }
      return;
    }
    // Reads first, while the last frame's layout is still clean. The user may have moved the scrollbar since the
    // last frame without its scroll event handled yet: take that first, or sticking to the bottom would throw them
    // back down.
    if (this.expectedScrollTop >= 0 && Math.abs(this.element.scrollTop - this.expectedScrollTop) >= 1) this.takeUserScroll();
    if (this.pendingState) {
      this.index.sync(this.pendingState);
      this.pendingState = undefined;
    }
    // The viewport's height comes from the observer, after layout. Until it has reported: another chat's, or at
    // first the window's (a little more than the transcript's; reading the transcript's would force the layout).
    if (this.viewportHeight === 0) this.viewportHeight = lastViewportHeight ?? window.innerHeight;
    const budget = new FrameBudget(FRAME_WORK_MS, layoutPace.charsPerFrame);
    // The first frame with entries draws only what is in view (at the bottom: from the newest up, as the budget
    // allows), so a conversation opens fast; the rest and the margin above and below (for smooth scrolling) are
    // drawn in the next frames.
    const firstDraw = !this.drewEntries && this.index.count > 0;
    const { start, end } = this.wantedRange(this.targetScrollTop(), firstDraw ? 0 : undefined);
    this.reconcile(start, end, budget, firstDraw && this.stick);
    this.placeSpacers();
    this.forced.clear();
    if (firstDraw) {
      this.drewEntries = true;
      this.requestFrame();
    }
    // Views the budget cut short go on in the next frame.
    for (const [key, rendered] of this.rendered) if (rendered.view.hasPendingWork) this.forced.add(key);
    if (this.forced.size > 0) this.requestFrame();
    // The scroll position is placed once the browser has laid this out (writing scrollTop now would force it):
    // observing the transcript afresh makes the observer report it after this frame's layout.
    this.layoutObserver.unobserve(this.element);
    this.layoutObserver.observe(this.element);
    layoutPace.frameDrawn(budget.charsSpent, performance.now());
  }

  /** The entries to draw with the viewport's top at `top`: the viewport and `overscan` px above and below it. */
  private wantedRange(top: number, overscan = Math.max(300, this.viewportHeight / 2)): { start: number; end: number } {
    const count = this.index.count;
    if (count === 0) return { start: 0, end: 0 };
    return {
      start: this.index.indexAt(Math.max(0, top - overscan)),
      end: this.index.indexAt(top + this.viewportHeight + overscan) + 1,
    };
  }

  /** Sizes the spacers for the drawn range from the heights known now (measured, or estimated until drawn). */
  private placeSpacers(): void {
    const top = this.index.top(this.range.start);
    const bottom = this.index.totalHeight - this.index.top(this.range.end);
    if (top !== this.spacerHeights.top) this.topSpacer.style.height = `${top}px`;
    if (bottom !== this.spacerHeights.bottom) this.bottomSpacer.style.height = `${bottom}px`;
    this.spacerHeights = { top, bottom };
  }

  /** After layout: keeps the bottom in view while sticking to it, else the anchor entry where it was. */
  private placeScroll(): void {
    const top = this.stick ? this.element.scrollHeight - this.element.clientHeight : this.targetScrollTop();
    if (Math.abs(this.element.scrollTop - top) >= 1) this.element.scrollTop = top;
    this.expectedScrollTop = this.element.scrollTop;
  }

  private targetScrollTop(): number {
    const max = Math.max(0, this.index.totalHeight - this.viewportHeight);
    if (this.stick) return max;
    if (!this.anchor) return Math.min(this.element.scrollTop, max);
    const index = this.index.indexOfKey(this.anchor.key, this.anchor.index);
    if (index === undefined) return Math.min(this.element.scrollTop, max);
    this.anchor.index = index;
    return Math.max(0, Math.min(this.index.top(index) + this.anchor.offset, max));
  }

  /**
   * Renders entries [start, end) and drops the rest; `this.range` becomes what was drawn. `fromBottom` (a chat's
   * first draw, which opens at the bottom): from the last entry up, and once the frame's budget is spent the
   * entries above wait for the next frame, so a cold first frame stays short and shows the newest first.
   */
  private reconcile(start: number, end: number, budget: FrameBudget, fromBottom = false): void {
    this.keepOnly(start, end);
    let first = start;
    if (fromBottom) {
      let below: Element = this.bottomSpacer;
      for (let i = end - 1; i >= start; i--) {
        if (i < end - 1 && !this.rendered.has(this.index.entry(i).key) && budget.exhausted()) {
          first = i + 1;
          break;
        }
        const element = this.renderEntry(i, budget);
        if (below.previousElementSibling !== element) below.before(element);
        below = element;
      }
      this.range = { start: first, end };
      return;
    }
    const drawn = this.drawAroundView(start, end, budget);
    let cursor: Element = this.topSpacer;
    for (let i = drawn.start; i < drawn.end; i++) {
      // Drawn above (drawing it again here would render a forced entry twice in the frame).
      const element = this.rendered.get(this.index.entry(i).key)!.view.element;
      if (cursor.nextElementSibling !== element) cursor.after(element);
      cursor = element;
    }
    this.range = drawn;
    if (drawn.start > start || drawn.end < end) this.requestFrame();
  }

  /**
   * Draws the entries in view first, from where the user's eye is (the newest, at the bottom, while the view sticks
   * there; else its top), past the frame's budget (the user is looking at them) but within the allowance for them
   * (IN_VIEW_WORK_MS); then the margin around it (kept for smooth scrolling) nearest first: entries drawn already
   * always, new ones only while the frame's budget lasts, the rest in the next frames. Returns the range drawn, and
   * drops what was drawn outside it (the spacers stand for it). Measured with the CPU throttled 2x (issue 31, the
   * webview bench's 10,000-entry snapshot): the frame that drew the whole margin at once spent 19-27 ms drawing, past
   * the 8 ms budget, and with the message task before it and its layout held the thread 53-73 ms (6 runs of 6); drawn
   * as the budget allows, no such frame (5 runs of 5).
   */
  private drawAroundView(start: number, end: number, budget: FrameBudget): { start: number; end: number } {
    const view = this.wantedRange(this.targetScrollTop(), 0);
    const viewStart = Math.min(Math.max(view.start, start), end);
    const viewEnd = Math.min(Math.max(view.end, viewStart), end);
    let first = this.stick ? viewEnd : viewStart;
    let last = first;
    // Grows [first, last) one entry each side at a time within [from, to), while mayDraw allows.
    const grow = (from: number, to: number, mayDraw: (index: number) => boolean): void => {
      for (let grew = true; grew; ) {
        grew = false;
        if (last < to && mayDraw(last)) {
          this.renderEntry(last++, budget);
          grew = true;
        }
        if (first > from && mayDraw(first - 1)) {
          this.renderEntry(--first, budget);
          grew = true;
        }
      }
    };
    const drawn = (index: number): boolean => this.rendered.has(this.index.entry(index).key);
    // One entry at least, so the view fills in however slow the machine.
    grow(viewStart, viewEnd, (index) => drawn(index) || first === last || !budget.inViewExhausted());
    grow(start, end, (index) => drawn(index) || !budget.exhausted());
    if (first > start || last < end) this.keepOnly(first, last);
    return { start: first, end: last };
  }

  /** Drops the views of entries outside [start, end). */
  private keepOnly(start: number, end: number): void {
    const kept = new Set<string>();
    for (let i = start; i < end; i++) kept.add(this.index.entry(i).key);
    for (const [key, rendered] of this.rendered) {
      if (kept.has(key)) continue;
      this.layoutObserver.unobserve(rendered.view.element);
      rendered.view.element.remove();
      this.rendered.delete(key);
    }
  }

  /** The view of entry `index`, created or brought up to date. */
  private renderEntry(index: number, budget: FrameBudget): HTMLElement {
    const entry = this.index.entry(index);
    const shape = viewShape(entry);
    let rendered = this.rendered.get(entry.key);
    if (rendered && rendered.shape !== shape) {
      this.layoutObserver.unobserve(rendered.view.element);
      rendered.view.element.remove();
      rendered = undefined;
    }
    if (!rendered) {
      const view = createEntryView(entry);
      view.element.dataset.entryKey = entry.key;
      view.element.dataset.kind = entry.kind;
      view.render(entry, this.context, budget);
      rendered = { view, shape, entry, index };
      this.rendered.set(entry.key, rendered);
      this.layoutObserver.observe(view.element);
    } else if (rendered.entry !== entry || this.forced.has(entry.key)) {
      rendered.view.render(entry, this.context, budget);
      rendered.entry = entry;
    }
    rendered.index = index;
    return rendered.view.element;
  }

  /**
   * Traced with the 2 MB message streamed, CPU throttled 3x (issue 31): the style-and-layout pass the browser runs
   * again after this callback cost 0.09 ms a frame (34 ms over 605 frames), and the layout this callback forces by
   * reading the scroll height as much. The longest frames' second pass comes before it: content-visibility groups
   * (chat.css) rendered for the first time, once the frame's layout shows them on screen.
   *
   * After layout, before paint: records the entries' new heights, corrects the spacers and the scroll position
   * (no layout is forced unless a spacer changed), and asks for a frame if the new heights leave part of the
   * viewport undrawn or the viewport changed size.
   */
  private onLaidOutRecords(records: readonly ResizeObserverEntry[]): void {
    layoutPace.laidOut(performance.now());
    let drawn = false;
    let viewportResized = false;
    const own = records.find((record) => record.target === this.element);
    if (own) {
      const height = recordHeight(own);
      const wasHidden = this.hidden;
      // Hidden or detached: nothing on screen to place, and the entries' zeros are not their heights.
      this.hidden = height === 0;
      if (!this.hidden) {
        drawn = true;
        viewportResized = wasHidden || height !== this.viewportHeight;
        this.viewportHeight = height;
        lastViewportHeight = height;
      }
    }
    if (this.hidden) return;
    let heightsChanged = false;
    for (const record of records) {
      const element = record.target;
      if (element === this.element || !(element instanceof HTMLElement)) continue;
      const key = element.dataset.entryKey;
      const rendered = key === undefined ? undefined : this.rendered.get(key);
      if (!rendered || rendered.view.element !== element) continue;
      if (this.index.setMeasured(rendered.index, recordHeight(record))) heightsChanged = true;
    }
    if (heightsChanged) this.placeSpacers();
    this.placeScroll();
    // The range render would pick now, with the heights just measured: drawn if it needs more, and also if it
    // needs less, so that what is drawn depends on what is on screen and not on the estimates met on the way.
    const { start, end } = this.wantedRange(this.targetScrollTop());
    if (viewportResized || start !== this.range.start || end !== this.range.end) this.requestFrame();
    if (drawn) this.onLaidOut();
  }

  private onScroll(): void {
    // A hidden transcript's scroll offset drops to 0: that is not the reader moving.
    if (this.hidden) return;
    if (Math.abs(this.element.scrollTop - this.expectedScrollTop) < 1) return;
    this.takeUserScroll();
    if (!this.covers(this.element.scrollTop)) this.requestFrame();
  }

  /** The user scrolled: stick to the bottom only if they are there, else keep their place. */
  private takeUserScroll(): void {
    const top = this.element.scrollTop;
    this.expectedScrollTop = -1;
    this.stick = this.element.scrollHeight - top - this.element.clientHeight <= BOTTOM_SLACK;
    this.anchor = this.anchorAt(top);
    this.onScrollChanged(this.position());
  }

  private onWheel(event: WheelEvent): void {
    // Leave the bottom as soon as the user scrolls up, even if output arrives before the scroll event.
    if (event.deltaY < 0 && this.stick) {
      this.stick = false;
      this.anchor = this.anchorAt(this.element.scrollTop);
    }
  }

  private anchorAt(top: number): { key: string; index: number; offset: number } | undefined {
    if (this.index.count === 0) return undefined;
    const index = this.index.indexAt(top);
    return { key: this.index.entry(index).key, index, offset: top - this.index.top(index) };
  }

  /** Whether the rendered range still covers the viewport with some margin. */
  private covers(top: number): boolean {
    const margin = 150;
    const { start, end } = this.range;
    const coversTop = start === 0 || this.index.top(start) <= top - margin;
    const coversBottom = end >= this.index.count || this.index.top(end) >= top + this.element.clientHeight + margin;
    return coversTop && coversBottom;
  }

  position(): ScrollPosition {
    if (this.stick || !this.anchor) return { atBottom: this.stick };
    return { atBottom: false, anchorKey: this.anchor.key, anchorOffset: this.anchor.offset };
  }
}
