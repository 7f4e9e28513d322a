/**
 * Markdown that grows while it streams, drawn into the DOM: `MarkdownStream` decides what changed, this keeps
 * one element per block (finished blocks are neither re-rendered nor re-laid-out) and appends a streaming code
 * block's new lines as text, so its earlier lines are never parsed or replaced again.
 */
import { h } from '../dom';
import { IdleReveal } from './idle-reveal';
import { MarkdownStream, UNBOUNDED, type BlockSink, type WorkBudget } from './markdown-stream';

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

/**
 * Characters of HTML per group, at most (a block longer than this has a group of its own). Only a group off
 * screen is skipped: 64 paragraphs of 4 KB made a group 90,000px tall, on screen and laid out whole. A group
 * shown is laid out whole in one frame: 24,000 characters took 30-40 ms of that on a slow 2-core machine.
 * Groups drawn while behind are this size too. Sized instead to a frame's layout allowance (layout-pace.ts, which
 * a slow machine lowers), so that catching up shows less at once, a 2 MB message's longest block with the CPU
 * throttled 2x was no better (54-79 ms in 4 runs against 56-65): in a run that logged both, 3 of its 5 blocks
 * over 50 ms came when it was not catching up. Behind groups of 4,000 characters (at least 4 blocks) with the near
 * ones shown one a frame, newest first, helped with the renderer throttled 1.5x (longest block median 60 ms against
 * 68 in 8 pairs) and hurt at full speed (51-57 ms against 44-50 in 5 pairs; shown 82-111 ms after the last post
 * against 21-75); without the 4 blocks, the 20 MB message of 4 KB paragraphs in the real VS Code made 5,000 groups
 * and a command waited 213-275 ms at p95 against 87. Not kept.
 */
const GROUP_CHARS = 16_000;

/** A group drawn while the stream is behind: neither styled nor laid out until it catches up (chat.css). */
const BEHIND = 'md-behind';

/**
 * Behind groups are shown as they come near the viewport, once the stream has caught up (its last frames' worth is
 * laid out as usual, markdown-stream.ts, so they lie above a screenful or more); the rest while the page idles
 * (idle-reveal.ts), a frame's worth at a time. Chromium renders a
 * content-visibility: auto element once when it first becomes one, on screen or not: showing a 2 MB message's 60
 * behind groups at once held the thread for 0.9 s, and showing even the newest one as the stream caught up (16,000
 * characters laid out in one frame) was most of that message's longest blocks on a slow machine.
 * The margin: how near the viewport (px) a behind group is when it is shown.
 */
const SHOW_MARGIN_PX = 1_500;

/**
 * A block is drawn into a wrapper element, so a block that changes is replaced whole. Once a whole group lies
 * between a block and the newest one, a block of one element loses its wrapper (chat.css spaces it the same):
 * a 2 MB message has 15,000 blocks, and a quarter fewer elements to style, lay out and trace for garbage
 * halved the longest frames while it streamed. A block that does change again gets a wrapper back.
 */
const WRAPPED_GROUPS = 2;

/**
 * Spacing is set by classes (chat.css): an unwrapped element must be told from a wrapper's children, and a
 * sibling selector for it would match every child of a long message. AFTER: a block after another in its group;
 * SOLE: a block's one element, unwrapped.
 */
const AFTER = 'md-after';
const SOLE = 'md-sole';
/** On a group whose last block is a sole element: that element's margin spaces it from the next group. */
const ENDS_SOLE = 'md-ends-sole';

function spaced(after: boolean, className: string): string {
  return after ? `${className} ${AFTER}` : className;
}

function isWrapper(block: Element | undefined): block is HTMLElement {
  return block instanceof HTMLElement && block.classList.contains('md-block');
}

/** The block's one element if it has exactly one and nothing else but white space, else undefined. */
function soleElement(wrapper: HTMLElement): Element | undefined {
  const element = wrapper.firstElementChild;
  if (!element || wrapper.childElementCount !== 1) return undefined;
  for (const node of wrapper.childNodes) if (node !== element && node.textContent?.trim()) return undefined;
  return element;
}

