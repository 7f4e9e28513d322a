/** The MCP servers agents get: `acpClient.mcpServers`, and the workspace's `.vscode/mcp.json` when opted in. */
import * as vscode from 'vscode';
import type { AgentConfig } from '../agents/agent-config';
import { mcpServersForAgent, type ServersForAgent } from '../agents/mcp-for-agent';
import type { InputValues } from '../agents/mcp-references';
import { mergeMcpServers, parseMcpJson, parseMcpServers, type McpInputPrompts, type ParsedMcpServers } from '../agents/mcp-servers';
import type { McpServerSource } from '../session/ports';

const WORKSPACE_FILE = '.vscode/mcp.json';

export class VscodeMcpServerSource implements McpServerSource {
  constructor(private readonly inputs: InputValues) {}

  async forAgent(agent: AgentConfig): Promise<ServersForAgent> {
    const settings = vscode.workspace.getConfiguration('acpClient');
    const fromSettings = parseMcpServers(settings.get('mcpServers'), 'acpClient.mcpServers');
    const fromWorkspace = settings.get<boolean>('mcp.includeWorkspaceConfig') === true ? await readWorkspaceFile() : undefined;
    const resolved = await mcpServersForAgent(agent, mergeMcpServers(fromSettings.servers, fromWorkspace?.servers ?? []), {
      env: (name) => process.env[name],
      inputs: this.inputs,
      ...(fromWorkspace ? { inputPrompts: fromWorkspace.inputPrompts } : {}),
    });
    return { servers: resolved.servers, problems: [...fromSettings.problems, ...(fromWorkspace?.problems ?? []), ...resolved.problems] };
  }
}

/** The first folder's file (where the agent works); a folder without one has no servers to add. */
async function readWorkspaceFile(): Promise<(ParsedMcpServers & { inputPrompts: McpInputPrompts }) | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) return undefined;
  let bytes: Uint8Array;
  try {
    bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json'));
  } catch (error) {
    if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') return undefined;
    throw error;
  }
  return parseMcpJson(new TextDecoder().decode(bytes), WORKSPACE_FILE);
}
