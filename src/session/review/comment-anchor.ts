/**
 * Where a review comment points, kept by content rather than by line number: the lines it was written on. When the
 * file changes, the same lines are looked for again, nearest the old place first; a comment whose lines are gone
 * is outdated (it keeps its last place and says so), never silently moved onto other text.
 */
import type { LineRange } from '../../shared/attachments';

export interface CommentAnchor extends LineRange {
  /** The lines `startLine..endLine` held when the comment was written (or last re-placed). */
  readonly lines: readonly string[];
}

export type Placement = { readonly kind: 'same' } | { readonly kind: 'moved'; readonly range: LineRange } | { readonly kind: 'outdated' };

/** Line endings and trailing blanks are not content: a file re-saved with CRLF keeps its comments. */
const same = (a: string, b: string): boolean => a.trimEnd() === b.trimEnd();

export function splitLines(text: string): string[] {
  return text.split(/\r?\n/);
}

function holdsAt(fileLines: readonly string[], lines: readonly string[], start: number): boolean {
  if (start < 0 || start + lines.length > fileLines.length) return false;
  return lines.every((line, offset) => same(fileLines[start + offset] ?? '', line));
}

/** Where the anchor's lines are in `text` now. */
export function placeAnchor(text: string, anchor: CommentAnchor): Placement {
  const fileLines = splitLines(text);
  const count = anchor.lines.length;
  if (count === 0) return { kind: 'outdated' };
  const at = anchor.startLine - 1;
  if (holdsAt(fileLines, anchor.lines, at)) return { kind: 'same' };
  // Nearest occurrence to where it was: an edit above or below shifts it, a duplicate far away is a worse guess.
  let best: number | undefined;
  for (let start = 0; start + count <= fileLines.length; start++)
    if (holdsAt(fileLines, anchor.lines, start) && (best === undefined || Math.abs(start - at) < Math.abs(best - at))) best = start;
  if (best === undefined) return { kind: 'outdated' };
  return { kind: 'moved', range: { startLine: best + 1, endLine: best + count } };
}

/** The anchor for lines `range` of `text` (clamped to the file). */
export function anchorAt(text: string, range: LineRange): CommentAnchor {
  const fileLines = splitLines(text);
  const startLine = Math.min(Math.max(1, range.startLine), Math.max(1, fileLines.length));
  const endLine = Math.min(Math.max(startLine, range.endLine), Math.max(1, fileLines.length));
  return { startLine, endLine, lines: fileLines.slice(startLine - 1, endLine) };
}
