/**
 * The transcript, virtualized: only entries in or near the viewport have DOM; the rest are two spacers sized
 * from measured (or, until seen, estimated) heights. Entry DOM is reused by key and re-rendered only when its
 * entry object changed (the reducer replaces only what changed) or its UI facts did. While the user is at the
 * bottom it follows new output; scrolled up, it keeps the entry at the top of the viewport where it was.
 *
 * Nothing here schedules work by itself: `render` runs when the owner's frame comes, and the owner is asked for
 * a frame only when something changed (state, scroll beyond the rendered range, a size).
 */
import type { TranscriptState } from '../../src/shared/model';
import { h } from '../dom';
import type { ScrollPosition } from '../host/ui-state';
import { createEntryView, viewShape } from './create-view';
import { EntryIndex } from './entry-index';
import type { EntryView, RenderContext } from './entry-view';
import { FrameBudget } from './frame-budget';

interface RenderedEntry {
  readonly view: EntryView;
  readonly shape: string;
  entry: unknown;
  index: number;
}

/** Within this distance (px) of the bottom counts as "at the bottom". */
const BOTTOM_SLACK = 8;
/** Settling passes per frame when measured heights differ from the estimates used to pick the range. */
const MAX_PASSES = 4;

export class VirtualTranscript {
  readonly element: HTMLElement;
  private readonly topSpacer = h('div', { className: 'spacer-top', attrs: { 'aria-hidden': 'true' } });
  private readonly bottomSpacer = h('div', { className: 'spacer-bottom', attrs: { 'aria-hidden': 'true' } });
  private readonly index = new EntryIndex();
  private readonly rendered = new Map<string, RenderedEntry>();
  private readonly forced = new Set<string>();
  private readonly entryObserver: ResizeObserver;
  private readonly viewportObserver: ResizeObserver;
  private pendingState: TranscriptState | undefined;
  private context: RenderContext;
  private range = { start: 0, end: 0 };
  private stick: boolean;
  private anchor: { key: string; index: number; offset: number } | undefined;
  private expectedScrollTop = -1;
  private viewportHeight = 0;
  private drewEntries = false;

  constructor(
    private readonly requestFrame: () => void,
    context: RenderContext,
    initialScroll: ScrollPosition,
    private readonly onScrollChanged: (position: ScrollPosition) => void,
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
    this.entryObserver = new ResizeObserver((records) => this.onEntriesResized(records));
    this.viewportObserver = new ResizeObserver(() => {
      if (this.element.clientHeight !== this.viewportHeight) this.requestFrame();
    });
    this.viewportObserver.observe(this.element);
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

  /** Follow the newest output again (e.g. after the user sends a prompt). */
  scrollToBottom(): void {
    this.stick = true;
    this.requestFrame();
  }

  render(): void {
    // The user may have moved the scrollbar since the last frame without its scroll event handled yet: take that
    // first, or sticking to the bottom would throw them back down.
    if (this.expectedScrollTop >= 0 && Math.abs(this.element.scrollTop - this.expectedScrollTop) >= 1) this.takeUserScroll();
    if (this.pendingState) {
      this.index.sync(this.pendingState);
      this.pendingState = undefined;
    }
    this.viewportHeight = this.element.clientHeight;
    const budget = new FrameBudget();
    // The first frame with entries draws only what is in view (at the bottom: from the newest up, as the budget
    // allows), so a conversation opens fast; the rest and the margin above and below (for smooth scrolling) are
    // drawn in the next frames.
    const firstDraw = !this.drewEntries && this.index.count > 0;
    // Settling passes cost a layout each; the first draw leaves them to the next frame, which comes at once.
    for (let pass = 0; pass < (firstDraw ? 1 : MAX_PASSES); pass++) {
      const top = this.targetScrollTop();
      const overscan = firstDraw ? 0 : Math.max(300, this.viewportHeight / 2);
      const count = this.index.count;
      const start = count === 0 ? 0 : this.index.indexAt(Math.max(0, top - overscan));
      const end = count === 0 ? 0 : this.index.indexAt(top + this.viewportHeight + overscan) + 1;
      const first = this.reconcile(start, end, budget, firstDraw && this.stick);
      const heightsChanged = this.measure();
      this.topSpacer.style.height = `${this.index.top(first)}px`;
      this.bottomSpacer.style.height = `${this.index.totalHeight - this.index.top(end)}px`;
      if (!heightsChanged) break;
    }
    this.forced.clear();
    if (firstDraw) {
      this.drewEntries = true;
      this.requestFrame();
    }
    // Views the budget cut short go on in the next frame.
    for (const [key, rendered] of this.rendered) if (rendered.view.hasPendingWork) this.forced.add(key);
    if (this.forced.size > 0) this.requestFrame();
    const top = this.stick ? this.element.scrollHeight - this.viewportHeight : this.targetScrollTop();
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
   * Renders entries [start, end) and drops the rest; returns the first index rendered. `fromBottom` (a chat's
   * first draw, which opens at the bottom): from the last entry up, and once the frame's budget is spent the
   * entries above wait for the next frame, so a cold first frame stays short and shows the newest first.
   */
  private reconcile(start: number, end: number, budget: FrameBudget, fromBottom = false): number {
    const wanted = new Set<string>();
    for (let i = start; i < end; i++) wanted.add(this.index.entry(i).key);
    for (const [key, rendered] of this.rendered) {
      if (wanted.has(key)) continue;
      this.entryObserver.unobserve(rendered.view.element);
      rendered.view.element.remove();
      this.rendered.delete(key);
    }
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
    } else {
      let cursor: Element = this.topSpacer;
      for (let i = start; i < end; i++) {
        const element = this.renderEntry(i, budget);
        if (cursor.nextElementSibling !== element) cursor.after(element);
        cursor = element;
      }
    }
    this.range = { start: first, end };
    return first;
  }

  /** The view of entry `index`, created or brought up to date. */
  private renderEntry(index: number, budget: FrameBudget): HTMLElement {
    const entry = this.index.entry(index);
    const shape = viewShape(entry);
    let rendered = this.rendered.get(entry.key);
    if (rendered && rendered.shape !== shape) {
      this.entryObserver.unobserve(rendered.view.element);
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
      this.entryObserver.observe(view.element);
    } else if (rendered.entry !== entry || this.forced.has(entry.key)) {
      rendered.view.render(entry, this.context, budget);
      rendered.entry = entry;
    }
    rendered.index = index;
    return rendered.view.element;
  }

  /** Reads the heights of the rendered entries (one layout); returns whether any differed from what was assumed. */
  private measure(): boolean {
    let changed = false;
    for (const rendered of this.rendered.values()) {
      if (this.index.setMeasured(rendered.index, rendered.view.element.offsetHeight)) changed = true;
    }
    return changed;
  }

  private onEntriesResized(records: readonly ResizeObserverEntry[]): void {
    let changed = false;
    for (const record of records) {
      const element = record.target;
      if (!(element instanceof HTMLElement)) continue;
      const key = element.dataset.entryKey;
      const rendered = key === undefined ? undefined : this.rendered.get(key);
      if (!rendered || rendered.view.element !== element) continue;
      if (this.index.setMeasured(rendered.index, element.offsetHeight)) changed = true;
    }
    if (changed) this.requestFrame();
  }

  private onScroll(): void {
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
