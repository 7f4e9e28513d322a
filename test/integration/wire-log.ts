/**
 * Reads what the wire tap (test/support/wire-tap.ts) recorded between the extension and a real agent: the
 * JSON-RPC messages in order, each with its direction, and lookups the suites assert on.
 */
import * as path from 'node:path';
import type { WireDirection } from '../support/wire-tap';
import { wholeNdjsonRecords } from '../support/ndjson-file';
import { repoRoot } from '../support/repo-root';

export interface WireMessage {
  direction: WireDirection;
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
  /** A response's result, when it is an object (the opt-in summary reads `initialize`'s). */
  result?: Record<string, unknown>;
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
    ...(isRecord(message['result']) ? { result: message['result'] } : {}),
    ...errorOf(message['error']),
  };
}

export const readWire = (file: string): WireMessage[] => wholeNdjsonRecords(file).flatMap((record) => parse(record) ?? []);

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

/** The session updates the agent sent, by kind, in order of first appearance. */
export function updateKinds(wire: readonly WireMessage[]): Map<string, Record<string, unknown>[]> {
  const kinds = new Map<string, Record<string, unknown>[]>();
  for (const m of wire) {
    const update = m.direction === 'from_agent' && m.method === 'session/update' ? m.params?.['update'] : undefined;
    if (!isRecord(update) || typeof update['sessionUpdate'] !== 'string') continue;
    kinds.set(update['sessionUpdate'], [...(kinds.get(update['sessionUpdate']) ?? []), update]);
  }
  return kinds;
}

/**
 * Which of the client's opt-ins a run exercised, read off the wire (README's compatibility table): what the client
 * sent in `initialize`, what the agent advertised back, and what it then actually sent.
 */
export function optInsUsed(wire: readonly WireMessage[]): Record<string, string> {
  const initialize = wire.find((m) => m.direction === 'to_agent' && m.method === 'initialize');
  const answer =
    initialize?.id === undefined ? undefined : wire.find((m) => m.direction === 'from_agent' && m.id === initialize.id && !m.method);
  const clientInfo = initialize?.params?.['clientInfo'];
  const agentInfo = answer?.result?.['agentInfo'];
  const capabilities = answer?.result?.['agentCapabilities'];
  const sessionCapabilities = isRecord(capabilities) ? capabilities['sessionCapabilities'] : undefined;
  const kinds = updateKinds(wire);
  const count = (kind: string): number => kinds.get(kind)?.length ?? 0;
  const opened = wire.filter(
    (m) => m.direction === 'to_agent' && ['session/new', 'session/load', 'session/resume'].includes(m.method ?? ''),
  );
  const cancels = (direction: WireMessage['direction']): number =>
    wire.filter((m) => m.direction === direction && m.method === '$/cancel_request').length;
  const infoFields = [
    ...new Set((kinds.get('session_info_update') ?? []).flatMap((update) => Object.keys(update).filter((key) => key !== 'sessionUpdate'))),
  ];
  return {
    clientInfo: isRecord(clientInfo)
      ? `sent ${String(clientInfo['name'])} ${String(clientInfo['version'])}; agentInfo back: ${isRecord(agentInfo) ? `${String(agentInfo['name'])} ${String(agentInfo['version'])}` : 'none'}`
      : 'not sent',
    notices: `${count('notice')} notice updates`,
    compaction: `${count('compaction_update')} compaction_update, ${count('compaction_summary_chunk')} compaction_summary_chunk`,
    additionalDirectories: `advertised ${isRecord(sessionCapabilities) && 'additionalDirectories' in sessionCapabilities ? 'yes' : 'no'}; sent in ${opened.filter((m) => m.params?.['additionalDirectories'] !== undefined).length} of ${opened.length} session opens`,
    session_info_update: `${count('session_info_update')} (fields: ${infoFields.join(', ') || 'none'})`,
    cancel_request: `${cancels('to_agent')} to the agent, ${cancels('from_agent')} from it`,
  };
}
