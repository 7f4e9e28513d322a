/**
 * What to draw, block by block, for markdown that grows while it streams; pure and DOM-free (a `BlockSink`
 * draws). Finished blocks are rendered once. A fenced code block at the end is streamed: its shell is rendered
 * once and only new lines are appended, so a 200 KB code block costs what its new lines cost. Work stops when
 * the frame's budget is spent and resumes on the next call, so a 2 MB message that arrives at once is drawn
 * over several frames. Whatever the split points, the drawn result equals rendering the whole text at once.
 */
import { IncrementalBlockSplitter } from './markdown-blocks';
import { closesFence, fenceOpening, opensTopLevelFence, type Fence } from './markdown-fence';
import { renderMarkdown, renderMarkdownOnce } from '../../src/shared/markdown';
import { visibleText } from '../../src/shared/visible-text';
import { TextTail } from './text-tail';

/** Draws blocks in order; `index` is at most the current count (equal: a new block at the end). */
export interface BlockSink {
  setHtml(index: number, html: string): void;
  /** The block becomes a code block with no code yet: `shellHtml` is markdown-it's HTML for its opening line. */
  setCodeShell(index: number, shellHtml: string): void;
  /** Appends finished code lines to a code block, as shown (`shownCode`): put in as text, never as HTML. */
  appendCode(index: number, text: string): void;
  /** Replaces the code block's last, still incomplete line, as shown (`shownCode`). */
  setCodeTail(index: number, text: string): void;
  /** Drops blocks from `count` on. */
  truncate(count: number): void;
  /**
   * Behind (`true`): the text still to draw is far more than a frame's worth, and the blocks drawn next go where
   * they are neither styled nor laid out. `false`: the blocks drawn next are laid out as usual (after those drawn
   * behind, which keep waiting until `caughtUp`).
   */
  setBehind(behind: boolean): void;
  /**
   * Everything is drawn: the blocks drawn behind are laid out now if the text's end is among them, else only as
   * they come near the viewport.
   */
  caughtUp(): void;
  /**
   * All that has come is drawn, behind, and more is held: the newest blocks (the end so far, where a view that
   * follows the stream looks) are laid out; the rest keep waiting, and what follows is drawn behind again.
   */
  showNewest(): void;
}

export interface WorkBudget {
  exhausted(): boolean;
  now(): number;
  /**
   * Counts `chars` characters of text put into the page (their layout is part of the frame's cost);
   * `layoutDeferred`: put where they are not laid out now (see `BlockSink.setBehind`), only their time counts.
   */
  spend(chars: number, layoutDeferred?: boolean): void;
  /**
   * Characters of new text a frame lays out (FrameBudget: learned from this machine's layout, layout-pace.ts), which
   * sets how far behind a stream is before its drawing goes where it is not laid out.
   */
  readonly frameChars?: number;
}

/** A budget that never runs out. */
export const UNBOUNDED: WorkBudget = { exhausted: () => false, now: () => performance.now(), spend: () => undefined };

interface HtmlBlock {
  readonly type: 'html';
  readonly start: number;
  readonly end: number;
  readonly renderedAt: number;
  readonly costMs: number;
}

interface CodeBlock {
  readonly type: 'code';
  readonly start: number;
  end: number;
  readonly fence: Fence;
  /** Offset of the first content line not yet appended. */
  committed: number;
  closed: boolean;
  tail: string;
}

type DrawnBlock = HtmlBlock | CodeBlock;

/**
 * Undrawn text beyond which a stream is behind (`BlockSink.setBehind`): a few frames' worth of new text
 * (`WorkBudget.frameChars`, 32,000 at most). A 3.9 MB flood at 8 MB/s was drawn at the frame's 32,000 characters
 * (what their layout allows), 2.7 s for a stream of 0.5 s; text that is never on screen need not be laid out at all.
 * A machine that lays out fewer a frame is behind sooner: its catching up costs as many frames as a fast one's.
 */
const BEHIND_FRAMES = 4;
/**
 * While behind, the text within this many frames' worth of its end is laid out as usual, so the stream ends laid
 * out and catching up shows nothing that was drawn behind: that is the text a fast stream scrolled past, laid out
 * only if the reader scrolls back to it. Showing a behind group of 16,000 characters in one frame was most of the
 * longest main-thread blocks of a 2 MB message on a slow machine.
 */
const LAID_OUT_FRAMES = 2;
/** A budget that does not say its frame's characters: the most a frame lays out (FRAME_CHARS in frame-budget.ts). */
const DEFAULT_FRAME_CHARS = 32_000;

/** A last block at least this long is re-rendered at most at a rate that keeps its share of the time low. */
const LARGE_BLOCK_CHARS = 16_000;
/** A large last block waits this many times its last render's cost before it is rendered again. */
const LARGE_BLOCK_SPACING = 4;

