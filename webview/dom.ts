/** Tiny helpers for building DOM without innerHTML (only rendered markdown goes through innerHTML). */

type Child = Node | string | undefined | false;

export interface ElementOptions {
  readonly className?: string;
  readonly text?: string;
  readonly attrs?: Readonly<Record<string, string | undefined>>;
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, options: ElementOptions = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (options.className) element.className = options.className;
  if (options.text !== undefined) element.textContent = options.text;
  if (options.attrs) {
    for (const [name, value] of Object.entries(options.attrs)) if (value !== undefined) element.setAttribute(name, value);
  }
  for (const child of children) if (child !== undefined && child !== false) element.append(child);
  return element;
}

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
  button.name = iconName;
  button.label = label;
  button.actionIcon = true;
  button.title = label;
  Object.assign(button.dataset, dataset);
  return button;
}

/** A text button from vscode-elements (primary unless `secondary`), with an optional leading codicon. */
export function textButton(label: string, options: { secondary?: boolean; icon?: string; dataset?: Readonly<Record<string, string>> } = {}): HTMLElement {
  const button = document.createElement('vscode-button');
  button.textContent = label;
  button.setAttribute('aria-label', label);
  if (options.secondary) button.setAttribute('secondary', '');
  if (options.icon) button.setAttribute('icon', options.icon);
  Object.assign(button.dataset, options.dataset ?? {});
  return button;
}

/** An icon-only vscode-button: a toolbar icon that can be disabled (vscode-icon cannot). */
export function iconOnlyButton(iconName: string, label: string, options: { title?: string; secondary?: boolean } = {}): HTMLElementTagNameMap['vscode-button'] {
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
  button.disabled = disabled;
  button.setAttribute('aria-disabled', String(disabled));
}
