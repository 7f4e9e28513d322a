/**
 * The end of a growing text, from some offset on, read by offsets into the whole text. A streamed message's
 * text is built by appending, and V8 copies a string built that way into one flat string the first time any
 * part of it is read: reading the new end of a 2 MB message through the message itself copied 4 MB each frame.
 * Keeping only the part still being worked on, and appending the new text to it, makes that copy as small as
 * the part.
 */
export class TextTail {
  private base = 0;
  private tail = '';

  /** Offset of the first character kept. */
  get start(): number {
    return this.base;
  }

  /** Length of the whole text. */
  get length(): number {
    return this.base + this.tail.length;
  }

  /** Starts over with `text`, kept whole. */
  reset(text: string): void {
    this.base = 0;
    this.tail = text;
  }

  append(text: string): void {
    this.tail += text;
  }

  /** Lets go of the text before `offset` (no further reads before it). */
  dropBefore(offset: number): void {
    const start = Math.min(offset, this.length);
    if (start <= this.base) return;
    this.tail = this.tail.slice(start - this.base);
    this.base = start;
  }

  /** `text.slice(start, end)` of the whole text; `start` must not be before `this.start`. */
  slice(start: number, end = this.length): string {
    return this.tail.slice(this.local(start), end - this.base);
  }

  /** Offset of the first `search` at or after `from`, or -1. */
  indexOf(search: string, from: number): number {
    const found = this.tail.indexOf(search, this.local(from));
    return found === -1 ? -1 : found + this.base;
  }

  private local(offset: number): number {
    if (offset < this.base) throw new RangeError(`offset ${offset} is before the kept text (${this.base})`);
    return offset - this.base;
  }
}