function lineEnd(text: TextTail, from: number, limit: number): number {
  const newline = text.indexOf('\n', from);
  return newline === -1 || newline >= limit ? -1 : newline;
}

/** Whether [from, to) holds a character markdown-it rewrites (\r, NUL), which streamed code would not. */
function hasRewrittenCharacter(text: TextTail, from: number, to: number): boolean {
  const carriageReturn = text.indexOf('\r', from);
  const nul = text.indexOf('\0', from);
  return (carriageReturn !== -1 && carriageReturn < to) || (nul !== -1 && nul < to);
}

/**
 * Code as a full render shows it: renderMarkdown makes every bidi and invisible character in a fence visible as
 * plain `<U+XXXX>` text (Trojan Source: an override or isolate makes code read as other code), so streamed lines
 * must too. Per chunk of whole lines (or the incomplete last line) it equals the full render's pass over the whole
 * fence: the only patterns that look at a neighbour (a joiner between pictographs) never look across a newline, and
 * a carriage return, which does, is never streamed (`hasRewrittenCharacter`). Clean code costs one regex test.
 */
function shownCode(text: string): string {
  return visibleText(text, 'multiline');
}

export class MarkdownStream {
  private readonly splitter = new IncrementalBlockSplitter();
  /** The whole text, read only when the blocks still to draw begin before `tail` (rare: see `draw`). */
  private text = '';
  /** The text from the first block that may still be drawn on: all that drawing reads. */
  private readonly tail = new TextTail();
  private starts: readonly number[] = [];
  private drawn: DrawnBlock[] = [];
  /** Blocks before this index are drawn and cannot change while the text only grows. */
  private cleanBefore = 0;
  /** Blocks before this index cannot change however the text grows. */
  private finalBefore = 0;
  /** The drawing goes where it is not laid out (see `BlockSink.setBehind`), until it reaches the text to lay out. */
  private behind = false;

  constructor(private readonly sink: BlockSink) {}

  /**
   * Takes the new text; nothing is drawn until `draw`. `extendsLast`: the caller knows it begins with the last
   * text; `appended`, if also known, is what follows it (so the long text itself is not read).
   */
  setText(text: string, extendsLast = false, appended?: string): void {
    if (text === this.text) return;
    const added = extendsLast ? (appended ?? text.slice(this.tail.length)) : undefined;
    const split = this.splitter.split(text, added);
    this.text = text;
    this.starts = split.starts;
    this.finalBefore = split.finalBefore;
    if (!split.extended) {
      this.drawn = [];
      this.behind = false;
      this.sink.truncate(0);
      this.cleanBefore = 0;
      this.tail.reset(text);
      return;
    }
    this.tail.append(added ?? text.slice(this.tail.length));
    this.cleanBefore = Math.min(this.cleanBefore, split.unchangedBefore);
  }

  /**
   * Draws what changed until the budget runs out (a block begun is finished). Returns whether everything is
   * drawn. The frame's first drawing always has budget, so every stream gets its turn.
   *
   * `heldChars`: characters of this text that the sender holds for later (the host's backlog: it posts a stream no
   * faster than the chat takes it, at most POST_CHARS at a time, so the chat never had more than two posts to draw
   * and never knew it was behind). They count as text still to draw: far enough from the end, what has come is
   * drawn where it is not laid out, as it would be had the backlog arrived at once; it is laid out as the end nears,
   * or as it comes near the viewport. Until they come, the drawing stays behind.
   */
  draw(budget: WorkBudget, heldChars = 0): boolean {
    const count = this.starts.length;
    if (this.drawn.length > count) {
      this.drawn.length = count;
      this.sink.truncate(count);
    }
    // A block let go of may have to be drawn again: a link definition arriving makes the text one block.
    if ((this.starts[this.cleanBefore] ?? this.tail.length) < this.tail.start) this.tail.reset(this.text);
    const next = this.starts[this.cleanBefore] ?? this.tail.length;
    const frameChars = budget.frameChars ?? DEFAULT_FRAME_CHARS;
    const end = this.tail.length + heldChars;
    const laidOutFrom = end - LAID_OUT_FRAMES * frameChars;
    // Once behind, the drawing stays behind until it reaches the text to lay out (or the end).
    this.behind = next < laidOutFrom && (this.behind || end - next > BEHIND_FRAMES * frameChars);
    this.sink.setBehind(this.behind);
    const done = this.drawBlocks(count, budget, laidOutFrom);
    // All that has come is drawn, behind, and more is held: the drawing goes on behind when it comes, and meanwhile
    // the end so far is shown (else a view that follows the stream shows only space kept for text not laid out).
    if (done && this.behind && heldChars > 0) this.sink.showNewest();
    else if (done) {
      this.behind = false;
      this.sink.caughtUp();
    }
    this.tail.dropBefore(this.starts[Math.min(this.cleanBefore, this.finalBefore)] ?? this.tail.length);
    return done;
  }

