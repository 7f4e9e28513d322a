/**
 * A terminal's output as ACP asks for it: kept up to `outputByteLimit` bytes, dropping from the start, and cut
 * only at a character boundary so the text never starts with half a UTF-8 character.
 */
export class OutputBuffer {
  private chunks: Buffer[] = [];
  private bytes = 0;
  private truncatedAny = false;

  constructor(private readonly byteLimit: number | undefined) {}

  append(data: Buffer): void {
    this.chunks.push(data);
    this.bytes += data.length;
    if (this.byteLimit !== undefined && this.bytes > this.byteLimit) this.trim(this.byteLimit);
  }

  get truncated(): boolean {
    return this.truncatedAny;
  }

  text(): string {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0]?.toString('utf8') ?? '';
  }

  private trim(limit: number): void {
    const all = Buffer.concat(this.chunks);
    let start = all.length - limit;
    // Skip UTF-8 continuation bytes (10xxxxxx) so the kept text starts on a character.
    while (start < all.length && ((all[start] ?? 0) & 0xc0) === 0x80) start++;
    const kept = all.subarray(start);
    this.chunks = [Buffer.from(kept)];
    this.bytes = kept.length;
    this.truncatedAny = true;
  }
}
