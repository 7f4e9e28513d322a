/**
 * The MCP servers configured for agents, each with where it came from: `acpClient.mcpServers` scope by scope (a
 * server the workspace names is its definition alone) and the workspace's `.vscode/mcp.json`, always the workspace's.
 * A server named in the settings wins over the file's of the same name.
 */
import { entriesByScope, originOf, type DefinitionOrigin, type InspectedSetting } from './definition-scopes';
import { parseMcpServers, type McpServerConfig } from './mcp-servers';

export interface OriginedMcpServer {
  readonly server: McpServerConfig;
  readonly origin: DefinitionOrigin;
}

export interface OriginedMcpServers {
  readonly servers: readonly OriginedMcpServer[];
  readonly problems: readonly string[];
}

export const SETTINGS_FILE = "this workspace's settings";
export const MCP_JSON_FILE = "this workspace's .vscode/mcp.json";

export function resolveMcpServersSetting(inspected: InspectedSetting | undefined, workspaceKey: string): OriginedMcpServers {
  const servers: OriginedMcpServer[] = [];
  const problems: string[] = [];
  for (const entry of entriesByScope(inspected)) {
    const parsed = parseMcpServers({ [entry.name]: entry.raw }, 'acpClient.mcpServers');
    problems.push(...parsed.problems);
    for (const server of parsed.servers) servers.push({ server, origin: originOf(entry.from, server, SETTINGS_FILE, workspaceKey) });
  }
  return { servers, problems };
}

/** The file's servers are the workspace's: each is approved on its own. */
export function fromWorkspaceFile(servers: readonly McpServerConfig[], workspaceKey: string): readonly OriginedMcpServer[] {
  return servers.map((server) => ({ server, origin: originOf('workspace', server, MCP_JSON_FILE, workspaceKey) }));
}

/** One list; a server named in the settings wins over the file's of the same name (as `mergeMcpServers`). */
export function mergeOrigined(
  fromSettings: readonly OriginedMcpServer[],
  fromFile: readonly OriginedMcpServer[],
): readonly OriginedMcpServer[] {
  const named = new Set(fromSettings.map((item) => item.server.name));
  return [...fromSettings, ...fromFile.filter((item) => !named.has(item.server.name))];
}
