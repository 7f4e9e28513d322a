/**
 * The completion list under the composer for slash commands: an ARIA listbox the textarea controls, with the
 * active option announced through aria-activedescendant (focus stays in the textarea while choosing).
 */
import type { AvailableCommand } from '../src/shared/model';
import { h } from './dom';

const LIST_ID = 'slash-command-list';

export class SlashMenu {
  readonly element = h('div', { className: 'slash-menu', attrs: { id: LIST_ID, role: 'listbox', 'aria-label': 'Slash commands' } });
  private items: readonly AvailableCommand[] = [];
  private active = 0;

  constructor(
    private readonly input: HTMLTextAreaElement,
    private readonly onPick: (command: AvailableCommand) => void,
  ) {
    input.setAttribute('aria-autocomplete', 'list');
    input.setAttribute('aria-controls', LIST_ID);
    // mousedown, not click: picking must not take focus away from the textarea first.
    this.element.addEventListener('mousedown', (event) => {
      const option = event.target instanceof Element ? event.target.closest<HTMLElement>('[data-index]') : null;
      const picked = option ? this.items[Number(option.dataset.index)] : undefined;
      if (!picked) return;
      event.preventDefault();
      this.onPick(picked);
    });
    this.show([]);
  }

  get isOpen(): boolean {
    return this.items.length > 0;
  }

  show(items: readonly AvailableCommand[]): void {
    const same = items.length === this.items.length && items.every((item, index) => item === this.items[index]);
    this.items = items;
    if (!same) this.active = 0;
    this.element.hidden = items.length === 0;
    this.input.setAttribute('aria-expanded', String(items.length > 0));
    this.element.replaceChildren(
      ...items.map((command, index) =>
        h(
          'div',
          {
            className: `slash-option${index === this.active ? ' active' : ''}`,
            attrs: { id: `${LIST_ID}-${index}`, role: 'option', 'aria-selected': String(index === this.active), 'data-index': String(index) },
          },
          h('span', { className: 'slash-name', text: `/${command.name}` }),
          h('span', { className: 'slash-description', text: command.description }),
          ...(command.inputHint ? [h('span', { className: 'slash-hint', text: command.inputHint })] : []),
        ),
      ),
    );
    if (items.length > 0) this.input.setAttribute('aria-activedescendant', `${LIST_ID}-${this.active}`);
    else this.input.removeAttribute('aria-activedescendant');
  }

  /** Up/Down move, Enter/Tab pick, Escape closes. Returns whether the key was the menu's. */
  handleKey(event: KeyboardEvent): boolean {
    if (!this.isOpen) return false;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        const step = event.key === 'ArrowDown' ? 1 : -1;
        this.active = (this.active + step + this.items.length) % this.items.length;
        this.show(this.items);
        this.element.children[this.active]?.scrollIntoView({ block: 'nearest' });
        return true;
      }
      case 'Enter':
      case 'Tab': {
        const picked = this.items[this.active];
        if (picked) this.onPick(picked);
        return true;
      }
      case 'Escape':
        this.show([]);
        return true;
      default:
        return false;
    }
  }
}
