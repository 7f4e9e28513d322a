/**
 * Keeps the preview of the conversation on screen (transcript-preview.ts) in the page's saved state: a second after
 * the transcript last changed, and every ten seconds while it keeps changing, so that computing and saving it (up to
 * 32 KB of JSON) is not paid per streamed chunk.
 */
import type { TranscriptState } from '../../src/shared/model';
import { previewOf, type TranscriptPreview } from './transcript-preview';

const QUIET_MS = 1_000;
const AT_MOST_EVERY_MS = 10_000;

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
  /** When the first change not yet saved came. */
  private pendingSince: number | undefined;

  constructor(
    private readonly shown: () => { readonly conversationId: string; readonly state: TranscriptState } | undefined,
    private readonly keep: (preview: TranscriptPreview | undefined) => void,
    private readonly timers: Timers = REAL_TIMERS,
  ) {}

  changed(): void {
    const now = this.timers.now();
    this.pendingSince ??= now;
    this.cancelTimer?.();
    const wait = Math.min(QUIET_MS, this.pendingSince + AT_MOST_EVERY_MS - now);
    this.cancelTimer = this.timers.set(() => this.saveNow(), Math.max(0, wait));
  }

  /** Saves a change not saved yet at once (the page is going). */
  saveNow(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    if (this.pendingSince === undefined) return;
    this.pendingSince = undefined;
    // No conversation drawn yet (a message before the page's first snapshot): the saved preview still stands.
    const shown = this.shown();
    if (shown) this.keep(previewOf(shown.conversationId, shown.state));
  }
}
