/**
 * What an agent can do, read once from its `initialize` answer, for both versions we speak: v1 says it in
 * `agentCapabilities` (booleans and objects) and `_meta`; the v2 draft in `capabilities.session` (an object present
 * = supported). Every other module takes this result; none reads the capabilities off the wire again. Anything
 * malformed counts as not advertised: using a capability the agent does not have would fail the session.
 */
import { z } from 'zod';
import { steeringAdvertised, type InitializeResult } from './schemas/agent-results';
import { canLogOut } from './schemas/auth-methods';
import { NO_SESSION_SUPPORT, sessionSupportOf, type SessionSupport } from './schemas/session-capabilities';
import type { ProtocolVersion } from './protocol-version';

/** What a prompt may carry besides text and resource links. */
export interface PromptCapabilities {
  readonly image: boolean;
  readonly audio: boolean;
  readonly embeddedContext: boolean;
}

/** Which MCP transports beyond stdio the agent accepts. */
export interface McpCapabilities {
  readonly http: boolean;
  readonly sse: boolean;
}

export interface AgentCapabilities {
  readonly promptCapabilities: PromptCapabilities;
  readonly mcpCapabilities: McpCapabilities;
  /** Which session lifecycle methods it serves (the v2 draft names its lifecycle differently: none yet). */
  readonly support: SessionSupport;
  /** It serves `logout` (`agentCapabilities.auth.logout`). */
  readonly canLogOut: boolean;
  /** A running turn can be steered (`_session/steering`, advertised in `_meta`). */
  readonly steering: boolean;
}

export function capabilitiesOf(init: InitializeResult, version: ProtocolVersion): AgentCapabilities {
  return {
    promptCapabilities: promptCapabilitiesOf(init, version),
    mcpCapabilities: mcpCapabilitiesOf(init, version),
    support: version === 1 ? sessionSupportOf(init.agentCapabilities) : NO_SESSION_SUPPORT,
    canLogOut: canLogOut(init.agentCapabilities),
    steering: version === 1 && steeringAdvertised.safeParse(init['_meta']).success,
  };
}

/** v2's presence-based capabilities: an object (even `{}`) or `true` is advertised; absent, `null` or `false` is not. */
const present = (value: unknown): boolean => value !== undefined && value !== null && value !== false;

function promptCapabilitiesOf(init: InitializeResult, version: ProtocolVersion): PromptCapabilities {
  if (version === 2) {
    const prompt = init.capabilities?.session?.prompt;
    return { image: present(prompt?.['image']), audio: present(prompt?.['audio']), embeddedContext: present(prompt?.['embeddedContext']) };
  }
  const prompt = init.agentCapabilities?.promptCapabilities;
  return { image: prompt?.image === true, audio: prompt?.audio === true, embeddedContext: prompt?.embeddedContext === true };
}

const v1Mcp = z.object({ http: z.boolean().nullish(), sse: z.boolean().nullish() }).loose();
const v2Mcp = z.object({ http: z.unknown(), sse: z.unknown() }).partial().loose();
const v2Session = z.object({ mcp: v2Mcp.nullish() }).loose();

function mcpCapabilitiesOf(init: InitializeResult, version: ProtocolVersion): McpCapabilities {
  if (version === 2) {
    const mcp = v2Session.safeParse(init.capabilities?.session).data?.mcp;
    return { http: present(mcp?.http), sse: present(mcp?.sse) };
  }
  const advertised = v1Mcp.safeParse(init.agentCapabilities?.['mcpCapabilities']).data;
  return { http: advertised?.http === true, sse: advertised?.sse === true };
}
