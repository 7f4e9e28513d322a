/**
 * A JSON-RPC message as its line's text in pieces, so a message carrying megabytes (a terminal's 16 MB of output
 * in a `terminal/output` answer) is serialized and written a slice at a time between other work: as one
 * `JSON.stringify` and one write it held the extension host's thread over a second (1.1-1.2 s under a 50 MB flood
 * with the default limit, its CPU profile and event-loop delay in test/integration/host-floods.test.ts), and every
 * command the user gave waited. The pieces joined are exactly `JSON.stringify(message) + '\n'`.
 */
import { randomUUID } from 'node:crypto';

/** Strings longer than this are serialized a slice of this many characters at a time. */
export const SLICE_CHARS = 256 * 1024;

/** Whether `value` holds a string longer than `limit` (the only messages worth slicing). */
export function hasLongString(value: unknown, limit = SLICE_CHARS): boolean {
  if (typeof value === 'string') return value.length > limit;
  if (typeof value !== 'object' || value === null) return false;
  const children: unknown[] = Array.isArray(value) ? value : Object.values(value);
  return children.some((child) => hasLongString(child, limit));
}

/** The characters of the strings in `value` (keys left out): about its JSON's length, for what waits unsent. */
export function stringChars(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (typeof value !== 'object' || value === null) return 0;
  let chars = 0;
  for (const child of Array.isArray(value) ? value : Object.values(value)) chars += stringChars(child);
  return chars;
}

/** The line's pieces, each serialized only when it is asked for. */
export function* jsonLinePieces(message: unknown, limit = SLICE_CHARS): Generator<string> {
  const long: string[] = [];
  // A placeholder no text can hold by chance: the long strings are spliced back in where they stand.
  const nonce = randomUUID();
  const json = JSON.stringify(message, (_key, value: unknown) => {
    if (typeof value !== 'string' || value.length <= limit) return value;
    long.push(value);
    return `\u0000${nonce}:${long.length - 1}`;
  });
  let at = 0;
  for (const [index, text] of long.entries()) {
    const marker = `"\\u0000${nonce}:${index}"`;
    const found = json.indexOf(marker, at);
    yield `${json.slice(at, found)}"`;
    at = found + marker.length;
    for (let start = 0; start < text.length; ) {
      let end = Math.min(start + limit, text.length);
      // Never between the halves of a surrogate pair: alone, each would be escaped on its own.
      const code = text.charCodeAt(end - 1);
      if (end < text.length && code >= 0xd800 && code <= 0xdbff) end += end - 1 > start ? -1 : 1;
      yield JSON.stringify(text.slice(start, end)).slice(1, -1);
      start = end;
    }
    yield '"';
  }
  yield `${json.slice(at)}\n`;
}
