/**
 * Web addresses inside plain text an agent sends (a notice's description), cut out so they can be drawn as links.
 * Each address must pass the same safe-link rules as markdown links; anything else stays text. Pure and DOM-free.
 */
import { isSafeLink } from './link-safety';

export type TextSegment = { readonly type: 'text'; readonly text: string } | { readonly type: 'link'; readonly url: string };

// Trailing punctuation usually ends the sentence, not the address.
const URL = /\bhttps?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]]/g;

export function splitLinks(text: string): TextSegment[] {
  const segments: TextSegment[] = [];
  let from = 0;
  for (const match of text.matchAll(URL)) {
    const url = match[0];
    if (!isSafeLink(url)) continue;
    if (match.index > from) segments.push({ type: 'text', text: text.slice(from, match.index) });
    segments.push({ type: 'link', url });
    from = match.index + url.length;
  }
  if (from < text.length) segments.push({ type: 'text', text: text.slice(from) });
  return segments;
}
