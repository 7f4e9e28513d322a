/**
 * Tiny helpers for building DOM without innerHTML (only rendered markdown goes through innerHTML). Every text and
 * every label they set passes through visibleText: most of what the chat shows is named by the agent (titles,
 * paths, commands, option names, plan entries), and one choke point cannot be forgotten by a new view.
 */
import { visibleText } from '../src/shared/visible-text';

type Child = Node | string | undefined | false;

export interface ElementOptions {
  readonly className?: string;
  readonly text?: string;
  readonly attrs?: Readonly<Record<string, string | undefined>>;
}

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  options: ElementOptions = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (options.className) element.className = options.className;
  if (options.text !== undefined) element.textContent = visibleText(options.text, 'multiline');
  if (options.attrs) {
    for (const [name, value] of Object.entries(options.attrs))
      if (value !== undefined) element.setAttribute(name, SHOWN_ATTRIBUTES.has(name) ? visibleText(value, 'multiline') : value);
  }
  for (const child of children) if (child !== undefined && child !== false) element.append(child);
  return element;
}

/** Attributes a user reads (tooltips, screen readers); the rest (data-path...) must keep the agent's exact value. */
const SHOWN_ATTRIBUTES = new Set(['title', 'aria-label', 'placeholder']);

/** A decorative codicon; the control around it carries the accessible name. */
export function icon(name: string, extraClass = ''): HTMLSpanElement {
  return h('span', { className: `codicon codicon-${name}${extraClass ? ` ${extraClass}` : ''}`, attrs: { 'aria-hidden': 'true' } });
}

/**
 * A compact icon button in VS Code's toolbar style (vscode-icon in action-icon mode: a real button inside, named by
 * `label`). `data-action` routes its click (see transcript clicks); the click reaches us retargeted to this element.
 */
export function iconButton(iconName: string, label: string, dataset: Readonly<Record<string, string>> = {}): HTMLElement {
  const button = document.createElement('vscode-icon');
  // Labels name files and agents ("Open diff of <name>"), so they are shown like every text here; our fixed labels
  // hold no bidi or invisible character, and visibleText leaves them as they are.
  const shown = visibleText(label);
  button.name = iconName;
  button.label = shown;
  button.actionIcon = true;
  button.title = shown;
  Object.assign(button.dataset, dataset);
  return button;
}

/** A text button from vscode-elements (primary unless `secondary`), with an optional leading codicon. */
export function textButton(
  label: string,
  options: { secondary?: boolean; icon?: string; dataset?: Readonly<Record<string, string>> } = {},
): HTMLElementTagNameMap['vscode-button'] {
  const button = document.createElement('vscode-button');
  const shown = visibleText(label);
  button.textContent = shown;
  button.setAttribute('aria-label', shown);
  if (options.secondary) button.setAttribute('secondary', '');
  if (options.icon) button.setAttribute('icon', options.icon);
  Object.assign(button.dataset, options.dataset ?? {});
  return button;
}

/** An icon-only vscode-button: a toolbar icon that can be disabled (vscode-icon cannot). */
export function iconOnlyButton(
  iconName: string,
  label: string,
  options: { title?: string; secondary?: boolean } = {},
): HTMLElementTagNameMap['vscode-button'] {
  const button = document.createElement('vscode-button');
  button.icon = iconName;
  button.iconOnly = true;
  button.secondary = options.secondary ?? false;
  button.setAttribute('aria-label', label);
  button.title = options.title ?? label;
  return button;
}

/** vscode-button reflects `disabled` but does not say it to assistive technology (or to test tools): aria-disabled does. */
export function setDisabled(button: HTMLElementTagNameMap['vscode-button'], disabled: boolean): void {
  // Written only when it changes: the composer sets its buttons every frame a stream draws.
  if (button.disabled !== disabled) button.disabled = disabled;
  if (button.getAttribute('aria-disabled') !== String(disabled)) button.setAttribute('aria-disabled', String(disabled));
}
