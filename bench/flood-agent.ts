/**
 * A minimal ACP agent for throughput benchmarks: answers initialize and session/new, and on session/prompt writes
 * FLOOD_COUNT agent_message_chunk updates as fast as stdout takes them, then the prompt's answer. Raw NDJSON on
 * purpose: the agent must never be the slowest part of what is measured.
 */
import { createInterface } from 'node:readline';

const count = Number(process.env['FLOOD_COUNT'] ?? 200_000);
/** With FLOOD_RATE (chunks/s) the agent paces itself and stamps each chunk with its write time (epoch ms). */
const rate = Number(process.env['FLOOD_RATE'] ?? 0);
const BATCH = 2_000;
const PACE_TICK_MS = 10;

function send(message: object): void {
  process.stdout.write(JSON.stringify(message) + '\n');
}

function update(sessionId: string, index: number): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    method: 'session/update',
    params: { sessionId, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `tok${index % 1000} ` } } },
  });
}

async function flood(sessionId: string, id: number | string): Promise<void> {
  for (let start = 0; start < count; start += BATCH) {
    const lines: string[] = [];
    for (let i = start; i < Math.min(count, start + BATCH); i++) lines.push(update(sessionId, i));
    if (!process.stdout.write(lines.join('\n') + '\n')) await new Promise((resolve) => process.stdout.once('drain', resolve));
  }
  send({ jsonrpc: '2.0', id, result: { stopReason: 'end_turn' } });
}

function stamped(sessionId: string, index: number): string {
  const now = (performance.timeOrigin + performance.now()).toFixed(1);
  // A paragraph break now and then, as real answers have: one ever-growing paragraph is not what agents send.
  const text = `\u27e6${index}@${now}\u27e7 ${index % 40 === 39 ? '\n\n' : ''}`;
  return JSON.stringify({
    jsonrpc: '2.0',
    method: 'session/update',
    params: { sessionId, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } },
  });
}

/** `rate` chunks per second, written every PACE_TICK_MS so the rate holds within a frame. */
async function pace(sessionId: string, id: number | string): Promise<void> {
  const started = performance.now();
  let written = 0;
  while (written < count) {
    const due = Math.min(count, Math.floor(((performance.now() - started) * rate) / 1000));
    const lines: string[] = [];
    for (; written < due; written++) lines.push(stamped(sessionId, written));
    if (lines.length > 0) process.stdout.write(lines.join('\n') + '\n');
    await new Promise((resolve) => setTimeout(resolve, PACE_TICK_MS));
  }
  send({ jsonrpc: '2.0', id, result: { stopReason: 'end_turn' } });
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line) as { id?: number | string; method?: string; params?: { sessionId?: string } };
  if (message.id === undefined || message.method === undefined) return;
  switch (message.method) {
    case 'initialize':
      return send({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [] } });
    case 'session/new':
      return send({ jsonrpc: '2.0', id: message.id, result: { sessionId: 'flood-session' } });
    case 'session/prompt':
      return void (rate > 0 ? pace : flood)(message.params?.sessionId ?? 'flood-session', message.id);
    default:
      return send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
  }
});