  /** `laidOutFrom`: where the text to lay out begins, if the drawing is behind. */
  private drawBlocks(count: number, budget: WorkBudget, laidOutFrom: number): boolean {
    for (let index = this.cleanBefore; index < count; index++) {
      if (budget.exhausted()) {
        this.cleanBefore = index;
        return false;
      }
      const start = this.starts[index]!;
      const end = this.starts[index + 1] ?? this.tail.length;
      if (this.behind && start >= laidOutFrom) {
        this.behind = false;
        this.sink.setBehind(false);
      }
      if (this.drawBlock(index, start, end, budget) === 'deferred') {
        this.cleanBefore = index;
        return false;
      }
    }
    this.cleanBefore = Math.max(0, count - 1);
    return true;
  }

  private drawBlock(index: number, start: number, end: number, budget: WorkBudget): 'clean' | 'drawn' | 'deferred' {
    const old = this.drawn[index];
    if (old && old.start === start && old.end === end) return 'clean';
    if (old?.type === 'code' && old.start === start) {
      const from = old.end;
      if (this.extendCode(index, old, end)) {
        budget.spend(end - from, this.behind);
        return 'drawn';
      }
    }
    const isLast = end === this.tail.length;
    if (isLast && this.startCode(index, start, end)) {
      budget.spend(end - start, this.behind);
      return 'drawn';
    }
    if (
      old?.type === 'html' &&
      old.start === start &&
      isLast &&
      end - start >= LARGE_BLOCK_CHARS &&
      budget.now() - old.renderedAt < old.costMs * LARGE_BLOCK_SPACING
    ) {
      return 'deferred';
    }
    const began = budget.now();
    // A block that may still grow is drawn again as it does: its versions are not worth caching.
    const render = index >= this.finalBefore ? renderMarkdownOnce : renderMarkdown;
    this.sink.setHtml(index, render(this.tail.slice(start, end)));
    budget.spend(end - start, this.behind);
    const renderedAt = budget.now();
    this.drawn[index] = { type: 'html', start, end, renderedAt, costMs: renderedAt - began };
    return 'drawn';
  }

  /** Starts streaming a block that opens with a top-level fence; false if it is not one. */
  private startCode(index: number, start: number, end: number): boolean {
    const firstLineEnd = lineEnd(this.tail, start, end);
    if (firstLineEnd === -1) return false;
    const opening = this.tail.slice(start, firstLineEnd);
    const fence = fenceOpening(opening);
    if (!fence || !opensTopLevelFence(opening) || hasRewrittenCharacter(this.tail, start, end)) return false;
    this.sink.setCodeShell(index, renderMarkdown(`${opening}\n`));
    const block: CodeBlock = { type: 'code', start, end: firstLineEnd + 1, fence, committed: firstLineEnd + 1, closed: false, tail: '' };
    this.drawn[index] = block;
    // If the rest cannot be streamed, the caller renders the block whole instead, replacing the shell.
    return this.extendCode(index, block, end);
  }

  /** Appends the code block's new lines; false if the new text is not what a streamed code block can show. */
  private extendCode(index: number, block: CodeBlock, end: number): boolean {
    if (end < block.end || hasRewrittenCharacter(this.tail, block.committed, end)) return false;
    let lineStart = block.committed;
    let appendFrom = block.committed;
    for (let newline = lineEnd(this.tail, lineStart, end); newline !== -1; newline = lineEnd(this.tail, lineStart, end)) {
      const line = this.tail.slice(lineStart, newline);
      if (block.closed) {
        // After the closing line the splitter ends the block at the first non-blank line.
        if (line.trim() !== '') return false;
      } else if (closesFence(line, block.fence)) {
        if (lineStart > appendFrom) this.sink.appendCode(index, shownCode(this.tail.slice(appendFrom, lineStart)));
        block.closed = true;
      }
      lineStart = newline + 1;
      if (block.closed) appendFrom = lineStart;
    }
    if (!block.closed && lineStart > appendFrom) this.sink.appendCode(index, shownCode(this.tail.slice(appendFrom, lineStart)));
    block.committed = lineStart;
    // The incomplete last line is shown as it is, unless it closes the fence (markdown-it closes on a last line)
    // or is only spaces and tabs (markdown-it drops such a last line).
    const rest = this.tail.slice(lineStart, end);
    const tail = block.closed || closesFence(rest, block.fence) || /^[ \t]*$/.test(rest) ? '' : rest;
    if (block.closed && rest.trim() !== '') return false;
    if (tail !== block.tail) {
      this.sink.setCodeTail(index, shownCode(tail));
      block.tail = tail;
    }
    block.end = end;
    return true;
  }
}
