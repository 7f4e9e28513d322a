/** A terminal embedded in a tool call: the command, its live output (plain text), its status, and a way out to a VS Code terminal. */
import type { TerminalRecord } from '../../src/shared/model';
import { h, icon, textButton } from '../dom';
import { terminalParts, terminalShown, type TerminalStatus } from './terminal-text';

const STATUS_ICON: Record<TerminalStatus['tone'], string> = { running: 'loading', ok: 'check', failed: 'error', unavailable: 'info' };

/** The output as one text, or, long, as blocks of lines that are laid out only when scrolled into view. */
function outputText(output: string): HTMLElement {
  const parts = terminalParts(output);
  if (parts.length === 1) return h('pre', { text: output });
  return h('pre', {}, ...parts.map((part) => h('div', { className: 'terminal-part', text: part })));
}

export function terminalView(terminalId: string, record: TerminalRecord | undefined, callFinished: boolean): HTMLElement {
  const shown = terminalShown(terminalId, record, callFinished);
  const { commandLine, status } = shown;
  const spinning = status.tone === 'running' ? 'codicon-modifier-spin' : '';
  const header = h(
    'div',
    { className: 'terminal-header' },
    icon('terminal'),
    h('code', { className: 'terminal-command', text: commandLine, attrs: { title: commandLine } }),
    h(
      'span',
      { className: `terminal-status terminal-${status.tone}`, attrs: { role: 'status' } },
      icon(STATUS_ICON[status.tone], spinning),
      h('span', { text: status.label }),
    ),
  );
  // column-reverse keeps the scroll position at the newest output without measuring anything.
  const output = h(
    'div',
    { className: 'terminal-output', attrs: { tabindex: '0', 'aria-label': `Output of ${commandLine}` } },
    outputText(shown.output),
  );
  const parts = [header, output];
  if (shown.controls) {
    const open = textButton('Open in Terminal', {
      secondary: true,
      icon: 'link-external',
      dataset: { action: 'open-terminal', terminalId },
    });
    // The name starts with the button's text, as speech input users say it.
    open.setAttribute('aria-label', `Open in Terminal: the output of ${commandLine}`);
    const actions = h('div', { className: 'terminal-actions' }, open);
    if (record?.cancellable && !record.exit) {
      const stop = textButton('Stop', { secondary: true, icon: 'debug-stop', dataset: { action: 'cancel-terminal', terminalId } });
      stop.setAttribute('aria-label', `Stop ${commandLine}`);
      actions.append(stop);
    }
    parts.push(actions);
  }
  return h('div', { className: 'terminal', attrs: { role: 'group', 'aria-label': `Terminal: ${commandLine}` } }, ...parts);
}
