/**
 * Editing a sent message: Edit on a user message puts its text in the composer and shows this note above it. The
 * next Send goes as `resend_message`: the host restores the files to before that message (Restore to here, with
 * its preview) and continues from there in a conversation holding only the history up to it.
 */
import { h, iconButton } from '../dom';

export class MessageEdit {
  readonly element = h('div', { className: 'message-edit-note', attrs: { role: 'status' } });
  private editing: string | undefined;

  constructor() {
    this.element.hidden = true;
  }

  /** The turn of the message being edited, if one is. */
  get turnId(): string | undefined {
    return this.editing;
  }

  start(turnId: string): void {
    this.editing = turnId;
    this.element.hidden = false;
    this.element.replaceChildren(
      h('span', {
        text: 'Editing a sent message: Send restores the files to before it and runs it again from there (the original stays in Sessions).',
      }),
      iconButton('close', 'Stop editing (the composer then sends a new message)', { action: 'cancel-message-edit' }),
    );
  }

  stop(): void {
    this.editing = undefined;
    this.element.hidden = true;
    this.element.replaceChildren();
  }
}
