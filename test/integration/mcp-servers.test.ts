/**
 * MCP servers from `acpClient.mcpServers` reach a real agent: Claude Code (`@agentclientprotocol/claude-agent-acp`)
 * gets a real stdio MCP server (test/fixtures/mcp-server, on the official MCP SDK) in `session/new`, starts it,
 * and offers its tool to the model: the tool is in the tool list the agent sends to the mock Anthropic API.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startMockAnthropic, type MockAnthropic } from '../fixtures/mock-anthropic/server';
import { claudeAgentBin, claudeAgentEnv } from '../support/claude-agent';
import { repoRoot } from '../support/repo-root';
import { turnEnded, useAgent, waitFor } from './helpers';

const SERVER_NAME = 'marker';
// Claude Code names an MCP tool mcp__<server>__<tool>.
const TOOL = `mcp__${SERVER_NAME}__shout_marker`;

/** The names of the tools in a Messages API request body. */
function toolNames(body: string): string[] {
  const parsed: unknown = JSON.parse(body);
  if (typeof parsed !== 'object' || parsed === null || !('tools' in parsed) || !Array.isArray(parsed.tools)) return [];
  return parsed.tools.flatMap((tool: unknown) =>
    typeof tool === 'object' && tool !== null && 'name' in tool && typeof tool.name === 'string' ? [tool.name] : [],
  );
}

describe('MCP servers reach a real agent: Claude Code starts the configured stdio server and offers its tool', function () {
  this.timeout(120_000);
  let mock: MockAnthropic | undefined;
  let home: string | undefined;
  const settings = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('acpClient');

  after(async () => {
    await settings().update('mcpServers', undefined, vscode.ConfigurationTarget.Global);
    await mock?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('the server’s tool is in the tool list the agent sends to the model', async () => {
    mock = await startMockAnthropic();
    const agentEnv = claudeAgentEnv(mock.url);
    home = agentEnv.home;
    const startedLog = path.join(home, 'mcp-started.log');
    const server = path.join(repoRoot(), 'out', 'test', 'fixtures', 'mcp-server', 'main.js');
    await settings().update(
      'mcpServers',
      { [SERVER_NAME]: { command: process.execPath, args: [server], env: { MCP_MARKER_LOG: startedLog } } },
      vscode.ConfigurationTarget.Global,
    );
    // Claude Code otherwise defers MCP tools behind its ToolSearch tool, and the model sees only their names.
    const env = { ...agentEnv.env, ENABLE_TOOL_SEARCH: 'false' };
    const client = await useAgent('Claude Code (mock API)', { command: process.execPath, args: [claudeAgentBin()], env }, 60_000);

    assert.deepEqual(await client.sendPrompt('Which tools do you have?'), { accepted: true });
    await waitFor(client, turnEnded, 60_000);

    assert.ok(existsSync(startedLog) && readFileSync(startedLog, 'utf8').includes('started'), 'the agent started the MCP server');
    const sent = (mock.requests ?? []).filter((request) => request.method === 'POST' && request.url.startsWith('/v1/messages'));
    const offered = new Set(sent.flatMap((request) => toolNames(request.body)));
    assert.ok(offered.has(TOOL), `the model was offered ${TOOL}; it was offered: ${[...offered].join(', ')}`);
  });
});
