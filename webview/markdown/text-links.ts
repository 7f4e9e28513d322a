/**
 * Web addresses inside plain text an agent sends (a notice's description), cut out so they can be drawn as links.
 * linkify-it finds them (the matcher markdown-it already uses for links in messages), taking only addresses written
 * with http:// or https://; each must also pass the same safe-link rules as markdown links; anything else stays
 * text. Pure and DOM-free.
 */
import { LinkifyIt } from 'linkify-it';
import { isSafeLink } from '../../src/shared/link-safety';

export type TextSegment = { readonly type: 'text'; readonly text: string } | { readonly type: 'link'; readonly url: string };

// No bare domains or e-mail addresses, and no schemes other than http(s): ftp:, mailto: and protocol-relative go.
const addresses = new LinkifyIt({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false })
  .add('ftp:', null)
  .add('mailto:', null)
  .add('//', null);

export function splitLinks(text: string): TextSegment[] {
  const segments: TextSegment[] = [];
  let from = 0;
  for (const match of addresses.match(text) ?? []) {
    const url = text.slice(match.index, match.lastIndex);
    if (!isSafeLink(url)) continue;
    if (match.index > from) segments.push({ type: 'text', text: text.slice(from, match.index) });
    segments.push({ type: 'link', url });
    from = match.lastIndex;
  }
  if (from < text.length) segments.push({ type: 'text', text: text.slice(from) });
  return segments;
}
