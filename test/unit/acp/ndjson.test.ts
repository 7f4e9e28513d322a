import * as assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import type { Message } from 'vscode-jsonrpc';
import { NdjsonMessageReader, NdjsonMessageWriter } from '../../../src/acp/ndjson';

interface Harness {
  readonly input: PassThrough;
  readonly messages: Message[];
  readonly invalid: string[];
  readonly oversize: number[];
}

function reader(maxLineBytes?: number): Harness {
  const input = new PassThrough();
  const messages: Message[] = [];
  const invalid: string[] = [];
  const oversize: number[] = [];
  const ndjson = new NdjsonMessageReader(
    input,
    { onInvalidLine: (text) => invalid.push(text), onOversizeLine: (bytes) => oversize.push(bytes) },
    maxLineBytes,
  );
  ndjson.listen((message) => messages.push(message));
  return { input, messages, invalid, oversize };
}

const note = (text: string) => ({ jsonrpc: '2.0', method: 'session/update', params: { text } });
const line = (value: unknown) => Buffer.from(JSON.stringify(value) + '\n');
const flush = () => new Promise((resolve) => setImmediate(resolve));
const MB = 1024 * 1024;

describe('NDJSON framing', () => {
  it('reads many messages from one chunk, in order', async () => {
    const h = reader();
    h.input.write(Buffer.concat([line(note('a')), line(note('b')), line(note('c'))]));
    await flush();
    assert.deepEqual(h.messages, [note('a'), note('b'), note('c')]);
  });

  it('reassembles one message split over many chunks', async () => {
    const h = reader();
    const bytes = line(note('x'.repeat(1000)));
    for (let i = 0; i < bytes.length; i += 7) h.input.write(bytes.subarray(i, i + 7));
    await flush();
    assert.deepEqual(h.messages, [note('x'.repeat(1000))]);
  });

  it('never corrupts a 4-byte character split at any byte offset', async () => {
    const bytes = line(note('before 🦀 after'));
    for (let split = 1; split < bytes.length; split++) {
      const h = reader();
      h.input.write(bytes.subarray(0, split));
      h.input.write(bytes.subarray(split));
      await flush();
      assert.deepEqual(h.messages, [note('before 🦀 after')], `split at byte ${split}`);
    }
  });

  it('accepts CRLF line ends and blank lines', async () => {
    const h = reader();
    h.input.write(`${JSON.stringify(note('a'))}\r\n\r\n${JSON.stringify(note('b'))}\r\n`);
    await flush();
    assert.deepEqual(h.messages, [note('a'), note('b')]);
  });

  it('skips a line that is not JSON (or not a JSON-RPC object) and keeps going', async () => {
    const h = reader();
    h.input.write(
      Buffer.concat([line(note('a')), Buffer.from('this is not json\n[1,2]\n{"jsonrpc": "2.0", "method": \n'), line(note('b'))]),
    );
    await flush();
    assert.deepEqual(h.messages, [note('a'), note('b')]);
    assert.equal(h.invalid.length, 3);
    assert.match(h.invalid[0] ?? '', /this is not json/);
  });

  it('discards an over-size line with a report, without buffering it, and the next line still arrives', async () => {
    const h = reader(1024);
    h.input.write(Buffer.from('{"jsonrpc":"2.0","method":"x","params":"'));
    for (let i = 0; i < 100; i++) h.input.write(Buffer.alloc(1024, 0x61));
    h.input.write(Buffer.from('"}\n'));
    h.input.write(line(note('after')));
    await flush();
    assert.equal(h.oversize.length, 1);
    assert.ok((h.oversize[0] ?? 0) > 100 * 1024);
    assert.deepEqual(h.messages, [note('after')]);
  });

  it('writes one message per line', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk));
    const writer = new NdjsonMessageWriter(out);
    await writer.write(note('multi\nline') as Message);
    await writer.write(note('second') as Message);
    const lines = Buffer.concat(chunks).toString().split('\n');
    assert.deepEqual(
      lines.slice(0, 2).map((text) => JSON.parse(text) as unknown),
      [note('multi\nline'), note('second')],
    );
    assert.equal(lines.length, 3);
  });

  it('tells when less than a size waits unsent to an agent that stopped reading, counting messages still queued', async () => {
    // Nobody reads this output: what is written stays in its buffer, as in a pipe to an agent that reads nothing.
    const out = new PassThrough();
    const writer = new NdjsonMessageWriter(out);
    const answer = note('x'.repeat(3 * MB)) as Message;
    const writes = [writer.write(answer), writer.write(answer)];
    let below = false;
    const waited = writer.whenUnsentBelow(4 * MB).then(() => (below = true));
    // Long enough for every piece of both to be handed to the output (a piece a turn of the event loop).
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(below, false, '6 MB written and unread is not below 4 MB');
    out.resume();
    await waited;
    await Promise.all(writes);
    assert.equal(out.writableLength, 0);
    let atOnce = false;
    await writer.whenUnsentBelow(1).then(() => (atOnce = true));
    assert.equal(atOnce, true, 'nothing unsent: below any size');
  });

  it('stops waiting for the agent to read once the output is gone', async () => {
    const out = new PassThrough();
    const writer = new NdjsonMessageWriter(out);
    writer.write(note('x'.repeat(2 * MB)) as Message).catch(() => undefined);
    const waited = writer.whenUnsentBelow(MB);
    await new Promise((resolve) => setTimeout(resolve, 50));
    out.destroy();
    await waited;
  });
});