/** The end of the line that `at` falls in (after its newline), or the end of the text. */
function lineEndAfter(text: string, at: number): number {
  const newline = text.indexOf('\n', Math.max(0, at - 1));
  return newline === -1 ? text.length : newline + 1;
}

class DomBlocks implements BlockSink {
  /** Each block's wrapper (class md-block) or, unwrapped, its one element. */
  private readonly blocks: Element[] = [];
  private readonly code = new WeakMap<HTMLElement, CodeParts>();
  /** Index of each group's first block. */
  private readonly groupStarts: number[] = [];
  /** Characters of HTML (or code) drawn into each block. */
  private readonly blockChars: number[] = [];
  private behindGroups: HTMLElement[] = [];
  private behind = false;
  /** The next new block starts a group (the stream fell behind: what follows goes into groups laid out later). */
  private newGroupNext = false;

  constructor(private readonly container: HTMLElement) {}

  setHtml(index: number, html: string): void {
    this.blockChars[index] = html.length;
    if (this.behind && index === this.blocks.length && this.appendSole(html)) return;
    this.block(index).innerHTML = html;
  }

  /**
   * A new block drawn behind, if it is one element, goes in as unwrapGroup would leave it: drawn behind, a block is
   * past before it is seen, and wrapping it only to unwrap it two groups later cost a 2 MB message's drawing a
   * third of its DOM work.
   */
  private appendSole(html: string): boolean {
    const parsed = (this.scratch ??= document.createElement('div'));
    parsed.innerHTML = html;
    const element = soleElement(parsed);
    if (!element) return false;
    this.appendBlock(element, true);
    return true;
  }

  /** Where a block drawn behind is parsed (appendSole). */
  private scratch: HTMLElement | undefined;

  setBehind(behind: boolean): void {
    if (behind === this.behind) return;
    this.behind = behind;
    // Either way what follows starts a group: behind, one that waits; after, one laid out below those that wait.
    this.newGroupNext = true;
  }

  caughtUp(): void {
    this.behind = false;
    this.newGroupNext = false;
    const groups = this.behindGroups;
    if (groups.length === 0) return;
    this.behindGroups = [];
    // The text's end drawn behind (a last block too long to leave out) is on screen: shown now.
    this.showEnd(groups);
    if (groups.length === 0) return;
    // The scroller, not the page: an observer of the page's viewport sees a group only once it is on screen.
    const root = this.container.closest('.transcript');
    const shower = (this.shower ??= new IntersectionObserver(
      (entries) => {
        for (const entry of entries) if (entry.isIntersecting && entry.target instanceof HTMLElement) this.show(entry.target);
      },
      { root, rootMargin: `${SHOW_MARGIN_PX}px 0px` },
    ));
    for (const group of groups) shower.observe(group);
    // Those nobody scrolls to are shown while the page idles: until then a screen reader or find cannot reach them.
    this.idleReveal ??= new IdleReveal<HTMLElement>(
      (group) => this.show(group),
      (group) => group.classList.contains(BEHIND),
      GROUP_CHARS,
      (run) => requestIdleCallback((deadline) => run(deadline.timeRemaining())),
    );
    this.idleReveal.add(groups);
  }

  showNewest(): void {
    // What comes next goes behind again, in a group of its own.
    if (this.showEnd(this.behindGroups)) this.newGroupNext = true;
  }

  /** Lays out the last of `groups` (taken out of it) if it holds the text's end so far; returns whether it did. */
  private showEnd(groups: HTMLElement[]): boolean {
    const last = groups.at(-1);
    if (!last || last !== this.container.lastElementChild) return false;
    groups.pop();
    last.classList.remove(BEHIND);
    return true;
  }

  private show(group: HTMLElement): void {
    group.classList.remove(BEHIND);
    this.shower?.unobserve(group);
  }

  /** Shows behind groups as they come near the viewport. */
  private shower: IntersectionObserver | undefined;
  /** Shows the rest while the page idles. */
  private idleReveal: IdleReveal<HTMLElement> | undefined;

