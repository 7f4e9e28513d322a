/**
 * The MCP servers agents get: `acpClient.mcpServers`, and the workspace's `.vscode/mcp.json` when the user opted in
 * (in their own settings). A server the workspace defined is passed only once the user approved that definition;
 * its `${input:}` secrets are its own.
 */
import * as vscode from 'vscode';
import type { AgentConfig } from '../agents/agent-config';
import { refusalNotice, type DefinitionApprovals, type RunnableDefinition } from '../agents/definition-approval';
import { mcpServersForAgent, type ServersForAgent } from '../agents/mcp-for-agent';
import { fromWorkspaceFile, mergeOrigined, resolveMcpServersSetting, type OriginedMcpServer } from '../agents/mcp-server-origins';
import { parseMcpJson, type McpInputPrompts, type McpServerConfig, type ParsedMcpServers } from '../agents/mcp-servers';
import type { McpServerSource } from '../session/ports';
import type { VscodeSecretInputs } from './secret-inputs';
import { userSetting } from './user-settings';
import { currentWorkspaceKey } from './workspace-identity';

const WORKSPACE_FILE = '.vscode/mcp.json';

export class VscodeMcpServerSource implements McpServerSource {
  constructor(
    private readonly inputs: VscodeSecretInputs,
    private readonly approvals: DefinitionApprovals,
  ) {}

  async forAgent(agent: AgentConfig): Promise<ServersForAgent> {
    if (agent.mcpServers === false) return { servers: [], problems: [] };
    const workspaceKey = currentWorkspaceKey();
    const fromSettings = resolveMcpServersSetting(vscode.workspace.getConfiguration('acpClient').inspect('mcpServers'), workspaceKey);
    // Only the user can opt a workspace in: a repository's own settings cannot (the setting is application-scoped).
    const fromFile = userSetting('mcp.includeWorkspaceConfig') === true ? await readWorkspaceFile() : undefined;
    const configured = mergeOrigined(fromSettings.servers, fromWorkspaceFile(fromFile?.servers ?? [], workspaceKey));
    const servers: ServersForAgent['servers'][number][] = [];
    const problems = [...fromSettings.problems, ...(fromFile?.problems ?? [])];
    // One after another: two dialogs or input boxes at once would stack.
    for (const { server, origin } of configured) {
      if (!(await this.approvals.approve(runnable(server), origin))) {
        const notice = refusalNotice(
          { kind: 'mcp server', name: server.name },
          origin.kind === 'workspace' ? origin.file : 'this workspace',
        );
        problems.push(`${notice.title}. ${notice.detail}`);
        continue;
      }
      const resolved = await this.resolve(agent, server, origin, fromFile?.inputPrompts);
      servers.push(...resolved.servers);
      problems.push(...resolved.problems);
    }
    return { servers, problems };
  }

  private resolve(
    agent: AgentConfig,
    server: McpServerConfig,
    origin: OriginedMcpServer['origin'],
    inputPrompts: McpInputPrompts | undefined,
  ): Promise<ServersForAgent> {
    return mcpServersForAgent(agent, [server], {
      env: (name) => process.env[name],
      inputs: this.inputs.forOrigin(origin),
      ...(inputPrompts ? { inputPrompts } : {}),
    });
  }
}

function runnable(server: McpServerConfig): RunnableDefinition {
  return server.transport === 'stdio'
    ? { kind: 'mcp server', name: server.name, command: server.command, args: server.args, env: server.env }
    : { kind: 'mcp server', name: server.name, transport: server.transport, url: server.url, headers: server.headers };
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
