/**
 * A tool call as a card: kind icon, title, status badge; its content (text, diffs, terminals), locations, the
 * permission question with the agent's options, and the raw input/output on demand. A card is rebuilt when its
 * entry changes: cards change far less often than messages stream, and diffs are cached per file.
 */
import type { JsonValue } from '../../src/shared/content';
import type { Entry, ToolCallEntry } from '../../src/shared/model';
import { h, icon, textButton } from '../dom';
import { permissionOptionStyle, toolKindIcon, toolStatusIcon, toolStatusLabel } from '../labels';
import { basename, contentBlockView } from './content-view';
import { diffView } from '../review/diff-view';
import type { EntryView, RenderContext } from './entry-view';
import { truncateForDisplay } from './entry-view';
import { isFinished } from '../../src/shared/reducer-tools';
import { terminalView } from './terminal-view';
import { elicitationCard } from './elicitation-view';

export class ToolCallView implements EntryView {
  readonly element = h('div', { className: 'entry tool-call' });

  render(entry: Entry, context: RenderContext): void {
    if (entry.kind !== 'tool_call') return;
    this.element.dataset.status = entry.status;
    const card = h(
      'div',
      { className: 'card', attrs: { role: 'group', 'aria-label': `Tool call: ${entry.title || 'untitled'}` } },
      header(entry),
    );
    entry.content.forEach((content, index) => {
      switch (content.type) {
        case 'content':
          card.append(h('div', { className: 'tool-content' }, contentBlockView(content.content)));
          break;
        case 'diff':
          card.append(diffView(content, entry.toolCallId, index));
          break;
        case 'terminal':
          card.append(terminalView(content.terminalId, context.terminals[content.terminalId], isFinished(entry.status)));
          break;
        case 'unknown':
          card.append(
            h('div', { className: 'content-chip' }, icon('question'), h('span', { text: `Unsupported content (${content.originalType})` })),
          );
          break;
      }
    });
    if (entry.locations.length > 0) card.append(locations(entry));
    if (entry.permission) card.append(permissionQuestion(entry, context));
    else if (entry.permissionOutcome) card.append(permissionOutcome(entry.permissionOutcome));
    if (entry.elicitation) card.append(elicitationCard(entry.elicitation));
    if (entry.rawInput !== undefined || entry.rawOutput !== undefined)
      card.append(...rawSection(entry, context.expandedRaw.has(entry.key)));
    this.element.replaceChildren(card);
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
    h('div', { className: 'permission-prompt' }, icon('shield'), h('span', { text: 'Allow this tool call?' })),
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
