/**
 * A tool call as a card: kind icon, title, status badge; its content (text, diffs, terminals), locations, the
 * permission question with the agent's options, and the raw input/output on demand. A card is rebuilt when its
 * entry changes: cards change far less often than messages stream, and diffs are cached per file. Its terminals
 * are the exception: they change many times a second in a flood, so each keeps its card and updates it in place.
 */
import type { JsonValue } from '../../src/shared/content';
import type { Entry, ToolCallEntry } from '../../src/shared/model';
import { h, icon, textButton } from '../dom';
import { permissionOptionStyle, toolKindIcon, toolStatusIcon, toolStatusLabel } from '../labels';
import { basename, contentBlockView } from './content-view';
import { diffView } from '../review/diff-view';
import type { EntryView, RenderContext } from './entry-view';
import { truncateForDisplay } from './display-text';
import { isFinished } from '../../src/shared/reducer-tools';
import { TerminalCard } from './terminal-view';
import { visibleText } from '../../src/shared/visible-text';
import { elicitationCard } from './elicitation-view';

export class ToolCallView implements EntryView {
  readonly element = h('div', { className: 'entry tool-call' });
  private readonly card = h('div', { className: 'card', attrs: { role: 'group' } });
  /** The terminals' cards, kept across renders: a terminal's posts update its card in place. */
  private terminals = new Map<string, TerminalCard>();
  /** What the card was last built from: when only a terminal changed, only that terminal's card is updated. */
  private built: { entry: ToolCallEntry; rawExpanded: boolean; answering: string | undefined } | undefined;

  constructor() {
    this.element.append(this.card);
  }

  render(entry: Entry, context: RenderContext): void {
    if (entry.kind !== 'tool_call') return;
    const rawExpanded = context.expandedRaw.has(entry.key);
    const answering = entry.permission ? context.answering.get(entry.permission.requestId) : undefined;
    const built = this.built;
    if (built && built.entry === entry && built.rawExpanded === rawExpanded && built.answering === answering) {
      for (const card of this.terminals.values()) card.update(context.terminals[card.terminalId], isFinished(entry.status));
      return;
    }
    this.built = { entry, rawExpanded, answering };
    this.element.dataset.status = entry.status;
    this.card.setAttribute('aria-label', visibleText(`Tool call: ${entry.title || 'untitled'}`, 'multiline'));
    const parts: HTMLElement[] = [header(entry)];
    const terminals = new Map<string, TerminalCard>();
    entry.content.forEach((content, index) => {
      switch (content.type) {
        case 'content':
          parts.push(h('div', { className: 'tool-content' }, contentBlockView(content.content)));
          break;
        case 'diff':
          parts.push(diffView(content, entry.toolCallId, index));
          break;
        case 'terminal': {
          // The same terminal twice in one call is drawn twice; only the first keeps its card across renders.
          const card = terminals.has(content.terminalId)
            ? new TerminalCard(content.terminalId)
            : (this.terminals.get(content.terminalId) ?? new TerminalCard(content.terminalId));
          if (!terminals.has(content.terminalId)) terminals.set(content.terminalId, card);
          card.update(context.terminals[content.terminalId], isFinished(entry.status));
          parts.push(card.element);
          break;
        }
        case 'unknown':
          parts.push(
            h('div', { className: 'content-chip' }, icon('question'), h('span', { text: `Unsupported content (${content.originalType})` })),
          );
          break;
      }
    });
    this.terminals = terminals;
    if (entry.locations.length > 0) parts.push(locations(entry));
    if (entry.permission) parts.push(permissionQuestion(entry, context));
    else if (entry.permissionOutcome) parts.push(permissionOutcome(entry.permissionOutcome));
    if (entry.elicitation) parts.push(elicitationCard(entry.elicitation));
    if (entry.rawInput !== undefined || entry.rawOutput !== undefined) parts.push(...rawSection(entry, rawExpanded));
    placeChildren(this.card, parts);
  }
}

/**
 * Makes `parts` the children of `parent`, in order, without taking out the ones already there (a terminal's card):
 * a node taken out and put back loses the focus and its scroll position, and the user may be reading it.
 */
