/**
 * What an agent gets at spawn beyond its settings: the API key the user stored (in the variable its settings name,
 * only there) and the MCP servers configured for it, resolved (which may ask the user for a secret).
 */
import { apiKeyOwner, type AgentConfig } from '../agents/agent-config';
import type { ResolvedMcpServer } from '../agents/mcp-references';
import type { McpServerSource } from './ports';
import type { AgentSecrets } from './sign-in-ports';
import { errorMessage } from '../shared/error-text';

/** The agent as spawned: with the API key stored for this definition (see apiKeyOwner), in the variable it names. */
export async function withStoredApiKey(agent: AgentConfig, secrets: AgentSecrets): Promise<AgentConfig> {
  if (agent.apiKeyEnv === undefined) return agent;
  const key = await secrets.apiKey(apiKeyOwner(agent)).catch(() => undefined);
  return key ? { ...agent, env: { ...agent.env, [agent.apiKeyEnv]: key } } : agent;
}

/** The agent's MCP servers; a server that cannot be resolved is reported and left out, the others still go. */
export async function mcpServersFor(
  source: McpServerSource | undefined,
  agent: AgentConfig,
  report: (title: string, problems: readonly string[]) => void,
): Promise<readonly ResolvedMcpServer[]> {
  if (!source) return [];
  try {
    const { servers, problems } = await source.forAgent(agent);
    report('Some MCP servers were skipped', problems);
    return servers;
  } catch (error) {
    report('MCP servers were not passed', [errorMessage(error)]);
    return [];
  }
}
