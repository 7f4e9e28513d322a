/**
 * The MCP settings in a real VS Code: `acpClient.mcpServers` and, opted in with `acpClient.mcp.includeWorkspaceConfig`,
 * the workspace's `.vscode/mcp.json` (JSONC) reach the agent's `session/new`; `${env:}` is resolved from the extension
 * host's environment; the scripted agent (ACP_REPORT_MCP) says what it got.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AcpClientTestApi } from '../../src/api';
import { entriesOf } from '../../src/shared/selectors';
import { api, textOf, useScriptedAgent, waitFor, workspaceRoot } from './helpers';

const PREFIX = 'mcpServers: ';

async function reportedServers(client: AcpClientTestApi): Promise<unknown> {
  const said = (): string | undefined =>
    entriesOf(client.transcript())
      .filter((entry) => entry.kind === 'message' && entry.role === 'agent')
      .map(textOf)
      .find((text) => text.startsWith(PREFIX));
  await waitFor(client, () => said() !== undefined);
  const servers: unknown = JSON.parse((said() ?? '').slice(PREFIX.length));
  // The editor's own server goes to every agent too (editor-tools.test.ts covers it); here: the user's and the workspace's.
  return Array.isArray(servers) ? servers.filter((server: { name?: unknown }) => server.name !== 'editor') : servers;
}

describe('MCP servers from settings and .vscode/mcp.json in a real VS Code', function () {
  this.timeout(60_000);
  const settings = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('acpClient');
  const dotVscode = (): string => path.join(workspaceRoot(), '.vscode');

  const approved: string[] = [];

  before(async () => {
    // The file's servers are the workspace's: each is approved (the modal, answered here) before it goes.
    (await api()).answerApprovalsForTests((request) => (approved.push(request.message), Promise.resolve(true)));
    process.env['ACP_MCP_IT_ROOT'] = '/srv/it';
    mkdirSync(dotVscode(), { recursive: true });
    writeFileSync(
      path.join(dotVscode(), 'mcp.json'),
      `{
        // as VS Code writes it: comments and trailing commas
        "servers": {
          "from-workspace": { "command": "ws-server", "args": ["\${env:ACP_MCP_IT_ROOT}"], },
          "shared": { "command": "workspace-loses" },
          "remote": { "type": "http", "url": "https://mcp.example/it" },
        },
      }`,
    );
    await settings().update('mcpServers', { shared: { command: 'settings-win', env: { MODE: 'ro' } } }, vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    (await api()).answerApprovalsForTests(undefined);
    await settings().update('mcpServers', undefined, vscode.ConfigurationTarget.Global);
    await settings().update('mcp.includeWorkspaceConfig', undefined, vscode.ConfigurationTarget.Global);
    rmSync(dotVscode(), { recursive: true, force: true });
    delete process.env['ACP_MCP_IT_ROOT'];
  });

  it('without the opt-in, only the settings’ servers go', async () => {
    const client = await useScriptedAgent('echo', { ACP_REPORT_MCP: '1', ACP_MCP_CAPABILITIES: 'http' });
    assert.deepEqual(await reportedServers(client), [
      { name: 'shared', command: 'settings-win', args: [], env: [{ name: 'MODE', value: 'ro' }] },
    ]);
  });

  it('opted in, the workspace file’s servers join, a settings server of the same name wins, ${env:} is resolved', async () => {
    await settings().update('mcp.includeWorkspaceConfig', true, vscode.ConfigurationTarget.Global);
    const client = await useScriptedAgent('echo', { ACP_REPORT_MCP: '1', ACP_MCP_CAPABILITIES: 'http' });
    assert.deepEqual(await reportedServers(client), [
      { name: 'shared', command: 'settings-win', args: [], env: [{ name: 'MODE', value: 'ro' }] },
      { name: 'from-workspace', command: 'ws-server', args: ['/srv/it'], env: [] },
      { type: 'http', name: 'remote', url: 'https://mcp.example/it', headers: [] },
    ]);
    assert.deepEqual(approved, [
      'Run the MCP server "from-workspace" from this workspace?',
      'Run the MCP server "remote" from this workspace?',
    ]);
  });
});
