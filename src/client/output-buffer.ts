/**
 * A terminal's output as ACP asks for it: the last `outputByteLimit` bytes, dropping from the start, and cut only
 * at a character boundary so the text never starts with half a UTF-8 character. A ring buffer: each chunk costs
 * a copy of at most the limit, whatever has come before, and memory never exceeds the limit.
 */
import { StringDecoder } from 'node:string_decoder';
import { MAX_TERMINAL_OUTPUT_BYTES } from '../shared/limits';

/** First allocation; the ring doubles up to its capacity so a short command never holds a large buffer. */
const INITIAL_BYTES = 4096;

export class OutputBuffer {
  private readonly capacity: number;
  private ring: Buffer;
  /** Where the oldest kept byte is. */
  private start = 0;
  private length = 0;
  private truncatedAny = false;

  /** No limit from the agent still means MAX_TERMINAL_OUTPUT_BYTES: memory is ours to bound. */
  constructor(byteLimit: number | undefined) {
    this.capacity = Math.max(0, Math.min(byteLimit ?? MAX_TERMINAL_OUTPUT_BYTES, MAX_TERMINAL_OUTPUT_BYTES));
    this.ring = Buffer.alloc(Math.min(INITIAL_BYTES, this.capacity));
  }

  append(data: Uint8Array): void {
    if (data.length === 0) return;
    if (this.capacity === 0) {
      this.truncatedAny = true;
      return;
    }
    let incoming = data;
    if (incoming.length >= this.capacity) {
      this.truncatedAny ||= incoming.length > this.capacity || this.length > 0;
      incoming = incoming.subarray(incoming.length - this.capacity);
      this.start = 0;
      this.length = 0;
    }
    this.grow(this.length + incoming.length);
    const overflow = this.length + incoming.length - this.ring.length;
    if (overflow > 0) {
      this.start = (this.start + overflow) % this.ring.length;
      this.length -= overflow;
      this.truncatedAny = true;
    }
    const at = (this.start + this.length) % this.ring.length;
    const first = Math.min(incoming.length, this.ring.length - at);
    this.ring.set(incoming.subarray(0, first), at);
    if (first < incoming.length) this.ring.set(incoming.subarray(first), 0);
    this.length += incoming.length;
  }

  get truncated(): boolean {
    return this.truncatedAny;
  }

  text(): string {
    const end = this.start + this.length;
    const first = this.ring.subarray(this.start, Math.min(end, this.ring.length));
    const second = this.ring.subarray(0, Math.max(0, end - this.ring.length));
    // After a cut, skip UTF-8 continuation bytes (10xxxxxx) so the kept text starts on a character.
    const skip = (bytes: Buffer): Buffer => {
      let from = 0;
      while (from < bytes.length && ((bytes[from] ?? 0) & 0xc0) === 0x80) from++;
      return bytes.subarray(from);
    };
    const head = this.truncatedAny ? skip(first) : first;
    const tail = this.truncatedAny && head.length === 0 ? skip(second) : second;
    // The two halves of the ring decoded in turn, a character split between them joined by the decoder: copying
    // them into one buffer first doubled the work for a 16 MB answer (0.35 s of the extension host under a flood).
    const decoder = new StringDecoder('utf8');
    return decoder.write(head) + decoder.write(tail) + decoder.end();
  }

  private linear(): Buffer {
    const end = this.start + this.length;
    if (end <= this.ring.length) return this.ring.subarray(this.start, end);
    return Buffer.concat([this.ring.subarray(this.start), this.ring.subarray(0, end - this.ring.length)]);
  }

  /** Room for `needed` bytes, up to the capacity; the kept bytes move to the front of the new ring. */
  private grow(needed: number): void {
    if (needed <= this.ring.length || this.ring.length >= this.capacity) return;
    let size = Math.max(this.ring.length, 1);
    while (size < needed && size < this.capacity) size *= 2;
    const next = Buffer.alloc(Math.min(size, this.capacity));
    this.linear().copy(next);
    this.ring = next;
    this.start = 0;
  }
}