  setCodeShell(index: number, shellHtml: string): void {
    const block = this.block(index);
    block.innerHTML = shellHtml;
    this.blockChars[index] = shellHtml.length;
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
      this.blockChars[index] = (this.blockChars[index] ?? 0) + cut - from;
      from = cut;
    }
  }

  setCodeTail(index: number, text: string): void {
    this.codeParts(index).tail.data = text;
  }

  truncate(count: number): void {
    this.blockChars.length = Math.min(this.blockChars.length, count);
    while ((this.groupStarts.at(-1) ?? -1) >= count) this.groupStarts.pop();
    while (this.blocks.length > count) {
      const block = this.blocks.pop()!;
      const group = block.parentElement;
      block.remove();
      // Its last block gone, the group no longer ends with the element that spaces it from the next one.
      group?.classList.remove(ENDS_SOLE);
      if (group && group !== this.container && !group.hasChildNodes()) group.remove();
    }
    this.behindGroups = this.behindGroups.filter((group) => group.isConnected);
  }

  /** Whether a new block starts a group: the last one is full, or the stream fell behind since it began. */
  private startsGroup(): boolean {
    const start = this.groupStarts.at(-1);
    if (start === undefined || this.newGroupNext) return true;
    if (this.blocks.length - start >= BLOCKS_PER_GROUP) return true;
    let chars = 0;
    for (let index = start; index < this.blocks.length; index++) chars += this.blockChars[index] ?? 0;
    return chars >= GROUP_CHARS;
  }

  private block(index: number): HTMLElement {
    const existing = this.blocks[index];
    if (isWrapper(existing)) {
      this.code.delete(existing);
      return existing;
    }
    if (!existing) {
      const element = h('div', { className: 'md-block' });
      this.appendBlock(element, false);
      return element;
    }
    const element = h('div', { className: spaced(existing.classList.contains(AFTER), 'md-block') });
    // Wrapped again, the group's last block no longer carries the gap after the group.
    if (existing.parentElement?.lastElementChild === existing) existing.parentElement.classList.remove(ENDS_SOLE);
    existing.replaceWith(element);
    this.blocks[index] = element;
    return element;
  }

  /** Puts a new block last, in a new group if one starts here; `sole`: its one element, unwrapped (SOLE). */
  private appendBlock(element: Element, sole: boolean): void {
    const startsGroup = this.startsGroup();
    if (startsGroup) this.startGroup();
    if (!startsGroup) element.classList.add(AFTER);
    if (sole) element.classList.add(SOLE);
    const group = this.container.lastElementChild!;
    group.classList.toggle(ENDS_SOLE, sole);
    group.append(element);
    this.blocks.push(element);
  }

  private startGroup(): void {
    this.groupStarts.push(this.blocks.length);
    this.newGroupNext = false;
    const unwrapped = this.groupStarts.length - 1 - WRAPPED_GROUPS;
    if (unwrapped >= 0) this.unwrapGroup(this.groupStarts[unwrapped]!, this.groupStarts[unwrapped + 1]!);
    const group = this.container.appendChild(h('div', { className: this.behind ? `md-group ${BEHIND}` : 'md-group' }));
    if (this.behind) this.behindGroups.push(group);
  }

  /** Unwraps the one-element blocks of the group [start, end) (see WRAPPED_GROUPS). */
  private unwrapGroup(start: number, end: number): void {
    for (let index = start; index < end; index++) {
      const wrapper = this.blocks[index];
      if (!isWrapper(wrapper) || this.code.has(wrapper)) continue;
      const element = soleElement(wrapper);
      if (!element) continue;
      element.classList.add(SOLE);
      if (wrapper.classList.contains(AFTER)) element.classList.add(AFTER);
      if (index === end - 1) wrapper.parentElement?.classList.add(ENDS_SOLE);
      wrapper.replaceWith(element);
      this.blocks[index] = element;
    }
  }

  private codeParts(index: number): CodeParts {
    const block = this.blocks[index];
    const parts = block instanceof HTMLElement ? this.code.get(block) : undefined;
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
   * `heldChars`: characters of it still held by the host (MarkdownStream.draw).
   */
  update(text: string, budget: WorkBudget = UNBOUNDED, extendsLast = false, appended?: string, heldChars = 0): void {
    this.stream.setText(text, extendsLast, appended);
    this.complete = this.stream.draw(budget, heldChars);
  }

  get hasPendingWork(): boolean {
    return !this.complete;
  }
}
