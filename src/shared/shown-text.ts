/**
 * Text from an agent, a workspace, a registry or an MCP server, made inert for the VS Code surface that shows it.
 * VS Code parses some strings it shows (read in VS Code 1.139's workbench):
 * - a notification's message (and a notification progress's title and message) turns
 *   `[label](https://…|command:…|file:…)` into a link whose click runs the command, arguments included;
 * - an input box's prompt and validation message do the same, and render `$(icon)` as a codicon;
 * - a quick pick item's label, description and detail render `$(icon)`, and the description's and detail's hover
 *   renders them as markdown (only `<`, `>` and `&` escaped), where `[label](url)` is a link and `![](url)` loads;
 * - a terminal's tab and the status bar (where a notification's progress goes when toasts are hidden) render
 *   `$(icon)`.
 * Tree item labels, descriptions and string tooltips, quick pick titles and placeholders, modal dialogs and editor
 * titles are plain text (`textContent`).
 *
 * So a link is broken where `](` meets (a space goes between: `[a] (b)` is neither a markdown link nor one VS Code
 * parses, and ordinary text such as "Fix [bug] (urgent)" already reads that way), and an icon is escaped as VS Code
 * escapes it (`\$(name)` shows as `$(name)`; a backslash already there gets one more, so it shows too). Bidi and
 * invisible characters are shown as `<U+XXXX>` on every surface (visible-text.ts). Pure.
 */
import { visibleText } from './visible-text';

export type Surface =
  /** A notification's message, or a notification progress's title and message. */
  | 'notification'
  /** A notification progress's title: the toast's links, and the status bar's icons when toasts are hidden. */
  | 'progress'
  /** An input box's prompt or validation message. */
  | 'input-prompt'
  /** A quick pick item's label, description or detail. */
  | 'quick-pick'
  /** A terminal's name. */
  | 'terminal-name'
  /** What VS Code shows as text only: tree labels, string tooltips, quick pick titles and placeholders, dialogs. */
  | 'plain';

/** The icon syntax VS Code renders: `$(name)` or `$(name~modifier)` (its iconNameExpression and modifier). */
const ICON = /\$\([A-Za-z0-9-]+(?:~[A-Za-z]+)?\)/g;
/** Where a link's label meets its target, in markdown and in VS Code's own link syntax alike. */
const LINK_JOINT = /\](?=\()/g;

const PARSES: Record<Surface, { readonly links: boolean; readonly icons: boolean }> = {
  notification: { links: true, icons: false },
  progress: { links: true, icons: true },
  'input-prompt': { links: true, icons: true },
  'quick-pick': { links: true, icons: true },
  'terminal-name': { links: false, icons: true },
  plain: { links: false, icons: false },
};

/**
 * `text` as `surface` must be given it so that nothing in it is live. Apply it once, to the foreign part only: our
 * own `$(icon)` beside it stays an icon. `multiline` keeps line breaks (a notification folds them itself).
 */
export function shownText(text: string, surface: Surface, mode: 'single-line' | 'multiline' = defaultMode(surface)): string {
  const parses = PARSES[surface];
  let shown = visibleText(text, mode);
  if (parses.links) shown = shown.replace(LINK_JOINT, '] ');
  if (parses.icons) shown = shown.replace(ICON, (icon) => `\\${icon}`);
  return shown;
}

/** A quick pick row made only of foreign text (a registry's listing, say): each field made inert. */
export function shownPickItem<T extends { readonly label: string; readonly description?: string; readonly detail?: string }>(item: T): T {
  return {
    ...item,
    label: shownText(item.label, 'quick-pick'),
    ...(item.description === undefined ? {} : { description: shownText(item.description, 'quick-pick') }),
    ...(item.detail === undefined ? {} : { detail: shownText(item.detail, 'quick-pick') }),
  };
}

function defaultMode(surface: Surface): 'single-line' | 'multiline' {
  return surface === 'notification' || surface === 'progress' ? 'multiline' : 'single-line';
}
