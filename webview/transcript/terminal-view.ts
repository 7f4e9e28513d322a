/**
 * A terminal embedded in a tool call: the command, its live output (plain text), its status, and a way out to a VS
 * Code terminal. One card per terminal lives as long as its tool call's view and is updated in place: a flood posts
 * the terminal four times a second, and each post used to rebuild the card and lay out its whole output again.
 */
import type { TerminalRecord } from '../../src/shared/model';
import { visibleText } from '../../src/shared/visible-text';
import { h, icon, textButton } from '../dom';
import { terminalParts, terminalShown, terminalTail, type TerminalShown, type TerminalStatus } from './terminal-text';

const STATUS_ICON: Record<TerminalStatus['tone'], string> = { running: 'loading', ok: 'check', failed: 'error', unavailable: 'info' };

/** Scrolled this far (px) from the newest line, the user is reading back. */
const READING_BACK_PX = 2;

/** The output as one text, or, long, as blocks of lines that are laid out only when scrolled into view. */
function outputText(output: string): HTMLElement {
  const parts = terminalParts(output);
  if (parts.length === 1) return h('pre', { text: output });
  return h('pre', {}, ...parts.map((part) => h('div', { className: 'terminal-part', text: part })));
}

export class TerminalCard {
  readonly element = h('div', { className: 'terminal', attrs: { role: 'group' } });
  // column-reverse keeps the scroll position at the newest output without measuring anything.
  private readonly output = h('div', { className: 'terminal-output', attrs: { tabindex: '0' } });
  private header: HTMLElement | undefined;
  private actions: HTMLElement | undefined;
  private drawnHeader = '';
  private drawnActions = '';
  private drawnLabel = '';
  /** The text in the output box, and whether it is the whole kept output or only its tail. */
  private drawnText: string | undefined;
  private drawnWhole = false;
  /** What the last update showed, so that reading back can draw the whole output at once. */
  private shown: TerminalShown | undefined;
  /** The user scrolled up in the output or moved the focus into it: they read it, so it is drawn whole. */
  private readingBack = false;
  private focused = false;

  constructor(readonly terminalId: string) {
    this.element.append(this.output);
    this.output.addEventListener('scroll', () => this.onScroll(), { passive: true });
    // A wheel turned up over a tail that does not overflow the box scrolls nothing, so no scroll event says it.
    this.output.addEventListener('wheel', (event) => event.deltaY < 0 && this.startReading(), { passive: true });
    this.output.addEventListener('focusin', () => {
      this.focused = true;
      this.startReading();
    });
    this.output.addEventListener('focusout', () => {
      this.focused = false;
      this.onScroll();
    });
  }

  update(record: TerminalRecord | undefined, callFinished: boolean): void {
    const shown = terminalShown(this.terminalId, record, callFinished);
    this.shown = shown;
    const { commandLine, status } = shown;
    const label = `Terminal: ${commandLine}`;
    if (label !== this.drawnLabel) {
      this.drawnLabel = label;
      // As h() sets labels: the command is the agent's text.
      this.element.setAttribute('aria-label', visibleText(label, 'multiline'));
      this.output.setAttribute('aria-label', visibleText(`Output of ${commandLine}`, 'multiline'));
    }
    const headerKey = `${status.tone}\n${status.label}\n${commandLine}`;
    if (headerKey !== this.drawnHeader) {
      this.drawnHeader = headerKey;
      const header = terminalHeader(commandLine, status);
      if (this.header) this.header.replaceWith(header);
      else this.output.before(header);
      this.header = header;
    }
    this.drawOutput();
    const stoppable = shown.controls && record?.cancellable === true && !record.exit;
    const actionsKey = shown.controls ? `${stoppable}\n${commandLine}` : '';
    if (actionsKey !== this.drawnActions) {
      this.drawnActions = actionsKey;
      const actions = shown.controls ? terminalActions(this.terminalId, commandLine, stoppable) : undefined;
      if (this.actions && actions) this.actions.replaceWith(actions);
      else if (actions) this.element.append(actions);
      else this.actions?.remove();
      this.actions = actions;
    }
  }

  /** While the command runs and nobody reads back, only the newest lines; else the whole kept output. */
  private drawOutput(): void {
    if (!this.shown) return;
    const whole = this.shown.status.tone !== 'running' || this.readingBack;
    const text = whole ? this.shown.output : terminalTail(this.shown.output);
    if (text === this.drawnText && whole === this.drawnWhole) return;
    this.drawnText = text;
    this.drawnWhole = whole;
    this.output.replaceChildren(outputText(text));
  }

  private startReading(): void {
    if (this.readingBack) return;
    this.readingBack = true;
    this.drawOutput();
  }

  private onScroll(): void {
    // In a column-reverse box the newest line is at scrollTop 0 and reading back goes negative.
    const back = this.output.scrollTop <= -READING_BACK_PX;
    if (back) this.startReading();
    // Back at the newest line with the focus elsewhere: the next post may draw only the tail again.
    else if (!this.focused) this.readingBack = false;
  }
}

function terminalHeader(commandLine: string, status: TerminalStatus): HTMLElement {
  const spinning = status.tone === 'running' ? 'codicon-modifier-spin' : '';
  return h(
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
}

function terminalActions(terminalId: string, commandLine: string, stoppable: boolean): HTMLElement {
  const open = textButton('Open in Terminal', {
    secondary: true,
    icon: 'link-external',
    dataset: { action: 'open-terminal', terminalId },
  });
  // The name starts with the button's text, as speech input users say it.
  open.setAttribute('aria-label', visibleText(`Open in Terminal: the output of ${commandLine}`, 'multiline'));
  const actions = h('div', { className: 'terminal-actions' }, open);
  if (stoppable) {
    const stop = textButton('Stop', { secondary: true, icon: 'debug-stop', dataset: { action: 'cancel-terminal', terminalId } });
    stop.setAttribute('aria-label', visibleText(`Stop ${commandLine}`, 'multiline'));
    actions.append(stop);
  }
  return actions;
}
