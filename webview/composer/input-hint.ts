/**
 * A slash command's input hint, shown as ghost text right after `/name ` in the prompt box. The textarea's own
 * placeholder cannot do this: it disappears as soon as the box holds any text, and `/name ` is text.
 */
import { visibleText } from '../../src/shared/visible-text';
import { h } from '../dom';

const HINT_ID = 'prompt-input-hint';

export class InputHint {
  /** Laid over the textarea with the same font and padding; the typed part is invisible and only takes space. */
  readonly element = h('div', { className: 'input-hint', attrs: { id: HINT_ID } });
  private readonly typed = h('span', { className: 'input-hint-typed' });
  private readonly hint = h('span', { className: 'input-hint-text' });

  constructor(private readonly input: HTMLTextAreaElement) {
    this.element.append(this.typed, this.hint);
    this.show(undefined, '');
  }

  /** Shows `hint` after `typed` (the text in the box), or nothing. */
  show(hint: string | undefined, typed: string): void {
    this.element.hidden = hint === undefined;
    this.typed.textContent = typed;
    this.hint.textContent = visibleText(hint ?? '');
    // Screen readers hear the hint as the box's description; the invisible typed copy is left out of it.
    if (hint === undefined) this.input.removeAttribute('aria-describedby');
    else this.input.setAttribute('aria-describedby', HINT_ID);
  }
}
