import * as assert from 'node:assert/strict';
import { OutputBuffer } from '../../../src/client/output-buffer';
import { MAX_TERMINAL_OUTPUT_BYTES } from '../../../src/shared/limits';

/** What the spec asks for, computed the obvious way: the last `limit` bytes, moved forward to a character start. */
function expectedTail(all: Buffer, limit: number): string {
  let start = Math.max(0, all.length - limit);
  while (start < all.length && ((all[start] ?? 0) & 0xc0) === 0x80) start++;
  return all.subarray(start).toString('utf8');
}

describe('terminal output ring buffer', () => {
  it('keeps exactly the last bytes across wrap-arounds, for chunks smaller, equal and larger than the limit', () => {
    const limit = 1_000;
    const buffer = new OutputBuffer(limit);
    const written: Buffer[] = [];
    let seed = 7;
    for (let round = 0; round < 500; round++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const size = [1, 17, 999, 1_000, 1_001, 4_096][seed % 6] ?? 1;
      const chunk = Buffer.from('aé€😀'.repeat(size).slice(0, size));
      written.push(chunk);
      buffer.append(chunk);
      if (round % 5 === 0) assert.equal(buffer.text(), expectedTail(Buffer.concat(written), limit), `after round ${round}`);
    }
    assert.equal(buffer.text(), expectedTail(Buffer.concat(written), limit));
    assert.equal(buffer.truncated, true);
  });

  it('says nothing was truncated while the output fits, even filled exactly', () => {
    const buffer = new OutputBuffer(10);
    buffer.append(Buffer.from('01234'));
    buffer.append(Buffer.from('56789'));
    assert.equal(buffer.text(), '0123456789');
    assert.equal(buffer.truncated, false);
    buffer.append(Buffer.from('!'));
    assert.equal(buffer.text(), '123456789!');
    assert.equal(buffer.truncated, true);
  });

  it('keeps nothing with a zero limit, and reports it truncated', () => {
    const buffer = new OutputBuffer(0);
    buffer.append(Buffer.from('gone'));
    assert.equal(buffer.text(), '');
    assert.equal(buffer.truncated, true);
  });

  it('without a limit from the agent keeps at most MAX_TERMINAL_OUTPUT_BYTES', () => {
    const buffer = new OutputBuffer(undefined);
    const megabyte = Buffer.alloc(1024 * 1024, 0x61);
    for (let index = 0; index < MAX_TERMINAL_OUTPUT_BYTES / megabyte.length + 2; index++) buffer.append(megabyte);
    buffer.append(Buffer.from('END'));
    const text = buffer.text();
    assert.equal(text.length, MAX_TERMINAL_OUTPUT_BYTES);
    assert.ok(text.endsWith('aEND'));
    assert.equal(buffer.truncated, true);
  });
});
