/**
 * The end of a growing text, from some offset on, read by offsets into the whole text. A streamed message's
 * text is built by appending, and V8 copies a string built that way into one flat string the first time any
 * part of it is read: reading the new end of a 2 MB message through the message itself copied 4 MB each frame.
 *
 * The kept text is a list of the pieces appended, never joined: a read joins only the pieces it spans. Kept as one
 * string appended to, a stream that fell behind (its undrawn text several megabytes: a flood, or a slow machine)
 * had all of that copied again every frame it was read after an append, and each copy, too large for the young
 * generation, was garbage only a full collection frees: the 2 MB message's longest blocks were such copies and
 * collections.
 */
export class TextTail {
  /** Offset of the first character that may still be read. */
  private kept = 0;
  private pieces: string[] = [];
  /** Offset in the whole text of each piece's first character. */
  private starts: number[] = [];
  private end = 0;

  /** Offset of the first character kept. */
  get start(): number {
    return this.kept;
  }

  /** Length of the whole text. */
  get length(): number {
    return this.end;
  }

  /** Starts over with `text`, kept whole. */
  reset(text: string): void {
    this.kept = 0;
    this.pieces = text === '' ? [] : [text];
    this.starts = text === '' ? [] : [0];
    this.end = text.length;
  }

  append(text: string): void {
    if (text === '') return;
    this.pieces.push(text);
    this.starts.push(this.end);
    this.end += text.length;
  }

  /** Lets go of the text before `offset` (no further reads before it). */
  dropBefore(offset: number): void {
    const start = Math.min(offset, this.end);
    if (start <= this.kept) return;
    this.kept = start;
    let drop = 0;
    while (drop < this.pieces.length && this.starts[drop]! + this.pieces[drop]!.length <= start) drop++;
    if (drop === 0) return;
    this.pieces = this.pieces.slice(drop);
    this.starts = this.starts.slice(drop);
  }

  /** `text.slice(start, end)` of the whole text; `start` must not be before `this.start`. */
  slice(start: number, end = this.end): string {
    this.check(start);
    const to = Math.min(end, this.end);
    if (to <= start) return '';
    let index = this.pieceAt(start);
    const first = this.pieces[index]!;
    const firstStart = this.starts[index]!;
    if (to <= firstStart + first.length) return first.slice(start - firstStart, to - firstStart);
    const parts = [first.slice(start - firstStart)];
    for (index++; index < this.pieces.length && this.starts[index]! < to; index++) {
      parts.push(this.pieces[index]!.slice(0, to - this.starts[index]!));
    }
    // Joining flat strings gives a flat string: reading the block later copies nothing more.
    return parts.join('');
  }

  /** Offset of the first `search` (one character) at or after `from`, or -1. */
  indexOf(search: string, from: number): number {
    if (search.length !== 1) throw new RangeError('TextTail.indexOf finds one character');
    this.check(from);
    if (from >= this.end) return -1;
    for (let index = this.pieceAt(from); index < this.pieces.length; index++) {
      const pieceStart = this.starts[index]!;
      const found = this.pieces[index]!.indexOf(search, Math.max(0, from - pieceStart));
      if (found !== -1) return found + pieceStart;
    }
    return -1;
  }

  private check(offset: number): void {
    if (offset < this.kept) throw new RangeError(`offset ${offset} is before the kept text (${this.kept})`);
  }

  /** Index of the piece holding `offset` (kept, and before the end). */
  private pieceAt(offset: number): number {
    let low = 0;
    let high = this.pieces.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.starts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return low;
  }
}
