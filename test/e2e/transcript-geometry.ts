/**
 * What the chat's virtualized transcript has on screen, read in its frame: the prompts drawn (in view or in the
 * margin drawn around it) and how many px of the viewport show a spacer instead of entries (undrawn).
 */
import type { Frame } from 'playwright-core';

export interface DrawnPrompt {
  readonly text: string;
  /** Any part of it inside the transcript's viewport. */
  readonly inView: boolean;
}

export interface TranscriptGeometry {
  readonly scrollTop: number;
  readonly clientHeight: number;
  readonly scrollHeight: number;
  /** The keys of the entries drawn, in order. */
  readonly keys: readonly string[];
  /** px of the viewport covered by a spacer: content that should be on screen and is not drawn. */
  readonly undrawnPx: number;
  readonly prompts: readonly DrawnPrompt[];
}

/** The element facts the page function reads (this Node-side file has no DOM types). */
interface Box {
  readonly top: number;
  readonly bottom: number;
}
interface PageElement {
  readonly scrollTop: number;
  readonly clientHeight: number;
  readonly scrollHeight: number;
  readonly textContent: string | null;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): Box;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
}

export function transcriptGeometry(chat: Frame): Promise<TranscriptGeometry> {
  return chat.locator('.transcript').evaluate((element: PageElement): TranscriptGeometry => {
    const view = element.getBoundingClientRect();
    const overlap = (box: Box): number => Math.max(0, Math.min(box.bottom, view.bottom) - Math.max(box.top, view.top));
    const spacers = ['.spacer-top', '.spacer-bottom'].map((selector) => element.querySelector(selector));
    const prompts = [...element.querySelectorAll('.user-bubble')].map((bubble) => ({
      text: (bubble.textContent ?? '').trim().slice(0, 60),
      inView: overlap(bubble.getBoundingClientRect()) > 0,
    }));
    return {
      scrollTop: Math.round(element.scrollTop),
      clientHeight: element.clientHeight,
      scrollHeight: element.scrollHeight,
      keys: [...element.querySelectorAll('[data-entry-key]')].map((entry) => entry.getAttribute('data-entry-key') ?? ''),
      undrawnPx: Math.round(spacers.reduce((sum, spacer) => sum + (spacer ? overlap(spacer.getBoundingClientRect()) : 0), 0)),
      prompts,
    };
  });
}
