/**
 * A flat, incrementally maintained view of the paged entries: entry, key and height per index, and prefix sums
 * of heights for binary searching the viewport. Keeping it in step costs O(changed pages), since the reducer
 * replaces only the pages it touched. DOM-free.
 */
import type { Entry, TranscriptState } from '../../src/shared/model';
import { estimateHeight } from './height-estimate';

export class EntryIndex {
  private pages: TranscriptState['pages'] = [];
  private pageBases: number[] = [];
  private entries: Entry[] = [];
  private heights: number[] = [];
  private prefix = new Float64Array(1);
  private prefixStale = false;
  /** Measured heights by key; they outlive the entry's DOM so scrolling back does not jump. */
  private readonly measured = new Map<string, number>();

  get count(): number {
    return this.entries.length;
  }

  entry(index: number): Entry {
    return this.entries[index]!;
  }

  /** Brings the index in step with `state`; returns whether anything changed. */
  sync(state: TranscriptState): boolean {
    if (state.pages === this.pages) return false;
    const previousPages = this.pages;
    const previousBases = this.pageBases;
    this.pages = state.pages;
    this.pageBases = [];
    let changed = false;
    let base = 0;
    state.pages.forEach((page, pageIndex) => {
      this.pageBases.push(base);
      const pageBase = base;
      base += page.length;
      // A page is unchanged only if it is the same array at the same flat position (a removal shifts the rest).
      if (page === previousPages[pageIndex] && pageBase === previousBases[pageIndex]) return;
      page.forEach((entry, offset) => {
        const index = pageBase + offset;
        if (this.entries[index] === entry) return;
        this.entries[index] = entry;
        this.heights[index] = this.measured.get(entry.key) ?? estimateHeight(entry);
        changed = true;
      });
    });
    if (this.entries.length !== base) {
      this.entries.length = base;
      this.heights.length = base;
      changed = true;
    }
    if (changed) this.prefixStale = true;
    return changed;
  }

  /** Index of the entry with `key`, trying `hint` first (keys rarely move). */
  indexOfKey(key: string, hint: number): number | undefined {
    if (this.entries[hint]?.key === key) return hint;
    const found = this.entries.findIndex((entry) => entry.key === key);
    return found === -1 ? undefined : found;
  }

  /** Records a measured height; returns whether it differs from what was assumed. */
  setMeasured(index: number, height: number): boolean {
    const entry = this.entries[index];
    if (!entry) return false;
    this.measured.set(entry.key, height);
    if (this.heights[index] === height) return false;
    this.heights[index] = height;
    this.prefixStale = true;
    return true;
  }

  /** Top (px) of the entry at `index`; `count` gives the total height. */
  top(index: number): number {
    this.refreshPrefix();
    return this.prefix[Math.max(0, Math.min(index, this.entries.length))]!;
  }

  get totalHeight(): number {
    return this.top(this.entries.length);
  }

  /** Index of the entry covering `y` (clamped to the list). */
  indexAt(y: number): number {
    this.refreshPrefix();
    let low = 0;
    let high = this.entries.length - 1;
    if (high < 0) return 0;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.prefix[middle + 1]! <= y) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  private refreshPrefix(): void {
    if (!this.prefixStale && this.prefix.length === this.entries.length + 1) return;
    const prefix = this.prefix.length === this.entries.length + 1 ? this.prefix : new Float64Array(this.entries.length + 1);
    let sum = 0;
    for (let i = 0; i < this.entries.length; i++) {
      prefix[i] = sum;
      sum += this.heights[i] ?? 0;
    }
    prefix[this.entries.length] = sum;
    this.prefix = prefix;
    this.prefixStale = false;
  }
}
