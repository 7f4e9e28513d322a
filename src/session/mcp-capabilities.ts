/**
 * Which MCP transports beyond stdio the agent accepts. v1 says it in `agentCapabilities.mcpCapabilities`
 * ({http, sse} booleans); the v2 draft in `capabilities.session.mcp` (an object present = supported, no sse).
 * Anything malformed counts as not advertised: sending a server the agent cannot reach would fail the session.
 */
import { z } from 'zod';
import type { McpCapabilities } from '../agents/mcp-wire';
import type { InitializeResult } from '../acp/schemas/agent-results';
import type { ProtocolVersion } from '../acp/protocol-version';

const v1Capabilities = z.object({ http: z.boolean().nullish(), sse: z.boolean().nullish() }).loose();
const v2Capabilities = z.object({ http: z.unknown(), sse: z.unknown() }).partial().loose();
const v2Session = z.object({ mcp: v2Capabilities.nullish() }).loose();

export function mcpCapabilitiesOf(init: InitializeResult, version: ProtocolVersion): McpCapabilities {
  if (version === 2) {
    const mcp = v2Session.safeParse(init.capabilities?.session).data?.mcp;
    const has = (value: unknown): boolean => value !== undefined && value !== null && value !== false;
    return { http: has(mcp?.http), sse: has(mcp?.sse) };
  }
  const advertised = v1Capabilities.safeParse(init.agentCapabilities?.['mcpCapabilities']).data;
  return { http: advertised?.http === true, sse: advertised?.sse === true };
}
