/**
 * Keeps the preview of the conversation on screen (transcript-preview.ts): in the page's saved state (the chat's
 * page) and in a file of the host's (src/views/preview-file.ts). At once on the
 * first change after a quiet second, then at most once a second while changes keep coming (the last one always
 * saved), so that computing and saving it (up to 32 KB of JSON) is not paid per streamed chunk. At once, because a
 * page may not live a second: VS Code takes a hidden view's page away without a last event it could save in (the
 * open bench's reloads lost every preview when the save waited for a quiet second that a later message reset).
 */
import type { TranscriptState } from './model';
import type { TranscriptPreview } from './saved-preview';
import { previewOf } from './transcript-preview';

const AT_MOST_EVERY_MS = 1_000;

export interface Timers {
  /** Runs `callback` after `ms`; returns what cancels it. */
  readonly set: (callback: () => void, ms: number) => () => void;
  readonly now: () => number;
}

const REAL_TIMERS: Timers = {
  set: (callback, ms) => {
    const timer = setTimeout(callback, ms);
    return () => clearTimeout(timer);
  },
  now: () => Date.now(),
};

export class PreviewKeeper {
  private cancelTimer: (() => void) | undefined;
  private lastSavedAt = -Infinity;
  /** A change came that is not saved yet. */
  private pending = false;

  constructor(
    private readonly shown: () => { readonly conversationId: string; readonly state: TranscriptState } | undefined,
    private readonly keep: (preview: TranscriptPreview | undefined) => void,
    private readonly timers: Timers = REAL_TIMERS,
  ) {}

  changed(): void {
    this.pending = true;
    if (this.cancelTimer) return;
    const wait = this.lastSavedAt + AT_MOST_EVERY_MS - this.timers.now();
    if (wait <= 0) return this.saveNow();
    this.cancelTimer = this.timers.set(() => this.saveNow(), wait);
  }

  /** Saves a change not saved yet at once (the page is going). */
  saveNow(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    if (!this.pending) return;
    this.pending = false;
    this.lastSavedAt = this.timers.now();
    // No conversation drawn yet (a message before the page's first snapshot): the saved preview still stands.
    const shown = this.shown();
    if (shown) this.keep(previewOf(shown.conversationId, shown.state));
  }
}
