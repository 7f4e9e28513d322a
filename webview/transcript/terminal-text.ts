/**
 * Terminal output as plain text for the chat: colour and cursor escape sequences removed, carriage-return
 * progress lines collapsed to what a terminal would finally show. (The VS Code terminal the user can open shows
 * the raw output with colours.)
 */

// CSI (ESC [ ... final byte), OSC (ESC ] ... BEL or ESC \), and two-byte ESC sequences.
// eslint-disable-next-line no-control-regex -- escape sequences are made of control characters
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

export function plainTerminalText(raw: string): string {
  const text = raw.replace(ESCAPES, '').replace(/\r\n/g, '\n');
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

/** The status line of a terminal: running, its exit code, or the signal that ended it. */
export function terminalStatus(
  exit: TerminalExit,
  released: boolean,
): { readonly label: string; readonly tone: 'running' | 'ok' | 'failed' } {
  if (!exit) return released ? { label: 'Released', tone: 'ok' } : { label: 'Running', tone: 'running' };
  if (exit.exitCode !== null) return { label: `Exited with code ${exit.exitCode}`, tone: exit.exitCode === 0 ? 'ok' : 'failed' };
  return { label: exit.signal ? `Ended by ${exit.signal}` : 'Ended', tone: 'failed' };
}
