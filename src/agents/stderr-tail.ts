/** Keeps the last lines an agent wrote to stderr, to explain a crash. Bounded in lines and line length. */
export class StderrTail {
  private readonly lines: string[] = [];
  private partial = '';

  constructor(
    private readonly maxLines = 20,
    private readonly maxLineLength = 500,
  ) {}

  /** Feeds decoded text. (What is logged is cut and bounded on its own: stderr-log-budget.ts.) */
  push(text: string): void {
    const parts = (this.partial + text).split('\n');
    this.partial = (parts.pop() ?? '').slice(-this.maxLineLength * 4);
    const complete = parts.map((line) => line.replace(/\r$/, '')).filter((line) => line.length > 0);
    for (const line of complete) {
      this.lines.push(line.length > this.maxLineLength ? line.slice(0, this.maxLineLength) + '…' : line);
      if (this.lines.length > this.maxLines) this.lines.shift();
    }
  }

  /** The last lines, including an unterminated one. */
  last(count = 5): string[] {
    const all = this.partial ? [...this.lines, this.partial] : this.lines;
    return all.slice(-count);
  }
}
