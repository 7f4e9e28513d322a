/** User messages (plain text, as typed), agent messages (streaming markdown) and thoughts (collapsed). */
import type { ContentBlock } from '../../src/shared/content';
import { appendedText, knownToExtend } from '../../src/shared/text-growth';
import type { Entry, MessageEntry } from '../../src/shared/model';
import { h, icon, iconButton } from '../dom';
import { contentBlockView } from './content-view';
import type { WorkBudget } from '../markdown/markdown-stream';
import type { EntryView, RenderContext } from './entry-view';
import { plainMessageText } from './display-text';
import { StreamingMarkdown } from '../markdown/streaming-markdown';

type TextBlock = Extract<ContentBlock, { type: 'text' }>;

type Part =
  | { readonly type: 'markdown'; readonly view: StreamingMarkdown; block: TextBlock }
  | { readonly type: 'plain'; readonly element: HTMLElement; text: string }
  | { readonly type: 'other'; readonly block: ContentBlock; readonly element: HTMLElement };

/** Renders a message's content blocks in order, updating text parts in place. */
class MessageBody {
  readonly element: HTMLElement;
  private parts: Part[] = [];

  constructor(
    className: string,
    private readonly markdown: boolean,
  ) {
    this.element = h('div', { className });
  }

  get hasPendingWork(): boolean {
    return this.parts.some((part) => part.type === 'markdown' && part.view.hasPendingWork);
  }

  /** `heldChars`: characters of the last block's text the host still holds (StreamingMarkdown.update). */
  update(content: readonly ContentBlock[], budget: WorkBudget, heldChars = 0): void {
    content.forEach((block, index) => {
      const part = this.parts[index];
      const held = index === content.length - 1 ? heldChars : 0;
      if (block.type === 'text') {
        if (part?.type === 'markdown') {
          const extendsLast = knownToExtend(part.block, block);
          const appended = extendsLast ? appendedText(part.block, block) : undefined;
          part.block = block;
          return part.view.update(block.text, budget, extendsLast, appended, held);
        }
        if (part?.type === 'plain') {
          if (part.text !== block.text) part.element.textContent = plainMessageText(block.text);
          part.text = block.text;
          return;
        }
      } else if (part?.type === 'other' && part.block === block) {
        return;
      }
      this.replacePart(index, this.createPart(block, budget, held));
    });
    while (this.parts.length > content.length) partElement(this.parts.pop()!).remove();
  }

  private createPart(block: ContentBlock, budget: WorkBudget, heldChars: number): Part {
    // The user knows what they attached: their message shows attachments as links, not the files' text again.
    if (block.type !== 'text') return { type: 'other', block, element: contentBlockView(block, { compact: !this.markdown }) };
    if (!this.markdown)
      return { type: 'plain', element: h('div', { className: 'plain-text', text: plainMessageText(block.text) }), text: block.text };
    const view = new StreamingMarkdown();
    view.update(block.text, budget, false, undefined, heldChars);
    return { type: 'markdown', view, block };
  }

  private replacePart(index: number, part: Part): void {
    const old = this.parts[index];
    if (old) partElement(old).replaceWith(partElement(part));
    else this.element.append(partElement(part));
    this.parts[index] = part;
  }
}

function partElement(part: Part): HTMLElement {
  return part.type === 'markdown' ? part.view.element : part.element;
}

export class MessageView implements EntryView {
  readonly element: HTMLElement;
  private body: MessageBody | undefined;
  private readonly toggle: HTMLButtonElement | undefined;

  constructor(private readonly role: MessageEntry['role']) {
    this.element = h('div', { className: `entry message ${role}` });
    if (role === 'thought') {
      this.toggle = h('button', { className: 'thought-toggle', attrs: { type: 'button', 'data-action': 'toggle-thought' } });
      this.element.append(this.toggle);
    } else {
      this.body = this.newBody();
      this.element.append(this.body.element);
    }
  }

  get hasPendingWork(): boolean {
    return this.body?.hasPendingWork ?? false;
  }

  render(entry: Entry, context: RenderContext, budget: WorkBudget): void {
    if (entry.kind !== 'message') return;
    const held = context.streamingKey === entry.key ? (context.streamHeldChars?.() ?? 0) : 0;
    if (this.role !== 'thought') {
      this.body!.update(entry.content, budget, held);
      if (this.role === 'user') this.showRestore(entry.turnId);
      return;
    }
    const expanded = context.expandedThoughts.has(entry.key);
    const streaming = context.streamingKey === entry.key;
    const toggle = this.toggle!;
    toggle.replaceChildren(
      icon(expanded ? 'chevron-down' : 'chevron-right'),
      streaming ? icon('loading', 'codicon-modifier-spin') : icon('lightbulb'),
      h('span', { text: streaming ? 'Thinking…' : 'Thought' }),
    );
    toggle.dataset.key = entry.key;
    toggle.setAttribute('aria-expanded', String(expanded));
    toggle.setAttribute('aria-label', `${streaming ? 'Thinking' : 'Thought'}: ${expanded ? 'collapse' : 'expand'}`);
    if (!expanded) {
      // Collapsed thoughts render nothing, so a long hidden thought costs no markdown work while it streams.
      this.body?.element.remove();
      this.body = undefined;
      return;
    }
    if (!this.body) {
      this.body = this.newBody();
      this.element.append(this.body.element);
    }
    this.body.update(entry.content, budget, held);
  }

  /** "Restore to here": every user message is a checkpoint; the host previews what would change before acting. */
  private showRestore(turnId: string | undefined): void {
    if (turnId === undefined || this.restore?.dataset.turnId === turnId) return;
    this.restore?.remove();
    this.restore = iconButton('history', 'Restore to here: put back the files the agent changed after this message', {
      action: 'restore-checkpoint',
      turnId,
    });
    this.restore.classList.add('restore-checkpoint');
    this.edit?.remove();
    this.edit = iconButton('edit', 'Edit and run again from here (restores the files to before this message)', {
      action: 'edit-message',
      turnId,
    });
    this.edit.classList.add('edit-message');
    this.element.append(this.restore, this.edit);
  }

  private restore: HTMLElement | undefined;
  private edit: HTMLElement | undefined;

  private newBody(): MessageBody {
    return new MessageBody(this.role === 'user' ? 'message-body user-bubble' : 'message-body', this.role !== 'user');
  }
}
