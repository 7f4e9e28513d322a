/**
 * "N review comments" above the composer, while the conversation has comments on the agent's diff not yet sent,
 * with Send to agent: one prompt quoting them all, plus whatever is typed in the composer (the host builds it).
 */
import type { HostInfo } from '../../src/shared/webview-protocol';
import { h, icon, textButton } from '../dom';

export class ReviewCommentsBar {
  readonly element = h('div', { className: 'review-comments-bar', attrs: { role: 'status' } });
  private shownCount = -1;

  constructor() {
    this.element.hidden = true;
  }

  update(host: HostInfo | undefined, conversationId: string | undefined): void {
    const count = conversationId === undefined ? 0 : (host?.reviewComments?.[conversationId] ?? 0);
    if (count === this.shownCount) return;
    this.shownCount = count;
    this.element.hidden = count === 0;
    this.element.replaceChildren(
      icon('comment-discussion'),
      h('span', { className: 'review-comments-count', text: `${count} review comment${count === 1 ? '' : 's'}` }),
      textButton('Send to agent', { icon: 'send', dataset: { action: 'send-review-comments' } }),
    );
  }
}
