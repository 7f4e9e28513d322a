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
import { forTerminal, newestScreen, TerminalWritePacer } from './terminal-write-pacer';
import { ControlStringFilter } from '../shared/terminal-strings';

const MAX_NAME = 48;

function exitLine(exit: NonNullable<TerminalRecord['exit']>): string {
  const how = exit.exitCode !== null ? `exited with code ${exit.exitCode}` : `ended by ${exit.signal ?? 'a signal'}`;
  return `\r\n\x1b[2m[process ${how}]\x1b[0m\r\n`;
}

/** A script given inline (`node -e '…'`, `bash -c '…'`) keeps its lines, dimmed, rather than one line of `<U+000A>`. */
function intro(record: TerminalRecord): string {
  const command = forTerminal(visibleText(record.commandLine, 'multiline'));
  return `\x1b[2mRun by the agent: ${command}${record.trimmed ? ' (earlier output not kept)' : ''}\x1b[0m\r\n`;
}

/**
 * Lines a VS Code terminal keeps: its scrollback and a screen (generously). The transcript's tail of a flood is
 * some 1,800 short lines; xterm would parse and scroll them all on the workbench's thread only to drop the oldest.
 */
function keptLines(): number {
  const scrollback = vscode.workspace.getConfiguration('terminal.integrated').get<number>('scrollback', 1_000);
  return Math.max(0, scrollback) + 200;
}

/**
 * The whole terminal as the transcript keeps it (as far as the terminal keeps lines): what a mirror opened now shows.
 * `controlStrings` starts afresh with it and goes on with the live output that follows.
 */
function rendered(record: TerminalRecord, controlStrings: ControlStringFilter): string {
  const output = newestScreen(record.output, keptLines(), Number.POSITIVE_INFINITY);
  controlStrings.reset();
  return `${intro(record)}${forTerminal(controlStrings.pass(output))}${record.exit ? exitLine(record.exit) : ''}`;
}

class Mirror {
  readonly terminal: vscode.Terminal;
  private readonly writes = new vscode.EventEmitter<string>();
  private readonly pacer = new TerminalWritePacer((text) => this.writes.fire(text));
  /** The command's output is a stranger's: no clipboard writes, hidden links or titles from it (terminal-strings.ts). */
  private readonly controlStrings = new ControlStringFilter();
  private opened = false;
  /** Written before the pseudoterminal opened: the record as it was then (bounded by the transcript's tail). */
  private backlog = '';
  /** What is written instead of the backlog when a flood streams as the terminal opens: its first line. */
  private floodBacklog = '';
  closed = false;

  constructor(record: TerminalRecord, name: string) {
    const pty: vscode.Pseudoterminal = {
      onDidWrite: this.writes.event,
      open: (dimensions) => {
        this.opened = true;
        if (dimensions) this.pacer.resize(dimensions.rows);
        // A flood streaming as the terminal opens (the pacer already dropped output): the transcript's tail (up
        // to 64,000 characters, some 1,800 lines for xterm to parse and scroll while VS Code starts the terminal
        // on the same thread) would be overtaken at once; the screen shows the flood's newest lines now and the
        // whole tail when the command ends (exited() redraws).
        this.writes.fire(this.pacer.skipped ? this.floodBacklog : this.backlog);
        this.backlog = '';
        this.pacer.open();
      },
      setDimensions: (dimensions) => this.pacer.resize(dimensions.rows),
      close: () => {
        this.closed = true;
        this.pacer.discard();
        this.writes.dispose();
      },
    };
    this.terminal = vscode.window.createTerminal({ name, pty, iconPath: new vscode.ThemeIcon('hubot') });
    this.backlog = rendered(record, this.controlStrings);
    this.floodBacklog = intro(record);
  }

  output(text: string): void {
    if (!this.closed) this.pacer.output(this.controlStrings.pass(text));
  }

  /**
   * The command ended. When a flood was too fast to show whole, the terminal is redrawn from the transcript's
   * tail, so it ends as one unbroken run of the newest output, as a mirror opened now would show it.
   */
  exited(record: TerminalRecord, exit: NonNullable<TerminalRecord['exit']>): void {
    if (this.closed) return;
    if (this.pacer.skipped || !this.opened) return this.redraw(record);
    this.pacer.flush();
    this.writes.fire(exitLine(exit));
  }

  /** A v2 agent replaced all output (an authoritative snapshot), or a flood ended: clear the screen and show it. */
  redraw(record: TerminalRecord): void {
    if (this.closed) return;
    this.pacer.discard();
    // Not open yet: what it will show first is the record as it is now.
    if (this.opened) this.writes.fire(`\x1bc${rendered(record, this.controlStrings)}`);
    else {
      // Redrawn before opening (the command ended, or its output was replaced): the record is what to show, whole.
      this.backlog = rendered(record, this.controlStrings);
      this.floodBacklog = this.backlog;
    }
  }

  /** The chat let go of this mirror: nothing more is written (the terminal itself stays until the user closes it). */
  stop(): void {
    this.pacer.discard();
    this.closed = true;
  }
}

export class TerminalMirrors implements vscode.Disposable {
  private readonly mirrors = new Map<string, Mirror>();
  private readonly subscription: { dispose(): void };

  constructor(private readonly store: TranscriptStore) {
    this.subscription = store.subscribe((action) => {
      if (action.type === 'terminal_output') this.mirrors.get(action.terminalId)?.output(action.text);
      else if (action.type === 'terminal_exited') this.exited(action.terminalId, { exitCode: action.exitCode, signal: action.signal });
      else if (action.type === 'terminal_patched') this.patched(action.terminalId, action.output !== undefined, action.exit);
      else if (action.type === 'transcript_cleared') this.clear();
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

  private exited(terminalId: string, exit: NonNullable<TerminalRecord['exit']>): void {
    const mirror = this.mirrors.get(terminalId);
    const record = this.store.state.terminals[terminalId];
    if (mirror && record) mirror.exited(record, exit);
  }

  private patched(terminalId: string, outputReplaced: boolean, exit: TerminalRecord['exit'] | null): void {
    const mirror = this.mirrors.get(terminalId);
    const record = this.store.state.terminals[terminalId];
    if (!mirror || !record) return;
    if (outputReplaced) mirror.redraw(record);
    else if (exit) mirror.exited(record, exit);
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

  private clear(): void {
    for (const mirror of this.mirrors.values()) mirror.stop();
    this.mirrors.clear();
  }

  dispose(): void {
    this.subscription.dispose();
    this.clear();
  }
}
