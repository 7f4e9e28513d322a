/**
 * Markdown that grows while it streams: the text is split into top-level blocks and only blocks whose text
 * changed (in practice, the last one) are rendered again. Each block keeps its own element, so finished blocks
 * are neither re-rendered nor re-laid-out.
 */
import { h } from '../dom';
import { IncrementalBlockSplitter } from '../markdown-blocks';
import { renderMarkdown } from '../markdown';

export class StreamingMarkdown {
  readonly element = h('div', { className: 'markdown' });
  private readonly splitter = new IncrementalBlockSplitter();
  private readonly rendered: { text: string; element: HTMLElement }[] = [];

  update(text: string): void {
    const blocks = this.splitter.split(text);
    blocks.forEach((block, index) => {
      const existing = this.rendered[index];
      if (existing?.text === block) return;
      const html = renderMarkdown(block);
      if (existing) {
        existing.element.innerHTML = html;
        existing.text = block;
        return;
      }
      const element = h('div', { className: 'md-block' });
      element.innerHTML = html;
      this.element.append(element);
      this.rendered.push({ text: block, element });
    });
    while (this.rendered.length > blocks.length) this.rendered.pop()!.element.remove();
  }
}
