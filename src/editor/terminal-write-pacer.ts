/**
 * Paces what a terminal mirror writes to its VS Code pseudoterminal. VS Code forwards every pseudoterminal write
 * to the workbench (no flow control for extension terminals) and the terminal parses all of it, so a command
 * printing 50 MB cost the extension host seconds of serializing and the workbench tens of seconds of parsing, and
 * every command the user gave meanwhile waited behind it (test/integration/host-floods.test.ts). Here output is
 * written at most once per window, and at most MAX_WRITE_CHARS of it: a window that brought more shows its newest
 * lines after a "skipped" line. What a terminal keeps on screen and in scrollback is the newest output, so a
 * flood looks the same; a command that prints at a human pace is written whole.
 *
 * While a flood lasts (a window had more than it could write), writes shrink to a few screens' worth
 * (FLOOD_WRITE_CHARS) every FLOOD_WINDOW_MS: xterm parses each line (scrolling, scrollback) on the workbench's
 * thread, which in code-server also answers every command, and at 16,384 characters per 50 ms a flood of short
 * lines was 10,000 lines a second, tasks of up to a second in the workbench's CPU profile
 * (test/integration/host-floods.test.ts). Once a window's output fits again, it is written whole again.
 *
 * No 'vscode' here: the mirror owns the pseudoterminal and hands this its write function.
 */

/** One write per window: a terminal redrawn 20 times a second looks live. */
export const WRITE_WINDOW_MS = 50;
/** Characters written per window at most: many screens' worth, so a command's last lines are all there. */
export const MAX_WRITE_CHARS = 16_384;
/** During a flood: a few screens of the newest lines, ten times a second. */
export const FLOOD_WRITE_CHARS = 4_096;
export const FLOOD_WINDOW_MS = 100;

export const SKIPPED_LINE = '\x1b[2m[… output skipped: too fast to show …]\x1b[0m\r\n';

/** A pseudoterminal expects CRLF line ends. */
export function forTerminal(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

/** The newest `limit` characters of `text`, from the start of a line when one begins in them. */
export function newestLines(text: string, limit: number): string {
  let start = text.length - limit;
  const lineStart = text.indexOf('\n', start);
  if (lineStart !== -1 && lineStart < text.length - 1) start = lineStart + 1;
  const code = text.charCodeAt(start);
  if (code >= 0xdc00 && code <= 0xdfff) start++;
  return text.slice(start);
}

export class TerminalWritePacer {
  /** Output (LF line ends, as the command printed it) not written yet. */
  private pending = '';
  private skippedNow = false;
  private skippedAny = false;
  /** The last window had more than it could write: the next ones write FLOOD_WRITE_CHARS per FLOOD_WINDOW_MS. */
  private flooding = false;
  private lastWriteAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private ready = false;

  /** `write` gets terminal text (CRLF). Nothing is written before `open`. */
  constructor(private readonly write: (text: string) => void) {}

  /** Some output was never written (the mirror can redraw from the transcript's tail when the command ends). */
  get skipped(): boolean {
    return this.skippedAny;
  }

  /** The pseudoterminal is open: what waited is written. */
  open(): void {
    this.ready = true;
    this.flush();
  }

  output(text: string): void {
    if (text === '') return;
    // A window with nothing to write has passed since the last write: the flood is over.
    if (this.timer === undefined && performance.now() - this.lastWriteAt > FLOOD_WINDOW_MS) this.flooding = false;
    this.pending += text;
    // Memory stays bounded however long the window: what could never be written goes now.
    if (this.pending.length > 2 * MAX_WRITE_CHARS) this.drop(this.limit());
    if (this.ready && this.timer === undefined)
      this.timer = setTimeout(() => this.flush(), this.flooding ? FLOOD_WINDOW_MS : WRITE_WINDOW_MS);
  }

  /** Writes what waits now (before an exit line, a redraw, or when the terminal opens). */
  flush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.ready) return;
    const limit = this.limit();
    if (this.pending.length > limit) this.drop(limit);
    const text = this.pending;
    const skipped = this.skippedNow;
    this.flooding = skipped;
    this.pending = '';
    this.skippedNow = false;
    if (text === '' && !skipped) return;
    this.lastWriteAt = performance.now();
    this.write(`${skipped ? SKIPPED_LINE : ''}${forTerminal(text)}`);
  }

  /** Forgets what waits (the mirror redraws everything). */
  discard(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = '';
    this.skippedNow = false;
  }

  private limit(): number {
    return this.flooding ? FLOOD_WRITE_CHARS : MAX_WRITE_CHARS;
  }

  private drop(limit: number): void {
    this.pending = newestLines(this.pending, limit);
    this.skippedNow = true;
    this.skippedAny = true;
  }
}
