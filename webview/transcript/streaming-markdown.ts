/**
 * Markdown that grows while it streams, drawn into the DOM: `MarkdownStream` decides what changed, this keeps
 * one element per block (finished blocks are neither re-rendered nor re-laid-out) and appends a streaming code
 * block's new lines as text, so its earlier lines are never parsed or replaced again.
 */
import { h } from '../dom';
import { MarkdownStream, UNBOUNDED, type BlockSink, type WorkBudget } from '../markdown-stream';

interface CodeParts {
  readonly code: HTMLElement;
  /** The element finished lines go into now, and how many characters it holds. */
  lines: HTMLElement | undefined;
  linesChars: number;
  /** The incomplete last line, kept last so finished lines go after the line elements, before it. */
  readonly tail: Text;
}

/**
 * Characters of code per line element (display: block, chat.css). Layout redoes a whole inline formatting
 * context when text is added to it: appended to one text run, each frame of a 200 KB code block laid out and
 * painted all 200 KB again (some 25 ms). In separate blocks only the last one changes.
 */
const CODE_CHARS_PER_ELEMENT = 4_000;

/**
 * Blocks per group element. Layout walks a container's children, so a 2 MB message's 15,000 blocks sit in groups
 * that, off screen, are skipped whole (content-visibility in chat.css).
 */
const BLOCKS_PER_GROUP = 64;

/** The end of the line that `at` falls in (after its newline), or the end of the text. */
function lineEndAfter(text: string, at: number): number {
  const newline = text.indexOf('\n', Math.max(0, at - 1));
  return newline === -1 ? text.length : newline + 1;
}

class DomBlocks implements BlockSink {
  private readonly blocks: HTMLElement[] = [];
  private readonly code = new WeakMap<HTMLElement, CodeParts>();

  constructor(private readonly container: HTMLElement) {}

  setHtml(index: number, html: string): void {
    this.block(index).innerHTML = html;
  }

  setCodeShell(index: number, shellHtml: string): void {
    const block = this.block(index);
    block.innerHTML = shellHtml;
    const code = block.querySelector('code');
    if (!code) throw new Error('a fenced code block renders without <code>');
    code.classList.add('streamed-code');
    const tail = document.createTextNode('');
    code.append(tail);
    this.code.set(block, { code, lines: undefined, linesChars: 0, tail });
  }

  /** `text` is whole lines; a long text is cut at line ends into elements of about CODE_CHARS_PER_ELEMENT. */
  appendCode(index: number, text: string): void {
    const parts = this.codeParts(index);
    let from = 0;
    while (from < text.length) {
      if (!parts.lines || parts.linesChars >= CODE_CHARS_PER_ELEMENT) {
        parts.lines = h('span', { className: 'code-lines' });
        parts.linesChars = 0;
        parts.code.insertBefore(parts.lines, parts.tail);
      }
      const room = CODE_CHARS_PER_ELEMENT - parts.linesChars;
      const cut = from + room >= text.length ? text.length : lineEndAfter(text, from + room);
      parts.lines.append(text.slice(from, cut));
      parts.linesChars += cut - from;
      from = cut;
    }
  }

  setCodeTail(index: number, text: string): void {
    this.codeParts(index).tail.data = text;
  }

  truncate(count: number): void {
    while (this.blocks.length > count) {
      const block = this.blocks.pop()!;
      const group = block.parentElement;
      block.remove();
      if (group && group !== this.container && !group.hasChildNodes()) group.remove();
    }
  }

  private block(index: number): HTMLElement {
    const existing = this.blocks[index];
    if (existing) {
      this.code.delete(existing);
      return existing;
    }
    const element = h('div', { className: 'md-block' });
    const group =
      this.blocks.length % BLOCKS_PER_GROUP === 0
        ? this.container.appendChild(h('div', { className: 'md-group' }))
        : this.container.lastElementChild;
    (group ?? this.container).append(element);
    this.blocks.push(element);
    return element;
  }

  private codeParts(index: number): CodeParts {
    const block = this.blocks[index];
    const parts = block && this.code.get(block);
    if (!parts) throw new Error(`block ${index} is not a streaming code block`);
    return parts;
  }
}

export class StreamingMarkdown {
  readonly element = h('div', { className: 'markdown' });
  private readonly stream = new MarkdownStream(new DomBlocks(this.element));
  private complete = true;

  /**
   * Draws as much of `text` as the budget allows; `hasPendingWork` says whether more frames are needed. Without
   * a budget everything is drawn at once (short texts: plans, compaction summaries). `extendsLast`: the caller
   * knows `text` begins with the last one (a long text need not be compared); `appended`, what follows it.
   */
  update(text: string, budget: WorkBudget = UNBOUNDED, extendsLast = false, appended?: string): void {
    this.stream.setText(text, extendsLast, appended);
    this.complete = this.stream.draw(budget);
  }

  get hasPendingWork(): boolean {
    return !this.complete;
  }
}
