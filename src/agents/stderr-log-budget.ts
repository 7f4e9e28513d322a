/**
 * What of an agent's stderr reaches the log. The log is the output channel and its file on disk, so an agent that
 * writes without end (broken, or hostile) must not fill either, nor cost the extension host memory and time: each
 * line is cut to a fixed length, with a marker giving its whole length, and each process has a fixed budget.
 *
 * Once the budget is spent, one line says so and nothing more is logged, not even a periodic "N more characters"
 * summary: such a summary would go on for as long as the agent writes (a bound per minute, not per process), would
 * need a clock, and tells the user nothing they can act on. The last lines are still kept for the crash report
 * (stderr-tail.ts), which is where they matter.
 *
 * Splits the lines itself rather than taking StderrTail's: a cut line's marker needs its whole length, and the log
 * wants its start, not the end the tail keeps.
 */

export interface StderrLogLimits {
  /** A longer line is cut to this many characters. */
  readonly lineChars: number;
  /** Characters logged per process; the line that crosses it is still logged whole (cut as any line). */
  readonly totalChars: number;
}

export const STDERR_LOG_LIMITS: StderrLogLimits = { lineChars: 2000, totalChars: 1_000_000 };

const CR = 13;

export class StderrLogBudget {
  /** The start of the unterminated line: one character more than a line keeps, to tell a trailing `\r` apart. */
  private head = '';
  /** The unterminated line's whole length so far. */
  private length = 0;
  private endsInCr = false;
  private logged = 0;
  private spent = false;

  constructor(private readonly limits: StderrLogLimits = STDERR_LOG_LIMITS) {}

  /** Feeds decoded text; returns the lines to log (empty lines are left out, as the tail leaves them out). */
  push(text: string): string[] {
    // Spent: the text is not even split, so a flood costs nothing more here.
    if (this.spent) return [];
    const lines: string[] = [];
    let start = 0;
    for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
      this.extend(text, start, end);
      start = end + 1;
      const line = this.takeLine();
      if (line === undefined) continue;
      if (this.logged >= this.limits.totalChars) {
        this.spent = true;
        lines.push(
          `[stderr log limit reached (${this.limits.totalChars.toLocaleString('en')} characters): the rest of this agent’s stderr ` +
            'is not logged; its last lines still go into the report if it crashes, and running its command in a terminal shows all of it]',
        );
        return lines;
      }
      this.logged += line.length;
      lines.push(line);
    }
    this.extend(text, start, text.length);
    return lines;
  }

  /** Adds text[start, end) to the unterminated line, keeping only its start. */
  private extend(text: string, start: number, end: number): void {
    if (end <= start) return;
    const room = this.limits.lineChars + 1 - this.head.length;
    if (room > 0) this.head += text.slice(start, Math.min(end, start + room));
    this.length += end - start;
    this.endsInCr = text.charCodeAt(end - 1) === CR;
  }

  /** Ends the unterminated line: it as logged (cut if too long), or undefined when it is empty. */
  private takeLine(): string | undefined {
    const length = this.endsInCr ? this.length - 1 : this.length;
    const head = this.head;
    this.head = '';
    this.length = 0;
    this.endsInCr = false;
    if (length === 0) return undefined;
    if (length <= this.limits.lineChars) return head.slice(0, length);
    return `${cutAt(head, this.limits.lineChars)}… [line cut: ${length.toLocaleString('en')} characters]`;
  }
}

/** The first `count` UTF-16 units, one fewer if the last would be half of a surrogate pair (a broken character). */
function cutAt(text: string, count: number): string {
  const code = text.charCodeAt(count - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? count - 1 : count);
}
