/**
 * Which text blocks the reducer made by appending a chunk to another. A streaming message's view asks whether
 * the new text extends the text it drew: comparing 2 MB built by appending costs V8 milliseconds every frame,
 * and this answers in O(1). A block made by appending joins its predecessor's line; appending to a block a
 * second time (two states reduced from one) starts no line, so each line is one chain and every text in it
 * begins with every shorter one.
 *
 * The line also keeps the chunks appended since the view last asked, so it can take just the new text. Reading
 * any part of a string built by appending makes V8 copy all of it into one flat string first: slicing the new
 * end off a 2 MB message copied 4 MB every frame (3 s of a 10 s stream).
 */
import type { ContentBlock } from './content';

type TextBlock = Extract<ContentBlock, { type: 'text' }>;

/** The chunks appended along one line that no view has taken yet: they span [start, end) of the line's text. */
interface Line {
  pieces: string[];
  start: number;
  end: number;
}

/**
 * Chunks kept per line at most (UTF-16 code units). A view takes them every frame (some kilobytes); a line no
 * view reads (a message scrolled out of view) stops at this, and its view, if it comes back, reads the text.
 * The pieces are the strings the message's text is built from (not copies), so a line costs little. Not less than
 * one post of a flood at its worst: with 256 KB, a flood's post of 560 KB (8 MB/s, its frames late) was not kept, and the view
 * read the new end through the 3.9 MB text, copying all of it (100 ms).
 */
const MAX_KEPT_CHARS = 2 * 1024 * 1024;

const lineOf = new WeakMap<TextBlock, Line>();
const appendedTo = new WeakSet<TextBlock>();
/**
 * Off in the extension host, which draws nothing: it asks neither question, and a weak-map entry per chunk was
 * an eighth of its update throughput (and the chunks would be held twice).
 */
let tracking = false;

/** Called once where messages are drawn: appends are recorded for `knownToExtend` and `appendedText`. */
export function trackTextGrowth(): void {
  tracking = true;
}

export function recordAppend(from: TextBlock, to: TextBlock, appended: string): void {
  if (!tracking || appendedTo.has(from)) return;
  appendedTo.add(from);
  let line = lineOf.get(from);
  if (!line) {
    line = { pieces: [], start: from.text.length, end: from.text.length };
    lineOf.set(from, line);
  }
  lineOf.set(to, line);
  if (line.end !== from.text.length || to.text.length !== from.text.length + appended.length) {
    // Not a plain append after the line's end (a text cut at the message limit): start keeping afresh.
    line.pieces = [];
    line.start = to.text.length;
  } else {
    line.pieces.push(appended);
  }
  line.end = to.text.length;
  while (line.end - line.start > MAX_KEPT_CHARS) dropFirstPiece(line);
}

function dropFirstPiece(line: Line): void {
  line.start += line.pieces.shift()?.length ?? 0;
}

/** True if `later`'s text is known to begin with `earlier`'s; false means unknown (compare the texts). */
export function knownToExtend(earlier: TextBlock, later: TextBlock): boolean {
  if (earlier === later) return true;
  const line = lineOf.get(later);
  return line !== undefined && line === lineOf.get(earlier) && later.text.length >= earlier.text.length;
}

/**
 * The text `later` has beyond `earlier` (`later.text.slice(earlier.text.length)`) from the kept chunks, without
 * reading `later.text`; undefined when they are not kept (the caller slices). Chunks before `earlier`'s end are
 * let go: the view that asks has drawn them.
 */
export function appendedText(earlier: TextBlock, later: TextBlock): string | undefined {
  if (earlier === later) return '';
  if (!knownToExtend(earlier, later)) return undefined;
  const line = lineOf.get(later)!;
  const from = earlier.text.length;
  const to = later.text.length;
  if (from < line.start || to > line.end) return undefined;
  while (line.pieces.length > 0 && line.start + line.pieces[0]!.length <= from) dropFirstPiece(line);
  const taken: string[] = [];
  let offset = line.start;
  for (const piece of line.pieces) {
    if (offset >= to) break;
    taken.push(piece);
    offset += piece.length;
  }
  // Joining small flat strings gives a flat string: reading it later copies nothing.
  return taken.join('').slice(from - line.start, to - line.start);
}
