/** A terminal embedded in a tool call: the command, its live output (plain text), its status, and a way out to a VS Code terminal. */
import type { TerminalRecord } from '../../src/shared/model';
import { h, icon, textButton } from '../dom';
import { plainTerminalText, terminalStatus } from './terminal-text';

export function terminalView(terminalId: string, record: TerminalRecord | undefined): HTMLElement {
  const commandLine = record?.commandLine || `Terminal ${terminalId}`;
  const status = terminalStatus(record?.exit, record?.released ?? false);
  const spinning = status.tone === 'running' ? 'codicon-modifier-spin' : '';
  const header = h(
    'div',
    { className: 'terminal-header' },
    icon('terminal'),
    h('code', { className: 'terminal-command', text: commandLine, attrs: { title: commandLine } }),
    h(
      'span',
      { className: `terminal-status terminal-${status.tone}`, attrs: { role: 'status' } },
      icon(status.tone === 'running' ? 'loading' : status.tone === 'ok' ? 'check' : 'error', spinning),
      h('span', { text: status.label }),
    ),
  );
  const open = textButton('Open in Terminal', { secondary: true, icon: 'link-external', dataset: { action: 'open-terminal', terminalId } });
  // The name starts with the button's text, as speech input users say it.
  open.setAttribute('aria-label', `Open in Terminal: the output of ${commandLine}`);
  const text = plainTerminalText(record?.output ?? '');
  // column-reverse keeps the scroll position at the newest output without measuring anything.
  const output = h(
    'div',
    { className: 'terminal-output', attrs: { tabindex: '0', 'aria-label': `Output of ${commandLine}` } },
    h('pre', {
      text: (record?.trimmed ? '… earlier output not shown\n' : '') + (text || (status.tone === 'running' ? '' : '(no output)')),
    }),
  );
  const actions = h('div', { className: 'terminal-actions' }, open);
  if (record?.cancellable && !record.exit) {
    const stop = textButton('Stop', { secondary: true, icon: 'debug-stop', dataset: { action: 'cancel-terminal', terminalId } });
    stop.setAttribute('aria-label', `Stop ${commandLine}`);
    actions.append(stop);
  }
  return h('div', { className: 'terminal', attrs: { role: 'group', 'aria-label': `Terminal: ${commandLine}` } }, header, output, actions);
}
