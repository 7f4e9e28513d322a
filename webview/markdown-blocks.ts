/**
 * Splits markdown into top-level blocks so a streaming message re-renders only what changed: finished blocks
 * keep their rendered HTML. Pure and DOM-free. Rendering the blocks one by one gives the HTML of the whole.
 *
 * A block ends at a blank line outside a code fence when the next line starts a new top-level construct (it is
 * not indented, and it is not the next item of a list the block already is). A fence at column 0 is a block of
 * its own, so a long code block can be streamed on its own. Text with link reference definitions is kept whole,
 * since a definition may serve links in any block.
 *
 * Boundaries are decided on complete lines only (a line still being written may turn into a list item, a fence
 * or an indented line), so a boundary, once found, holds however the text grows.
 */
import { closesFence, fenceOpening, opensTopLevelFence, type Fence } from './markdown-fence';

const BLANK = /^[ \t]*$/;
const LIST_ITEM = /^ {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]\n]+\]:/;
const INDENTED = /^[ \t]/;

/** Where a line ends and the next begins; markdown-it breaks lines at \n, \r\n and \r alike. */
function lineBreak(text: string, from: number): { end: number; next: number } | undefined {
  for (let index = from; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 10) return { end: index, next: index + 1 };
    if (code === 13) {
      // A \r last in the text may yet be followed by \n: the line is not complete.
      if (index + 1 >= text.length) return undefined;
      return { end: index, next: text.charCodeAt(index + 1) === 10 ? index + 2 : index + 1 };
    }
  }
  return undefined;
}

/** Scans complete lines once, remembering where it stopped; `boundaries` are the start offsets of blocks 2..n. */
class BlockScanner {
  readonly boundaries: number[] = [];
  /** Start of the first line not scanned yet (the incomplete last line, or the end of the text). */
  position = 0;
  hasDefinition = false;
  private blockIsList = false;
  private blockHasContent = false;
  private fence: (Fence & { topLevel: boolean }) | undefined;
  private blankSeen = false;
  private afterTopLevelFence = false;

  get inFence(): boolean {
    return this.fence !== undefined;
  }

  scan(text: string): void {
    for (let found = lineBreak(text, this.position); found; found = lineBreak(text, this.position)) {
      this.line(text.slice(this.position, found.end), this.position);
      this.position = found.next;
    }
  }

  /** A boundary the incomplete last line already implies (text after a closed top-level fence), if any. */
  pendingBoundary(text: string): number | undefined {
    if (this.position >= text.length || !this.afterTopLevelFence || !this.blockHasContent) return undefined;
    return BLANK.test(text.slice(this.position)) ? undefined : this.position;
  }

  private line(line: string, start: number): void {
    if (this.fence) {
      if (closesFence(line, this.fence)) {
        this.afterTopLevelFence = this.fence.topLevel;
        this.fence = undefined;
      }
      return;
    }
    if (BLANK.test(line)) {
      this.blankSeen = true;
      return;
    }
    const topLevelFence = opensTopLevelFence(line);
    const newConstruct = this.blankSeen && !INDENTED.test(line) && !(this.blockIsList && LIST_ITEM.test(line));
    if (this.blockHasContent && (this.afterTopLevelFence || topLevelFence || newConstruct)) {
      this.boundaries.push(start);
      this.blockHasContent = false;
    }
    if (!this.blockHasContent) this.blockIsList = LIST_ITEM.test(line);
    this.blockHasContent = true;
    this.blankSeen = false;
    this.afterTopLevelFence = false;
    if (REFERENCE_DEFINITION.test(line)) this.hasDefinition = true;
    const opening = fenceOpening(line);
    if (opening) this.fence = { ...opening, topLevel: topLevelFence };
  }
}

/** Blocks as [start, end) offsets into the text: no copies of a long message's text are kept. */
export interface BlockSplit {
  /** Start offset of each block; block i ends where block i + 1 starts, the last at the end of the text. */
  readonly starts: readonly number[];
  /** Blocks before this index are exactly as in the previous split (same offsets, same text). */
  readonly unchangedBefore: number;
  /** Whether the text extends the previous one (else everything is new). */
  readonly extended: boolean;
}

/**
 * Remembers where it stopped so that when text only grows (streaming) just the new lines are scanned: a
 * boundary depends only on the complete lines up to it, so earlier blocks cannot change.
 */
export class IncrementalBlockSplitter {
  private text = '';
  private scanner = new BlockScanner();
  private previousStarts: readonly number[] = [];

  split(text: string): BlockSplit {
    const extended = text.length >= this.text.length && text.startsWith(this.text);
    if (!extended) {
      this.scanner = new BlockScanner();
      this.previousStarts = [];
    }
    const same = extended && text.length === this.text.length;
    this.text = text;
    this.scanner.scan(text);
    let starts: number[];
    if (text === '') starts = [];
    else if (this.scanner.hasDefinition || (!this.scanner.inFence && REFERENCE_DEFINITION.test(text.slice(this.scanner.position))))
      starts = [0];
    else {
      starts = [0, ...this.scanner.boundaries];
      const pending = this.scanner.pendingBoundary(text);
      if (pending !== undefined) starts.push(pending);
    }
    const unchangedBefore = same && sameNumbers(this.previousStarts, starts) ? starts.length : commonPrefix(this.previousStarts, starts);
    this.previousStarts = starts;
    return { starts, unchangedBefore, extended };
  }
}

function sameNumbers(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}

/** Blocks of the old split whose start and end are the same in the new one (so, with the text extended, the same text). */
function commonPrefix(a: readonly number[], b: readonly number[]): number {
  let index = 0;
  // The last block of `a` ended at the old text's end: it is only unchanged if `b` ends it at the same place.
  while (index < a.length - 1 && index < b.length - 1 && a[index] === b[index] && a[index + 1] === b[index + 1]) index++;
  return index;
}

/** The blocks' texts (joined, the text again). */
export function blockTexts(text: string, starts: readonly number[]): string[] {
  return starts.map((start, index) => text.slice(start, starts[index + 1] ?? text.length));
}

export function splitMarkdownBlocks(text: string): string[] {
  return blockTexts(text, new IncrementalBlockSplitter().split(text).starts);
}
