/**
 * "Open in Terminal" for a command the agent runs: a read-only VS Code terminal that shows the output so far
 * (colours included) and then follows it live until the command exits. The process stays the agent's; typing
 * in this terminal does nothing.
 */
import * as vscode from 'vscode';
import type { TranscriptStore } from '../session/transcript-store';
import type { TerminalRecord } from '../shared/model';
import { entryAtPosition, positionOf } from '../shared/pages';
import { toolKey } from '../shared/selectors';
import { visibleText } from '../shared/visible-text';
import { shownText } from '../shared/shown-text';

const MAX_NAME = 48;

/** A pseudoterminal expects CRLF line ends. */
function forTerminal(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

function exitLine(exit: NonNullable<TerminalRecord['exit']>): string {
  const how = exit.exitCode !== null ? `exited with code ${exit.exitCode}` : `ended by ${exit.signal ?? 'a signal'}`;
  return `\r\n\x1b[2m[process ${how}]\x1b[0m\r\n`;
}

class Mirror {
  readonly terminal: vscode.Terminal;
  private readonly writes = new vscode.EventEmitter<string>();
  private opened = false;
  private backlog = '';
  closed = false;

  constructor(record: TerminalRecord, name: string) {
    const pty: vscode.Pseudoterminal = {
      onDidWrite: this.writes.event,
      open: () => {
        this.opened = true;
        this.writes.fire(this.backlog);
        this.backlog = '';
      },
      close: () => {
        this.closed = true;
        this.writes.dispose();
      },
    };
    this.terminal = vscode.window.createTerminal({ name, pty, iconPath: new vscode.ThemeIcon('hubot') });
    const intro = `\x1b[2mRun by the agent: ${visibleText(record.commandLine)}${record.trimmed ? ' (earlier output not kept)' : ''}\x1b[0m\r\n`;
    this.write(intro + forTerminal(record.output));
    if (record.exit) this.write(exitLine(record.exit));
  }

  write(text: string): void {
    if (this.closed || text === '') return;
    if (this.opened) this.writes.fire(text);
    else this.backlog += text;
  }

  exited(exit: NonNullable<TerminalRecord['exit']>): void {
    this.write(exitLine(exit));
  }

  /** A v2 agent replaced all output (an authoritative snapshot): clear the screen and show it. */
  replaced(record: TerminalRecord): void {
    this.write(`\x1bc${forTerminal(record.output)}${record.exit ? exitLine(record.exit) : ''}`);
  }
}

export class TerminalMirrors implements vscode.Disposable {
  private readonly mirrors = new Map<string, Mirror>();
  private readonly subscription: { dispose(): void };

  constructor(private readonly store: TranscriptStore) {
    this.subscription = store.subscribe((action) => {
      if (action.type === 'terminal_output') this.mirrors.get(action.terminalId)?.write(forTerminal(action.text));
      else if (action.type === 'terminal_exited')
        this.mirrors.get(action.terminalId)?.exited({ exitCode: action.exitCode, signal: action.signal });
      else if (action.type === 'terminal_patched') this.patched(action.terminalId, action.output !== undefined, action.exit);
      else if (action.type === 'transcript_cleared') this.mirrors.clear();
    });
  }

  /** Shows the terminal's mirror, making it if needed; false when the chat no longer knows that terminal. */
  show(terminalId: string): boolean {
    let mirror = this.mirrors.get(terminalId);
    if (!mirror || mirror.closed) {
      const record = this.store.state.terminals[terminalId];
      if (!record) return false;
      mirror = new Mirror(record, this.nameFor(record));
      this.mirrors.set(terminalId, mirror);
    }
    mirror.terminal.show();
    return true;
  }

  private patched(terminalId: string, outputReplaced: boolean, exit: TerminalRecord['exit'] | null): void {
    const mirror = this.mirrors.get(terminalId);
    const record = this.store.state.terminals[terminalId];
    if (!mirror || !record) return;
    if (outputReplaced) mirror.replaced(record);
    else if (exit) mirror.exited(exit);
  }

  /** Named after the tool call that shows it (commands can be long scripts), else the command line. */
  private nameFor(record: TerminalRecord): string {
    const state = this.store.state;
    const position = record.toolCallIds[0] === undefined ? undefined : positionOf(state, toolKey(record.toolCallIds[0]));
    const entry = position === undefined ? undefined : entryAtPosition(state, position);
    const label = entry?.kind === 'tool_call' && entry.title ? entry.title : record.commandLine || record.terminalId;
    const oneLine = visibleText(label.replace(/\s+/g, ' ').trim());
    return `ACP: ${shownText(oneLine.length > MAX_NAME ? `${oneLine.slice(0, MAX_NAME - 1)}…` : oneLine, 'terminal-name')}`;
  }

  dispose(): void {
    this.subscription.dispose();
    this.mirrors.clear();
  }
}
