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

/**
 * Where each complete line of `text` ends and the next begins; markdown-it breaks lines at \n, \r\n and \r
 * alike. Found with indexOf (native), not character by character: a flood's 4 KB lines cost that loop 20 ns a
 * character.
 */
function* lineBreaks(text: string): Generator<{ start: number; end: number; next: number }> {
  let from = 0;
  let carriage = text.indexOf('\r');
  let newline = text.indexOf('\n');
  for (;;) {
    if (carriage !== -1 && carriage < from) carriage = text.indexOf('\r', from);
    if (newline !== -1 && newline < from) newline = text.indexOf('\n', from);
    if (carriage !== -1 && (newline === -1 || carriage < newline)) {
      // A \r last in the text may yet be followed by \n: the line is not complete.
      if (carriage + 1 >= text.length) return;
      const next = text.charCodeAt(carriage + 1) === 10 ? carriage + 2 : carriage + 1;
      yield { start: from, end: carriage, next };
      from = next;
    } else if (newline !== -1) {
      yield { start: from, end: newline, next: newline + 1 };
      from = newline + 1;
    } else {
      return;
    }
  }
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

  /**
   * Scans the complete lines of `rest`, the text from `position` on; returns how much of it it took. Only the
   * unscanned rest is passed: indexing into a long text built by appending would make V8 copy all of it into
   * one flat string, once per call.
   */
  scan(rest: string): number {
    let from = 0;
    for (const found of lineBreaks(rest)) {
      this.line(rest.slice(found.start, found.end), this.position + found.start);
      from = found.next;
    }
    this.position += from;
    return from;
  }

  /** A boundary the incomplete last line already implies (text after a closed top-level fence), if any. */
  pendingBoundary(unscanned: string): number | undefined {
    if (unscanned === '' || !this.afterTopLevelFence || !this.blockHasContent) return undefined;
    return BLANK.test(unscanned) ? undefined : this.position;
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
  /**
   * Start offset of each block; block i ends where block i + 1 starts, the last at the end of the text. The
   * splitter updates this array in place on its next call (a copy per call would cost O(blocks)): read it first.
   */
  readonly starts: readonly number[];
  /** Blocks before this index are exactly as in the previous split (same offsets, same text). */
  readonly unchangedBefore: number;
  /** Whether the text extends the previous one (else everything is new). */
  readonly extended: boolean;
  /** Blocks before this index cannot change however the text grows (their text is no longer needed). */
  readonly finalBefore: number;
}

/**
 * Remembers where it stopped so that when text only grows (streaming) just the new lines are scanned: a
 * boundary depends only on the complete lines up to it, so earlier blocks cannot change. Each call costs
 * O(new text), not O(text): a 2 MB message has some 15,000 blocks.
 */
export class IncrementalBlockSplitter {
  /** The last text split, compared only when the caller does not know whether the next one extends it. */
  private text = '';
  private scanner = new BlockScanner();
  /** The text from the scanner's position on: the incomplete last line. */
  private unscanned = '';
  /** The last split's starts: [0, ...boundaries], or [0] alone while a definition keeps the text whole, then any pending boundary. */
  private readonly starts: number[] = [];
  /** How many of `starts` are [0, ...the scanner's boundaries] (the rest: a pending boundary). */
  private settled = 0;

  /**
   * `appended`: the caller knows `text` is the last text split followed by `appended`, so neither is read
   * whole. Without it the texts are compared.
   */
  split(text: string, appended?: string): BlockSplit {
    const extended = appended !== undefined || extendsText(text, this.text);
    if (!extended) {
      this.scanner = new BlockScanner();
      this.starts.length = 0;
      this.settled = 0;
      this.unscanned = text;
    } else {
      this.unscanned += appended ?? text.slice(this.text.length);
    }
    const same = extended && text.length === this.text.length;
    const previousSettled = this.settled;
    const pendingBefore = this.starts.length > this.settled ? this.starts[this.settled] : undefined;
    this.text = text;
    this.unscanned = this.unscanned.slice(this.scanner.scan(this.unscanned));
    // Settled starts only grow while the text does; a pending boundary is recomputed each time.
    this.starts.length = this.settled;
    const whole = this.scanner.hasDefinition || (!this.scanner.inFence && REFERENCE_DEFINITION.test(this.unscanned));
    if (text === '') {
      this.starts.length = 0;
      this.settled = 0;
    } else if (whole) {
      this.starts.length = 1;
      this.starts[0] = 0;
      this.settled = 0;
    } else {
      if (this.starts.length === 0) this.starts.push(0);
      const boundaries = this.scanner.boundaries;
      for (let index = this.starts.length - 1; index < boundaries.length; index++) this.starts.push(boundaries[index]!);
      this.settled = this.starts.length;
      const pending = this.scanner.pendingBoundary(this.unscanned);
      if (pending !== undefined) this.starts.push(pending);
    }
    const unchangedBefore = unchangedBlocks(previousSettled, pendingBefore, this.starts, same);
    // The last settled block ends at a pending boundary or at the end of the text, so it may still grow.
    return { starts: this.starts, unchangedBefore, extended, finalBefore: Math.max(0, this.settled - 1) };
  }
}

/**
 * Blocks of the previous split whose start and end are the same in this one (so, the text being extended, the
 * same text). The previous settled starts are a prefix of these, so all but the last of their blocks are
 * unchanged; that one is too if it ended at a pending boundary that is still a start, and not the last block.
 */
function unchangedBlocks(previousSettled: number, pendingBefore: number | undefined, starts: readonly number[], same: boolean): number {
  if (same) return starts.length;
  // Before or now one block for the whole text (or none): nothing is known to be kept.
  if (previousSettled === 0 || starts.length <= 1) return 0;
  const kept = previousSettled - 1;
  return pendingBefore !== undefined && kept < starts.length - 1 && starts[kept + 1] === pendingBefore ? kept + 1 : kept;
}

/** The blocks' texts (joined, the text again). */
export function blockTexts(text: string, starts: readonly number[]): string[] {
  return starts.map((start, index) => text.slice(start, starts[index + 1] ?? text.length));
}

export function splitMarkdownBlocks(text: string): string[] {
  return blockTexts(text, new IncrementalBlockSplitter().split(text).starts);
}

/**
 * Whether `text` begins with `previous`. Not `startsWith`: V8 compares that character by character (12 ms for
 * 2 MB), where `===` on the slice compares memory, and slicing a string built by appending to `previous`
 * finds `previous` inside it without copying.
 */
function extendsText(text: string, previous: string): boolean {
  return text.length >= previous.length && text.slice(0, previous.length) === previous;
}
