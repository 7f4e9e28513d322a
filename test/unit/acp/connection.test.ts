/** The connection's protocol duties, observed on the raw wire: errors for bad requests, ordering, cancellation. */
import * as assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { AcpConnection } from '../../../src/acp/connection';
import { readTextFileParams } from '../../../src/acp/schemas/client-requests';

interface Wire {
  readonly connection: AcpConnection;
  /** Lines the client wrote, parsed. */
  readonly sent: Record<string, unknown>[];
  agentSays(message: object): void;
  raw(text: string): void;
  next(predicate: (message: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
}

function wire(): Wire {
  const toClient = new PassThrough();
  const fromClient = new PassThrough();
  const sent: Record<string, unknown>[] = [];
  const waiters: { predicate: (m: Record<string, unknown>) => boolean; resolve: (m: Record<string, unknown>) => void }[] = [];
  let rest = '';
  fromClient.setEncoding('utf8').on('data', (text: string) => {
    const lines = (rest + text).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      const message = JSON.parse(line) as Record<string, unknown>;
      sent.push(message);
      for (const waiter of waiters.filter((w) => w.predicate(message))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(message);
      }
    }
  });
  const quiet = (): void => undefined;
  const connection = new AcpConnection({
    input: toClient,
    output: fromClient,
    log: { info: quiet, warn: quiet, error: quiet, trace: quiet },
  });
  return {
    connection,
    sent,
    agentSays: (message) => toClient.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n'),
    raw: (text) => toClient.write(text),
    next: (predicate) =>
      new Promise((resolve) => {
        const seen = sent.find(predicate);
        if (seen) resolve(seen);
        else waiters.push({ predicate, resolve });
      }),
  };
}

/** A session update whose text is `n`: the connection parses what it delivers. */
const chunk = (n: number): object => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: String(n) } });

describe('ACP connection', () => {
  it('answers bad params with -32602 naming the field', async () => {
    const w = wire();
    w.connection.onReadTextFile(() => ({ content: 'never' }));
    w.agentSays({ id: 1, method: 'fs/read_text_file', params: { sessionId: 's', path: 42 } });
    const answer = await w.next((m) => m['id'] === 1);
    const error = answer['error'] as { code: number; message: string };
    assert.equal(error.code, -32602);
    assert.match(error.message, /path/);
    w.connection.dispose();
  });

  it('answers an unknown `_` extension request with -32601 and ignores unknown notifications', async () => {
    const w = wire();
    w.agentSays({ method: '_vendor/ping', params: {} });
    w.agentSays({ id: 'x', method: '_vendor/thing', params: {} });
    const answer = await w.next((m) => m['id'] === 'x');
    assert.equal((answer['error'] as { code: number }).code, -32601);
    w.connection.dispose();
  });

  it("answers a vendor request without the `_` prefix (Qwen Code's craft/drainMidTurnQueue) with -32601, and stays usable", async () => {
    const w = wire();
    w.connection.onReadTextFile(() => ({ content: 'served' }));
    w.agentSays({ id: 7, method: 'craft/drainMidTurnQueue', params: { sessionId: 's' } });
    const answer = await w.next((m) => m['id'] === 7);
    assert.equal((answer['error'] as { code: number }).code, -32601);
    w.agentSays({ id: 8, method: 'fs/read_text_file', params: { sessionId: 's', path: '/a' } });
    assert.deepEqual((await w.next((m) => m['id'] === 8))['result'], { content: 'served' }, 'later requests are still served');
    w.connection.dispose();
  });

  it('delivers every update sent before the prompt answer before the answer resolves', async () => {
    const w = wire();
    const seen: string[] = [];
    w.connection.onSessionUpdate(({ update }) =>
      seen.push(update?.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text' ? update.content.text : '?'),
    );
    const result = w.connection.prompt({ sessionId: 's', prompt: [] }).then((r) => {
      seen.push(`answer:${r.stopReason ?? ''}`);
    });
    const request = await w.next((m) => m['method'] === 'session/prompt');
    for (let n = 1; n <= 3; n++) w.agentSays({ method: 'session/update', params: { sessionId: 's', update: chunk(n) } });
    w.agentSays({ id: request['id'], result: { stopReason: 'end_turn' } });
    await result;
    assert.deepEqual(seen, ['1', '2', '3', 'answer:end_turn']);
    w.connection.dispose();
  });

  it('keeps wire order when updates and the answer arrive in one burst (updates after the answer still land)', async () => {
    const w = wire();
    const seen: string[] = [];
    w.connection.onSessionUpdate(({ update }) =>
      seen.push(update?.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text' ? update.content.text : '?'),
    );
    const result = w.connection.prompt({ sessionId: 's', prompt: [] }).then(() => seen.push('answer'));
    const request = await w.next((m) => m['method'] === 'session/prompt');
    const line = (message: object) => JSON.stringify({ jsonrpc: '2.0', ...message });
    const update = (n: number) => line({ method: 'session/update', params: { sessionId: 's', update: chunk(n) } });
    w.agentSays({ method: 'session/update', params: { sessionId: 's', update: chunk(1) } });
    // One write: two updates, the answer, two late updates.
    w.raw([update(2), update(3), line({ id: request['id'], result: { stopReason: 'end_turn' } }), update(4), update(5)].join('\n') + '\n');
    await result;
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(seen, ['1', '2', '3', 'answer', '4', '5']);
    w.connection.dispose();
  });

  it("the agent withdrawing its request ($/cancel_request) cancels our handler's token", async () => {
    const w = wire();
    let cancelled = false;
    w.connection.onRequestPermission(
      (_params, token) =>
        new Promise((resolve) => {
          token.onCancellationRequested(() => {
            cancelled = true;
            resolve({ outcome: { outcome: 'cancelled' } });
          });
        }),
    );
    w.agentSays({
      id: 9,
      method: 'session/request_permission',
      params: { sessionId: 's', toolCall: { toolCallId: 't' }, options: [{ optionId: 'a', name: 'Allow', kind: 'allow_once' }] },
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    w.agentSays({ method: '$/cancel_request', params: { requestId: 9 } });
    const answer = await w.next((m) => m['id'] === 9);
    assert.equal(cancelled, true);
    assert.ok(answer['result'] !== undefined || answer['error'] !== undefined, 'the request is still answered');
    w.connection.dispose();
  });

  it('sends session/cancel as a notification', async () => {
    const w = wire();
    w.connection.cancel({ sessionId: 's' });
    const message = await w.next((m) => m['method'] === 'session/cancel');
    assert.equal(message['id'], undefined);
    assert.deepEqual(message['params'], { sessionId: 's' });
    w.connection.dispose();
  });

  it('rejects a result that does not match the protocol with a clear error', async () => {
    const w = wire();
    const created = w.connection.newSession({ cwd: '/tmp', mcpServers: [] });
    const request = await w.next((m) => m['method'] === 'session/new');
    w.agentSays({ id: request['id'], result: { notASessionId: true } });
    await assert.rejects(created, /invalid result: sessionId/);
    w.connection.dispose();
  });

  it('the schemas accept nulls for optional fields, like the reference implementations', () => {
    assert.equal(readTextFileParams.safeParse({ sessionId: 's', path: '/a', line: null, limit: null, _meta: { x: 1 } }).success, true);
  });
});
