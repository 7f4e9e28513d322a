/**
 * v2 agent-owned terminals: `terminal_update` (an upsert with patch semantics: omitted = unchanged, null =
 * cleared) and `terminal_output_chunk` (bytes appended). Output stays base64 here: bytes can split a character
 * across chunks, so only the host, which sees the chunks in order, turns them into text (session/agent-terminals.ts).
 */
import { z } from 'zod';
import type { AgentTerminalUpdate } from '../../shared/updates';
import { optionalField, STRING } from './session-update-fields';

const EXIT_STATUS = z.object({ exitCode: z.number().int().nullish(), signal: z.string().nullish() });
const OUTPUT = z.object({ data: STRING });
const CAPABILITIES = z.object({ cancel: z.object({}).passthrough().nullish() });

export const AGENT_TERMINAL_KINDS: readonly string[] = ['terminal_update', 'terminal_output_chunk'];

export function parseAgentTerminalUpdate(kind: string, raw: Record<string, unknown>, problems: string[]): AgentTerminalUpdate | undefined {
  const terminalId = typeof raw['terminalId'] === 'string' ? raw['terminalId'] : undefined;
  if (terminalId === undefined) {
    problems.push(`${kind} dropped: "terminalId" is missing or malformed`);
    return undefined;
  }
  if (kind === 'terminal_output_chunk') {
    const data = raw['data'];
    if (typeof data === 'string') return { kind, terminalId, data };
    problems.push(`${kind} dropped: "data" is missing or malformed`);
    return undefined;
  }
  /** Patch semantics: absent stays absent (unchanged), null is kept as null (cleared). */
  const patch = <T>(key: string, schema: z.ZodType<T>): { value?: T | null } => {
    if (!(key in raw)) return {};
    if (raw[key] === null) return { value: null };
    const value = optionalField(raw, key, schema, problems);
    return value === undefined ? {} : { value };
  };
  const command = patch('command', STRING);
  const output = patch('output', OUTPUT);
  const exit = patch('exitStatus', EXIT_STATUS);
  const capabilities = patch('capabilities', CAPABILITIES);
  return {
    kind: 'terminal_update',
    terminalId,
    ...('value' in command ? { command: command.value ?? null } : {}),
    ...('value' in output ? { output: output.value?.data ?? null } : {}),
    ...('value' in exit ? { exitStatus: exit.value ? { exitCode: exit.value.exitCode ?? null, signal: exit.value.signal ?? null } : null } : {}),
    ...('value' in capabilities ? { cancellable: capabilities.value?.cancel !== undefined && capabilities.value?.cancel !== null } : {}),
  };
}
