/**
 * MCP servers as `session/new`, `session/load` and `session/resume` carry them, for one agent: only the
 * transports it advertises (stdio always; http and sse only with `mcpCapabilities`), the rest named with the
 * reason so the user learns why a server's tools are missing.
 */
import type { ResolvedMcpServer } from './mcp-references';
import type { McpCapabilities } from '../acp/agent-capabilities';

export interface NameValue {
  readonly name: string;
  readonly value: string;
}

export type McpServerWire =
  | { readonly name: string; readonly command: string; readonly args: readonly string[]; readonly env: readonly NameValue[] }
  | { readonly type: 'http' | 'sse'; readonly name: string; readonly url: string; readonly headers: readonly NameValue[] };

export interface McpSelection {
  readonly servers: readonly McpServerWire[];
  /** Values never to show in a log: env values, header values, whatever came from an `${input:…}`. */
  readonly secrets: readonly string[];
  /** One line per server left out, saying why. */
  readonly skipped: readonly string[];
}

export const NO_MCP_SERVERS: McpSelection = { servers: [], secrets: [], skipped: [] };

const TRANSPORT_NAMES = { http: 'HTTP', sse: 'SSE' } as const;

export function selectForAgent(resolved: readonly ResolvedMcpServer[], capabilities: McpCapabilities): McpSelection {
  const servers: McpServerWire[] = [];
  const secrets = new Set<string>();
  const skipped: string[] = [];
  for (const { config, secrets: fromInputs } of resolved) {
    if (config.transport !== 'stdio' && !capabilities[config.transport]) {
      skipped.push(`"${config.name}": the agent does not support ${TRANSPORT_NAMES[config.transport]} MCP servers`);
      continue;
    }
    const wire = toWire(config);
    servers.push(wire);
    for (const { value } of 'env' in wire ? wire.env : wire.headers) secrets.add(value);
    for (const secret of fromInputs) secrets.add(secret);
  }
  secrets.delete('');
  return { servers, secrets: [...secrets], skipped };
}

function toWire(config: ResolvedMcpServer['config']): McpServerWire {
  if (config.transport === 'stdio')
    return { name: config.name, command: config.command, args: [...config.args], env: nameValues(config.env) };
  return { type: config.transport, name: config.name, url: config.url, headers: nameValues(config.headers) };
}

function nameValues(record: Readonly<Record<string, string>>): NameValue[] {
  return Object.entries(record).map(([name, value]) => ({ name, value }));
}
