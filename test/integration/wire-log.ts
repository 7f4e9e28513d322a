/**
 * Reads what the wire tap (test/support/wire-tap.ts) recorded between the extension and a real agent: the
 * JSON-RPC messages in order, each with its direction, and lookups the suites assert on.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { WireDirection } from '../support/wire-tap';
import { repoRoot } from '../support/repo-root';

export interface WireMessage {
  direction: WireDirection;
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
  error?: { code: number; message: string };
}

export const wireTapPath = (): string => path.join(repoRoot(), 'out', 'test', 'support', 'wire-tap.js');

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function errorOf(error: unknown): Pick<WireMessage, 'error'> {
  if (!isRecord(error) || typeof error['code'] !== 'number') return {};
  return { error: { code: error['code'], message: typeof error['message'] === 'string' ? error['message'] : '' } };
}

function parse(record: string): WireMessage | undefined {
  const { direction, line } = JSON.parse(record) as { direction: WireDirection; line: string };
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return undefined; // not JSON: the client logs and skips such a line too
  }
  if (!isRecord(message)) return undefined;
  const id = typeof message['id'] === 'number' || typeof message['id'] === 'string' ? message['id'] : undefined;
  return {
    direction,
    ...(id === undefined ? {} : { id }),
    ...(typeof message['method'] === 'string' ? { method: message['method'] } : {}),
    ...(isRecord(message['params']) ? { params: message['params'] } : {}),
    ...errorOf(message['error']),
  };
}

export function readWire(file: string): WireMessage[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .flatMap((line) => parse(line) ?? []);
}

/** Requests the agent sent us (a method and an id), in order. */
export const requestsFromAgent = (wire: readonly WireMessage[]): WireMessage[] =>
  wire.filter((m) => m.direction === 'from_agent' && m.method !== undefined && m.id !== undefined);

/** Our answer to the agent's request `id`. */
export const answerTo = (wire: readonly WireMessage[], id: number | string): WireMessage | undefined =>
  wire.find((m) => m.direction === 'to_agent' && m.method === undefined && m.id === id);

/** The `path` of each `fs/write_text_file` the agent asked of us. */
export const clientWrites = (wire: readonly WireMessage[]): string[] =>
  requestsFromAgent(wire).flatMap((m) =>
    m.method === 'fs/write_text_file' && typeof m.params?.['path'] === 'string' ? [m.params['path']] : [],
  );

/** Each `session/request_permission` the agent sent: its tool call id, and whether a `tool_call` update announced it first. */
export function permissionRequests(wire: readonly WireMessage[]): { toolCallId: string; announced: boolean }[] {
  const announced = new Set<string>();
  const requests: { toolCallId: string; announced: boolean }[] = [];
  for (const m of wire) {
    if (m.direction !== 'from_agent') continue;
    const update = m.method === 'session/update' ? m.params?.['update'] : undefined;
    if (isRecord(update) && update['sessionUpdate'] === 'tool_call' && typeof update['toolCallId'] === 'string')
      announced.add(update['toolCallId']);
    const toolCall = m.method === 'session/request_permission' ? m.params?.['toolCall'] : undefined;
    if (isRecord(toolCall) && typeof toolCall['toolCallId'] === 'string')
      requests.push({ toolCallId: toolCall['toolCallId'], announced: announced.has(toolCall['toolCallId']) });
  }
  return requests;
}
