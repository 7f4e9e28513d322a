/**
 * Terminal output as plain text for the chat: control strings (OSC, DCS and the like: links, titles, images) and
 * colour and cursor escape sequences removed, carriage-return progress lines collapsed to what a terminal would
 * finally show. (The VS Code terminal the user can open shows the output with colours.)
 */
import { withoutControlStrings } from '../../src/shared/terminal-strings';

// CSI (ESC [ ... final byte) and two-byte ESC sequences; control strings are gone before this.
// eslint-disable-next-line no-control-regex -- escape sequences are made of control characters
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b[@-Z\\-_]/g;

export function plainTerminalText(raw: string): string {
  const text = withoutControlStrings(raw).replace(ESCAPES, '').replace(/\r\n/g, '\n');
  if (!text.includes('\r')) return text;
  // A bare \r returns to the line start: what follows overwrites what came before on that line.
  return text
    .split('\n')
    .map((line) => {
      const parts = line.split('\r');
      let shown = '';
      for (const part of parts) shown = part + shown.slice(part.length);
      return shown;
    })
    .join('\n');
}

export type TerminalExit = { readonly exitCode: number | null; readonly signal: string | null } | undefined;

export interface TerminalStatus {
  readonly label: string;
  readonly tone: 'running' | 'ok' | 'failed' | 'unavailable';
}

/** The status line of a terminal: running, its exit code, or the signal that ended it. */
export function terminalStatus(exit: TerminalExit, released: boolean): TerminalStatus {
  if (!exit) return released ? { label: 'Released', tone: 'ok' } : { label: 'Running', tone: 'running' };
  if (exit.exitCode !== null) return { label: `Exited with code ${exit.exitCode}`, tone: exit.exitCode === 0 ? 'ok' : 'failed' };
  return { label: exit.signal ? `Ended by ${exit.signal}` : 'Ended', tone: 'failed' };
}

/** What a tool call's terminal shows, from what is known of it (a record, or nothing) and whether the call is over. */
export interface TerminalShown {
  readonly commandLine: string;
  readonly status: TerminalStatus;
  /** The output text, or the line that stands in for it. */
  readonly output: string;
  /** Open in Terminal (and Stop): only for a terminal that ran through the editor. */
  readonly controls: boolean;
}

export interface KnownTerminal {
  readonly commandLine: string;
  readonly output: string;
  readonly trimmed: boolean;
  readonly exit?: TerminalExit;
  readonly released: boolean;
}

/**
 * A terminal id in a tool call's content that no `terminal/create` (nor an agent's terminal update or Zed-style
 * `_meta`) ever filled: the agent ran the command itself. Once the call is over nothing more will come, so it says
 * the output is not available instead of a terminal spinning "Running" forever over an empty box.
 */
export function terminalShown(terminalId: string, record: KnownTerminal | undefined, callFinished: boolean): TerminalShown {
  const heardOf =
    record !== undefined && (record.commandLine !== '' || record.output !== '' || record.exit !== undefined || record.released);
  if (!heardOf && callFinished)
    return {
      commandLine: record?.commandLine || `Terminal ${terminalId}`,
      status: { label: 'Output not available', tone: 'unavailable' },
      output: 'Output not available: the agent ran this command itself and did not send its output.',
      controls: false,
    };
  const status = terminalStatus(record?.exit, record?.released ?? false);
  const text = plainTerminalText(record?.output ?? '');
  return {
    commandLine: record?.commandLine || `Terminal ${terminalId}`,
    status,
    output: (record?.trimmed ? '… earlier output not shown\n' : '') + (text || (status.tone === 'running' ? '' : '(no output)')),
    controls: true,
  };
}

/**
 * Characters of terminal output per block of the card. The card shows up to TERMINAL_DISPLAY_CHARS (64,000): in one
 * text run, each redraw during a flood laid all of it out again on the workbench's thread in code-server (over a
 * second on a busy 2-core machine, while the user's commands waited). In blocks the ones scrolled out of the card
 * are skipped (content-visibility, tool-call.css): only what shows is laid out. Blocks of 1,000 (some 30 lines,
 * about two of the card's heights): with 4,000 the blocks near the card's view were still 300-400 ms of text layout
 * per redraw of a 64,000-character flood at load 20 (a Chromium trace of host-floods.test.ts, ACP_WORKBENCH_TRACE),
 * most of it lines that were not on screen.
 */
export const TERMINAL_PART_CHARS = 1_000;

/**
 * The output cut into parts at line ends, of at most `size` characters (a longer line is cut within); the parts
 * joined with newlines are the output, as each part is a block of its own and the line end between two is that
 * block's edge.
 */
export function terminalParts(output: string, size = TERMINAL_PART_CHARS): string[] {
  const parts: string[] = [];
  let from = 0;
  while (output.length - from > size) {
    const newline = output.lastIndexOf('\n', from + size);
    if (newline >= from) {
      parts.push(output.slice(from, newline));
      from = newline + 1;
    } else {
      parts.push(output.slice(from, from + size));
      from += size;
    }
  }
  parts.push(output.slice(from));
  return parts;
}

/**
 * What a running terminal's card draws while the user is not reading back: the newest lines, enough to fill its box
 * (240 px, some 14 lines) and overflow it a little so it scrolls, never the whole kept output (up to 64,000
 * characters). Drawn whole at each flood post, that output was 180-340 ms of script and 300-400 ms of text layout
 * per redraw on the workbench's thread in code-server (a Chromium trace at load 20), while the user's commands
 * waited; the tail is a few KB whatever the limit. Lines, so a box of short lines still overflows; characters, so a
 * wide box of long lines does too (at 300 characters a row, 8,000 fill about 27 rows).
 */
export const TERMINAL_TAIL_LINES = 60;
export const TERMINAL_TAIL_CHARS = 8_000;

/** The newest `lines` lines of `output`, at most `chars` characters (a longer line is cut at its start). */
export function terminalTail(output: string, lines = TERMINAL_TAIL_LINES, chars = TERMINAL_TAIL_CHARS): string {
  const floor = Math.max(0, output.length - chars);
  // A final line end ends the last line; it does not start another.
  let end = output.endsWith('\n') ? output.length - 1 : output.length;
  for (let seen = 0; seen < lines; seen++) {
    const newline = output.lastIndexOf('\n', end - 1);
    if (newline < floor) return output.slice(floor);
    end = newline;
  }
  return output.slice(end + 1);
}
