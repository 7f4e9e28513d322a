/** The bridge between framing and vscode-jsonrpc: ACP's cancel on the wire, and the shortcut for session updates. */
import * as assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import type { Message } from 'vscode-jsonrpc';
import { LibraryBridgeReader, LibraryBridgeWriter } from '../../../src/acp/library-bridge';
import { NdjsonMessageReader, NdjsonMessageWriter } from '../../../src/acp/ndjson';

const line = (value: unknown): Buffer => Buffer.from(JSON.stringify(value) + '\n');
const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const ignore = { onInvalidLine: () => undefined, onOversizeLine: () => undefined };

function bridgedReader(): { input: PassThrough; reader: LibraryBridgeReader; toLibrary: Message[] } {
  const input = new PassThrough();
  const reader = new LibraryBridgeReader(new NdjsonMessageReader(input, ignore));
  const toLibrary: Message[] = [];
  reader.listen((message) => toLibrary.push(message));
  return { input, reader, toLibrary };
}

describe('library bridge', () => {
  it("maps ACP $/cancel_request to the library's cancellation and back", async () => {
    const { input, toLibrary } = bridgedReader();
    input.write(line({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: 7 } }));
    await flush();
    assert.deepEqual(toLibrary, [{ jsonrpc: '2.0', method: '$/cancelRequest', params: { id: 7 } }]);
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk));
    const writer = new LibraryBridgeWriter(new NdjsonMessageWriter(out));
    await writer.write({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id: 3 } } as Message);
    assert.equal(Buffer.concat(chunks).toString(), '{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":3}}\n');
  });

  it('takes the shortcut only while the library has nothing queued, so arrival order holds', async () => {
    const { input, reader, toLibrary } = bridgedReader();
    const shortcut: string[] = [];
    reader.useShortcut({
      accepts: (message) => 'method' in message && message.method === 'session/update',
      deliver: (message) => shortcut.push(String(('params' in message && (message.params as { n?: number }).n) ?? '?')),
      failed: () => undefined,
    });
    input.write(line({ jsonrpc: '2.0', method: 'session/update', params: { n: 1 } }));
    input.write(line({ jsonrpc: '2.0', id: 1, method: 'fs/read_text_file', params: {} }));
    input.write(line({ jsonrpc: '2.0', method: 'session/update', params: { n: 2 } }));
    await flush();
    // The request is queued in the library and not yet dispatched: the second update must queue behind it.
    assert.deepEqual(shortcut, ['1']);
    assert.deepEqual(
      toLibrary.map((message) => ('method' in message ? message.method : '')),
      ['fs/read_text_file', 'session/update'],
    );
  });

  it('reports a handler that throws on the shortcut as a handler failure and keeps reading', async () => {
    const { input, reader } = bridgedReader();
    const failures: string[] = [];
    const delivered: number[] = [];
    reader.useShortcut({
      accepts: () => true,
      deliver: (message) => {
        const n = 'params' in message ? (message.params as { n: number }).n : 0;
        if (n === 1) throw new Error('handler bug');
        delivered.push(n);
      },
      failed: (_message, error) => failures.push(error instanceof Error ? error.message : String(error)),
    });
    input.write(line({ jsonrpc: '2.0', method: 'session/update', params: { n: 1 } }));
    input.write(line({ jsonrpc: '2.0', method: 'session/update', params: { n: 2 } }));
    await flush();
    assert.deepEqual(failures, ['handler bug']);
    assert.deepEqual(delivered, [2]);
  });
});
