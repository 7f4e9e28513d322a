/** The MCP servers one agent gets, from what is configured: none when the agent's entry says `mcpServers: false`. */
import type { AgentConfig } from './agent-config';
import { resolveReferences, type ReferenceSources, type ResolvedMcpServer } from './mcp-references';
import type { McpServerConfig } from './mcp-servers';

export interface ServersForAgent {
  readonly servers: readonly ResolvedMcpServer[];
  readonly problems: readonly string[];
}

export async function mcpServersForAgent(
  agent: AgentConfig,
  configured: readonly McpServerConfig[],
  sources: ReferenceSources,
): Promise<ServersForAgent> {
  if (agent.mcpServers === false) return { servers: [], problems: [] };
  const servers: ResolvedMcpServer[] = [];
  const problems: string[] = [];
  // One after another: two prompts for secrets at once would stack input boxes.
  for (const server of configured) {
    const resolution = await resolveReferences(server, sources);
    if (resolution.ok) servers.push(resolution.server);
    else problems.push(resolution.problem);
  }
  return { servers, problems };
}
