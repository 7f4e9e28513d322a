/**
 * A completion list under the composer (slash commands, `@` files): an ARIA listbox the textarea controls, with
 * the active option announced through aria-activedescendant (focus stays in the textarea while choosing).
 */
import { h } from '../dom';

export interface CompletionOptions<T> {
  /** Unique per page: the listbox's id. */
  readonly id: string;
  /** The listbox's accessible name. */
  readonly label: string;
  /** The option's content. */
  readonly render: (item: T) => Node[];
}

export class CompletionMenu<T> {
  readonly element: HTMLElement;
  private items: readonly T[] = [];
  private active = 0;

  constructor(
    private readonly input: HTMLTextAreaElement,
    private readonly options: CompletionOptions<T>,
    private readonly onPick: (item: T) => void,
  ) {
    this.element = h('div', { className: 'completion-menu', attrs: { id: options.id, role: 'listbox', 'aria-label': options.label } });
    input.setAttribute('aria-autocomplete', 'list');
    // mousedown, not click: picking must not take focus away from the textarea first.
    this.element.addEventListener('mousedown', (event) => {
      const option = event.target instanceof Element ? event.target.closest<HTMLElement>('[data-index]') : null;
      const picked = option ? this.items[Number(option.dataset.index)] : undefined;
      if (picked === undefined) return;
      event.preventDefault();
      this.onPick(picked);
    });
    this.show([]);
  }

  get isOpen(): boolean {
    return this.items.length > 0;
  }

  show(items: readonly T[]): void {
    const same = items.length === this.items.length && items.every((item, index) => item === this.items[index]);
    const wasOpen = this.isOpen;
    this.items = items;
    if (!same) this.active = 0;
    this.element.hidden = items.length === 0;
    // The textarea controls whichever list is open; a closing list gives the attributes up. No aria-expanded: a
    // textarea is a textbox, which does not take it (axe: aria-allowed-attr), and cannot be given the combobox role.
    if (items.length > 0) {
      this.input.setAttribute('aria-controls', this.options.id);
      this.input.setAttribute('aria-activedescendant', `${this.options.id}-${this.active}`);
    } else if (wasOpen || this.input.getAttribute('aria-controls') === this.options.id) {
      this.input.removeAttribute('aria-activedescendant');
      if (this.input.getAttribute('aria-controls') === this.options.id) this.input.removeAttribute('aria-controls');
    }
    this.element.replaceChildren(
      ...items.map((item, index) =>
        h(
          'div',
          {
            className: `completion-option${index === this.active ? ' active' : ''}`,
            attrs: {
              id: `${this.options.id}-${index}`,
              role: 'option',
              'aria-selected': String(index === this.active),
              'data-index': String(index),
            },
          },
          ...this.options.render(item),
        ),
      ),
    );
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
        if (picked !== undefined) this.onPick(picked);
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