function placeChildren(parent: HTMLElement, parts: readonly HTMLElement[]): void {
  const keep = new Set<Node>(parts);
  for (const child of [...parent.childNodes]) if (!keep.has(child)) child.remove();
  let cursor: ChildNode | null = parent.firstChild;
  for (const part of parts) {
    if (part === cursor) cursor = cursor.nextSibling;
    else parent.insertBefore(part, cursor);
  }
}

function header(entry: ToolCallEntry): HTMLElement {
  const spinning = entry.status === 'in_progress' ? 'codicon-modifier-spin' : '';
  return h(
    'div',
    { className: 'card-header' },
    h('span', { className: 'tool-kind', attrs: { title: entry.toolKind } }, icon(toolKindIcon(entry.toolKind))),
    h('span', { className: 'tool-title', text: entry.title || 'Tool call', attrs: { title: entry.title } }),
    h(
      'vscode-badge',
      { className: `status-badge status-${entry.status}`, attrs: { role: 'status', variant: 'counter' } },
      icon(toolStatusIcon(entry.status), spinning),
      h('span', { text: toolStatusLabel(entry.status) }),
    ),
  );
}

function locations(entry: ToolCallEntry): HTMLElement {
  const list = h('div', { className: 'tool-locations' });
  for (const location of entry.locations) {
    const label = location.line === undefined ? basename(location.path) : `${basename(location.path)}:${location.line}`;
    list.append(
      h(
        'button',
        {
          className: 'link-button',
          attrs: {
            type: 'button',
            'data-action': 'open-location',
            'data-path': location.path,
            'data-line': location.line === undefined ? undefined : String(location.line),
            title: location.path,
            'aria-label': `Open ${label}`,
          },
        },
        icon('file'),
        h('span', { text: label }),
      ),
    );
  }
  return list;
}

function permissionQuestion(entry: ToolCallEntry, context: RenderContext): HTMLElement {
  const permission = entry.permission!;
  const chosen = context.answering.get(permission.requestId);
  const buttons = h('div', { className: 'permission-options' });
  for (const option of permission.options) {
    const style = permissionOptionStyle(option.kind);
    const button = textButton(option.name, {
      secondary: !style.primary,
      icon: style.icon,
      dataset: { action: 'permission', requestId: permission.requestId, optionId: option.optionId },
    });
    button.dataset.kind = option.kind;
    if (chosen !== undefined) button.setAttribute('disabled', '');
    buttons.append(button);
  }
  return h(
    'div',
    { className: 'permission', attrs: { role: 'group', 'aria-label': 'Permission request' } },
    // The editor's own card (its id and fields only the editor sets): Allow makes the editor act, not the agent.
    h(
      'div',
      { className: 'permission-prompt' },
      icon('shield'),
      h('span', { text: entry.origin === 'editor' ? 'Allow this editor action?' : 'Allow this tool call?' }),
    ),
    buttons,
  );
}

function permissionOutcome(outcome: NonNullable<ToolCallEntry['permissionOutcome']>): HTMLElement {
  if (outcome === 'cancelled')
    return h('div', { className: 'permission-outcome' }, icon('close'), h('span', { text: 'Permission request cancelled' }));
  return h('div', { className: 'permission-outcome' }, icon('shield'), h('span', { text: `Answered: ${outcome.name}` }));
}

function rawSection(entry: ToolCallEntry, expanded: boolean): HTMLElement[] {
  const toggle = h(
    'button',
    {
      className: 'raw-toggle',
      attrs: {
        type: 'button',
        'data-action': 'toggle-raw',
        'data-key': entry.key,
        'aria-expanded': String(expanded),
        'aria-label': expanded ? 'Hide raw' : 'Show raw',
      },
    },
    icon(expanded ? 'chevron-down' : 'chevron-right'),
    h('span', { text: expanded ? 'Hide raw' : 'Show raw' }),
  );
  if (!expanded) return [toggle];
  const raw = h('div', { className: 'raw' });
  if (entry.rawInput !== undefined) raw.append(h('div', { className: 'raw-label', text: 'Input' }), rawJson(entry.rawInput));
  if (entry.rawOutput !== undefined) raw.append(h('div', { className: 'raw-label', text: 'Output' }), rawJson(entry.rawOutput));
  return [toggle, raw];
}

function rawJson(value: JsonValue): HTMLElement {
  return h('pre', { className: 'code', attrs: { tabindex: '0' }, text: truncateForDisplay(JSON.stringify(value, null, 2) ?? 'undefined') });
}
