/**
 * Paces what a terminal mirror writes to its VS Code pseudoterminal. VS Code forwards every pseudoterminal write
 * to the workbench (no flow control for extension terminals) and the terminal parses all of it, so a command
 * printing 50 MB cost the extension host seconds of serializing and the workbench tens of seconds of parsing, and
 * every command the user gave meanwhile waited behind it (test/integration/host-floods.test.ts). Here output is
 * written at most once per window, and at most MAX_WRITE_CHARS of it: a window that brought more shows its newest
 * lines after a "skipped" line. What a terminal keeps on screen and in scrollback is the newest output, so a
 * flood looks the same; a command that prints at a human pace is written whole.
 *
 * While a flood lasts (a window had more than it could write), each write repaints the screen in place with the
 * newest screenful (the terminal's rows, FLOOD_WRITE_CHARS at most), FLOOD_WINDOW_MS apart: xterm parses each
 * line (scrolling, scrollback) on the workbench's thread, which in code-server also answers every command. At
 * 16,384 characters per 50 ms a flood of short lines was 10,000 lines a second (tasks of up to a second in the
 * workbench's CPU profile); at 4,096 per 100 ms, 1,200 lines a second that scrolled, still most of the probe's
 * wait in test/integration/host-floods.test.ts; a screenful four times a second scrolls nothing. The scrollback
 * is made whole again when the command ends (the mirror redraws from the transcript's tail). Once a window's
 * output fits again, it is written whole again, below.
 *
 * No 'vscode' here: the mirror owns the pseudoterminal and hands this its write function.
 */

/** One write per window: a terminal redrawn 20 times a second looks live. */
export const WRITE_WINDOW_MS = 50;
/** Characters written per window at most: many screens' worth, so a command's last lines are all there. */
export const MAX_WRITE_CHARS = 16_384;
/** During a flood: the newest screenful (at most this many characters), four times a second. */
export const FLOOD_WRITE_CHARS = 4_096;
export const FLOOD_WINDOW_MS = 250;
/** Rows assumed until the terminal says its size. */
export const DEFAULT_ROWS = 24;
/** Cursor home, then erase the screen from there: a repaint that scrolls nothing into the scrollback. */
export const REPAINT = '\x1b[H\x1b[J';

export const SKIPPED_LINE = '\x1b[2m[… output skipped: too fast to show …]\x1b[0m\r\n';

/** A pseudoterminal expects CRLF line ends. */
export function forTerminal(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

/**
 * The newest `rows` lines of `text` (a screenful, ending with the line that ends it), at most `limit` characters of
 * them, starting on a line when one begins in them.
 */
export function newestScreen(text: string, rows: number, limit: number): string {
  // Back from the line end that ends the text, `rows` line ends: the screen starts after the last one found.
  let lineEnd = text.endsWith('\n') ? text.length - 1 : text.length;
  for (let row = 0; row < rows && lineEnd > 0; row++) lineEnd = text.lastIndexOf('\n', lineEnd - 1);
  const screen = text.slice(lineEnd + 1);
  return screen.length > limit ? newestLines(screen, limit) : screen;
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
  /** The last window had more than it could write: the next ones repaint the newest screenful per FLOOD_WINDOW_MS. */
  private flooding = false;
  private rows = DEFAULT_ROWS;
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

  /** The terminal's height, for the screenful a flood repaints. */
  resize(rows: number): void {
    if (Number.isInteger(rows) && rows > 2) this.rows = rows;
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
    const floodStarts = skipped && !this.flooding;
    this.flooding = skipped;
    this.pending = '';
    this.skippedNow = false;
    if (text === '' && !skipped) return;
    this.lastWriteAt = performance.now();
    this.write(skipped ? this.repaint(text, floodStarts) : forTerminal(text));
  }

  /**
   * The screen repainted with the newest lines under a "skipped" line, scrolling nothing (the skipped line and
   * rows - 2 lines end on the last row). When the flood starts, what the screen showed is first scrolled into
   * the scrollback, so no earlier line is erased.
   */
  private repaint(text: string, floodStarts: boolean): string {
    const scrollAway = floodStarts ? `\x1b[${this.rows};1H${'\r\n'.repeat(this.rows)}` : '';
    return `${scrollAway}${REPAINT}${SKIPPED_LINE}${forTerminal(newestScreen(text, this.rows - 2, FLOOD_WRITE_CHARS))}`;
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
