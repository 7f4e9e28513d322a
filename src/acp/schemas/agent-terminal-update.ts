/**
 * v2 agent-owned terminals: `terminal_update` (an upsert with patch semantics: omitted = unchanged, null =
 * cleared) and `terminal_output_chunk` (bytes appended). Output stays base64 here: bytes can split a character
 * across chunks, so only the host, which sees the chunks in order, turns them into text (session/agent-terminals.ts).
 */
import { z } from 'zod';
import type { AgentTerminalUpdate } from '../../shared/updates';
import { patchField, STRING } from './session-update-fields';

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
  const command = patchField(raw, 'command', STRING, problems);
  const output = patchField(raw, 'output', OUTPUT, problems);
  const exit = patchField(raw, 'exitStatus', EXIT_STATUS, problems);
  const capabilities = patchField(raw, 'capabilities', CAPABILITIES, problems);
  return {
    kind: 'terminal_update',
    terminalId,
    ...(command !== undefined ? { command } : {}),
    ...(output !== undefined ? { output: output && output.data } : {}),
    ...(exit !== undefined ? { exitStatus: exit && { exitCode: exit.exitCode ?? null, signal: exit.signal ?? null } } : {}),
    ...(capabilities !== undefined ? { cancellable: capabilities?.cancel !== undefined && capabilities?.cancel !== null } : {}),
  };
}
