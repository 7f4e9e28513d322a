/**
 * A message carrying megabytes (a terminal's 16 MB in a `terminal/output` answer) is written a slice at a time, so
 * the extension host answers other work meanwhile; the line is exactly the one JSON.stringify makes.
 */
import * as assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import type { Message } from 'vscode-jsonrpc';
import { NdjsonMessageWriter } from '../../../src/acp/ndjson';
import { hasLongString, jsonLinePieces } from '../../../src/acp/sliced-json';

const answer = (output: string): Message =>
  ({ jsonrpc: '2.0', id: 7, result: { output, truncated: true, exitStatus: { exitCode: 0, signal: null } } }) as Message;

describe('writing a message of megabytes', () => {
  it('the pieces join into exactly the JSON line, whatever the text holds and wherever a slice is cut', () => {
    const tricky = 'quote " backslash \\ newline \n tab \t nul \u0000 emoji 🚀 lone \ud800 x ';
    for (const limit of [1, 2, 3, 7, 64]) {
      const message = { a: tricky.repeat(5), b: [1, 'short', { c: `${'🚀'.repeat(40)}end` }], d: `\u0000{"placeholder"}` };
      assert.equal([...jsonLinePieces(message, limit)].join(''), `${JSON.stringify(message)}\n`, `limit ${limit}`);
    }
    assert.equal(hasLongString({ a: [{ b: 'x'.repeat(11) }] }, 10), true);
    assert.equal(hasLongString({ a: [{ b: 'x'.repeat(10) }], n: 5 }, 10), false);
  });

  it('a 16 MB answer goes out in slices, other turns of the event loop run between them, and the lines stay whole and in order', async () => {
    const out = new PassThrough({ highWaterMark: 64 * 1024 * 1024 });
    const chunks: Buffer[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk));
    const writer = new NdjsonMessageWriter(out);
    const output = 'flood lines of terminal output! 🚀\n'.repeat((16 * 1024 * 1024) / 36);
    let turns = 0;
    let counting = true;
    const count = (): void => {
      turns++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const first = writer.write(answer(output));
    const second = writer.write({ jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 's' } } as Message);
    await Promise.all([first, second]);
    counting = false;
    // As one JSON.stringify and one write, the whole answer was serialized before any other turn ran.
    assert.ok(turns >= 32, `${turns} other turns of the event loop ran while it was written`);
    const lines = Buffer.concat(chunks).toString('utf8').split('\n{');
    assert.equal(lines.length, 2, 'two lines');
    assert.deepEqual(JSON.parse(lines[0]!), JSON.parse(JSON.stringify(answer(output))));
    assert.deepEqual(JSON.parse(`{${lines[1]!}`), { jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 's' } });
  });
});
