import * as assert from 'node:assert/strict';
import { readWindow } from '../../../src/client/read-window';
import { DEFAULT_MAX_READ_BYTES, maxReadBytesFromSetting } from '../../../src/shared/limits';

/** Yields `bytes` in chunks of `size`, counting how many chunks the reader pulled. */
function chunked(bytes: Uint8Array, size: number): { chunks: AsyncIterable<Uint8Array>; pulled: () => number } {
  let pulled = 0;
  async function* generate(): AsyncGenerator<Uint8Array> {
    for (let at = 0; at < bytes.length; at += size) {
      pulled++;
      yield bytes.subarray(at, at + size);
    }
  }
  return { chunks: generate(), pulled: () => pulled };
}

describe('fs/read_text_file streamed window', () => {
  const text = 'one\ntwo\r\nthree\nfour €\nfive';
  const bytes = new TextEncoder().encode(text);
  const cases: [number | undefined, number | undefined, string][] = [
    [undefined, undefined, text],
    [2, undefined, 'two\r\nthree\nfour €\nfive'],
    [2, 2, 'two\r\nthree\n'],
    [undefined, 1, 'one\n'],
    [4, 1, 'four €\n'],
    [5, 10, 'five'],
    [6, undefined, ''],
    [3, 0, ''],
  ];
  for (const chunkSize of [1, 3, 1024]) {
    for (const [line, limit, expected] of cases) {
      it(`line ${String(line)} limit ${String(limit)} in ${chunkSize}-byte chunks (a character split across chunks stays whole)`, async () => {
        assert.deepEqual(await readWindow(chunked(bytes, chunkSize).chunks, line, limit, 1_000), { kind: 'text', text: expected });
      });
    }
  }

  it('stops reading once the window is complete', async () => {
    const source = chunked(new TextEncoder().encode('x\n'.repeat(10_000)), 100);
    assert.deepEqual(await readWindow(source.chunks, 11, 5, 1_000), { kind: 'text', text: 'x\n'.repeat(5) });
    // 15 lines are 30 bytes: the first chunk holds them all; the other 199 chunks are never read.
    assert.equal(source.pulled(), 1);
  });

  it('stops as soon as the answer outgrows the cap, having read little more than the cap', async () => {
    const source = chunked(new Uint8Array(1_000_000).fill(0x61), 100);
    const read = await readWindow(source.chunks, undefined, undefined, 1_000);
    assert.equal(read.kind, 'too_large');
    assert.equal(source.pulled(), 11);
  });
});

describe('acpClient.limits.maxReadMB', () => {
  it('is read as megabytes; anything but a positive number means the default of 10 MB', () => {
    assert.equal(maxReadBytesFromSetting(10), 10 * 1024 * 1024);
    assert.equal(maxReadBytesFromSetting(0.5), 512 * 1024);
    assert.equal(DEFAULT_MAX_READ_BYTES, 10 * 1024 * 1024);
    for (const bad of [undefined, null, 0, -1, 'big', Number.NaN, Infinity])
      assert.equal(maxReadBytesFromSetting(bad), DEFAULT_MAX_READ_BYTES, String(bad));
  });
});
