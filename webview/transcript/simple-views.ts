/** Plans (a checklist), turn ends (why a turn stopped) and notices (with an optional action button). */
import type { Entry, PlanEntry } from '../../src/shared/model';
import { h, icon, setDisabled, textButton } from '../dom';
import { compactionStatusLabel, NOTICE_ACTIONS, planStatusIcon, planStatusLabel, severityIcon, stopReasonLabel } from '../labels';
import { basename } from './content-view';
import type { EntryView, RenderContext } from './entry-view';
import { StreamingMarkdown } from '../markdown/streaming-markdown';

export class PlanView implements EntryView {
  readonly element = h('div', { className: 'entry plan' });

  render(entry: Entry): void {
    if (entry.kind !== 'plan') return;
    this.element.replaceChildren(
      h('div', { className: 'plan-header' }, icon('checklist'), h('span', { text: 'Plan' })),
      planBody(entry.body),
    );
  }
}

export function planBody(body: PlanEntry['body']): HTMLElement {
  switch (body.type) {
    case 'items': {
      // A priority says something only next to a different one: badges show when priorities differ within the plan.
      const mixed = new Set(body.items.map((item) => item.priority)).size > 1;
      const list = h('ul', { className: 'plan-items', attrs: { 'aria-label': 'Plan' } });
      for (const item of body.items) {
        const spinning = item.status === 'in_progress' ? ' in-progress' : '';
        list.append(
          h(
            'li',
            {
              className: `plan-item status-${item.status}${spinning}`,
              attrs: { 'aria-label': `${item.content} (${planStatusLabel(item.status)}, ${item.priority} priority)` },
            },
            icon(planStatusIcon(item.status)),
            h('span', { className: 'plan-text', text: item.content }),
            !mixed ? undefined : h('span', { className: `priority priority-${item.priority}`, text: item.priority }),
          ),
        );
      }
      return list;
    }
    case 'markdown': {
      const view = new StreamingMarkdown();
      view.update(body.markdown);
      return view.element;
    }
    case 'file':
      return h(
        'button',
        {
          className: 'link-button',
          attrs: {
            type: 'button',
            'data-action': 'open-location',
            'data-path': body.path,
            'aria-label': `Open plan ${basename(body.path)}`,
          },
        },
        icon('file'),
        h('span', { text: basename(body.path) }),
      );
  }
}

export class TurnEndView implements EntryView {
  readonly element = h('div', { className: 'entry turn-end' });

  render(entry: Entry): void {
    if (entry.kind !== 'turn_end') return;
    const outcome = entry.outcome;
    if (outcome.type === 'error') {
      this.element.className = 'entry turn-end error';
      const code = outcome.code === undefined ? '' : ` (${outcome.code})`;
      this.element.replaceChildren(icon('error'), h('span', { text: `Error${code}: ${outcome.message}` }));
      return;
    }
    const label = stopReasonLabel(outcome.stopReason);
    this.element.className = label ? 'entry turn-end stopped' : 'entry turn-end';
    this.element.replaceChildren(
      ...(label
        ? [
            icon(outcome.stopReason === 'cancelled' ? 'debug-stop' : 'warning'),
            h('span', { text: label, attrs: { title: outcome.stopReason } }),
          ]
        : []),
    );
  }
}

export class NoticeView implements EntryView {
  readonly element = h('div', { className: 'entry notice' });

  render(entry: Entry, context: RenderContext): void {
    if (entry.kind !== 'notice') return;
    this.element.className = `entry notice severity-${entry.severity}`;
    const text = h('div', { className: 'notice-text' }, h('div', { className: 'notice-title', text: entry.title }));
    const children: HTMLElement[] = [icon(severityIcon(entry.severity)), text];
    for (const name of [entry.action, entry.alternative]) {
      if (!name) continue;
      const action = NOTICE_ACTIONS[name];
      const button = textButton(action.label, { secondary: action.secondary, icon: action.icon, dataset: { action: action.dataAction } });
      // Its moment has passed once a later notice or the agent's state superseded it (see live-notice.ts).
      setDisabled(button, entry.key !== context.liveNoticeKey);
      children.push(button);
    }
    // The detail (a crashed agent's last output, say) gets a row of its own under the title and buttons: beside a
    // button in a narrow sidebar it was a column a few words wide, dozens of lines tall.
    if (entry.detail) children.push(h('div', { className: 'notice-detail', text: entry.detail }));
    this.element.replaceChildren(...children);
  }
}

/**
 * A context compaction: the marker "Context compacted" (or its status), and the summary (markdown) once the agent
 * streams it, folded under the marker: it can be long, and the conversation goes on below it.
 */
export class CompactionView implements EntryView {
  readonly element = h('div', { className: 'entry compaction' });
  private readonly summary = new StreamingMarkdown();
  private readonly fold = h('details', { className: 'compaction-summary' }, h('summary', { text: 'Summary' }));

  render(entry: Entry): void {
    if (entry.kind !== 'compaction') return;
    const status = compactionStatusLabel(entry.status);
    const text = entry.summary.map((block) => (block.type === 'text' ? block.text : '')).join('');
    this.summary.update(text);
    const header = h(
      'div',
      { className: 'compaction-header' },
      icon(entry.status === 'in_progress' ? 'loading' : 'fold'),
      h('span', { text: status }),
    );
    const children: HTMLElement[] = [header];
    if (entry.error) children.push(h('div', { className: 'notice-detail', text: entry.error }));
    if (text) {
      // The same element across renders: a summary the user opened stays open while it streams.
      if (this.summary.element.parentElement !== this.fold) this.fold.append(this.summary.element);
      children.push(this.fold);
    }
    this.element.replaceChildren(...children);
  }
}
