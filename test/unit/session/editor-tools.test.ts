/**
 * The editor's own MCP server through the whole host path to a real scripted agent process, which says what
 * `session/new` gave it: HTTP with the bearer token for an agent advertising http, the bundled stdio bridge for one
 * that does not, none when the agent or the user turned it off (the log says which and why), the token masked in
 * the wire trace, and the server gone when the agent stops. The Sessions view's tooltip line says the same per
 * conversation (given how, or not given and why).
 */

/** The line the Sessions view's tooltip shows for the harness's conversation. */
function sessionsViewLine(harness: HostHarness): string | undefined {
  const status = harness.controller.editorTools;
  return status && editorToolsLine(status);
}
import * as assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { EditorToolsLauncher } from '../../../src/editor-tools/editor-tools-offer';
import { startEditorTools } from '../../../src/editor-tools/editor-tools-server';
import { BRIDGE_BUNDLE } from '../../../src/editor-tools/bridge/bridge-env';
import { entriesOf } from '../../../src/shared/selectors';
import { HarnessSuite } from '../../support/harness-suite';
import { scriptedAgent, v2Agent, type HostHarness } from '../../support/host-harness';
import { editorToolsLine } from '../../../src/editor/sessions-tree-text';
import { repoRoot } from '../../support/repo-root';
import { FakeLanguage } from '../editor-tools/fake-language';

interface Reported {
  readonly name: string;
  readonly type?: string;
  readonly url?: string;
  readonly command?: string;
  readonly args?: readonly string[];
  readonly headers?: readonly { name: string; value: string }[];
  readonly env?: readonly { name: string; value: string }[];
}

function launcher(enabled = true): EditorToolsLauncher {
  return {
    enabled: () => enabled,
    start: (capabilities) =>
      startEditorTools(
        {
          language: new FakeLanguage(),
          roots: () => [tmpdir()],
          bridge: { node: process.execPath, script: () => path.join(repoRoot(), 'dist', BRIDGE_BUNDLE) },
        },
        capabilities,
      ),
  };
}

async function reported(harness: HostHarness): Promise<Reported[]> {
  const state = await harness.waitFor((s) => agentText(s) !== undefined);
  return JSON.parse(agentText(state) ?? '') as Reported[];
}

function agentText(state: HostHarness['store']['state']): string | undefined {
  for (const entry of entriesOf(state)) {
    if (entry.kind !== 'message' || entry.role !== 'agent') continue;
    const block = entry.content[0];
    if (block?.type === 'text' && block.text.startsWith('mcpServers: ')) return block.text.slice('mcpServers: '.length);
  }
  return undefined;
}

describe('the editor tools offered to a real agent', function () {
  this.timeout(20_000);
  const suite = new HarnessSuite('acp-editor-tools-');

  it('an agent advertising http gets the editor over HTTP on 127.0.0.1 with a bearer token that works, and the log says so', async () => {
    const harness = suite.start({ editorTools: launcher() });
    await harness.controller.start(scriptedAgent('echo', { ACP_REPORT_MCP: '1', ACP_MCP_CAPABILITIES: 'http' }));
    const [editor] = await reported(harness);
    assert.equal(editor?.name, 'editor');
    assert.equal(editor?.type, 'http');
    assert.match(editor?.url ?? '', /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const authorization = editor?.headers?.find((header) => header.name === 'Authorization')?.value ?? '';
    assert.match(authorization, /^Bearer [A-Za-z0-9_-]{43}$/);
    assert.ok(harness.logLines.includes("Scripted gets the editor's tools over HTTP on 127.0.0.1"), harness.logLines.join('\n'));
    assert.equal(sessionsViewLine(harness), 'Editor tools: given over HTTP on 127.0.0.1');
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(editor!.url!), { requestInit: { headers: { Authorization: authorization } } }),
    );
    assert.ok((await client.listTools()).tools.some((tool) => tool.name === 'problems'));
    await client.close();
    // It stops with the process: the port refuses.
    await harness.controller.stop();
    await assert.rejects(fetch(editor!.url!, { method: 'POST', headers: { Authorization: authorization } }));
  });

  it('an agent without http gets the bundled stdio bridge, run with the editor’s own Node', async () => {
    const harness = suite.start({ editorTools: launcher() });
    await harness.controller.start(scriptedAgent('echo', { ACP_REPORT_MCP: '1' }));
    const [editor] = await reported(harness);
    assert.equal(editor?.name, 'editor');
    assert.equal(editor?.command, process.execPath);
    assert.equal(path.basename(editor?.args?.[0] ?? ''), BRIDGE_BUNDLE);
    const env = Object.fromEntries((editor?.env ?? []).map(({ name, value }) => [name, value]));
    assert.equal(env['ELECTRON_RUN_AS_NODE'], '1');
    assert.ok(env['ACP_EDITOR_TOOLS_PIPE'] && env['ACP_EDITOR_TOOLS_TOKEN']);
    assert.ok(harness.logLines.some((line) => line.startsWith("Scripted gets the editor's tools over stdio")));
    assert.equal(sessionsViewLine(harness), 'Editor tools: given over stdio (the bridge, through a local socket)');
  });

  it('an agent whose entry says `editorTools: false` does not get it, and the log says why', async () => {
    const harness = suite.start({ editorTools: launcher() });
    await harness.controller.start({ ...scriptedAgent('echo', { ACP_REPORT_MCP: '1', ACP_MCP_CAPABILITIES: 'http' }), editorTools: false });
    assert.deepEqual(await reported(harness), []);
    assert.ok(harness.logLines.includes(`Scripted does not get the editor's tools: disabled for this agent ("editorTools": false)`));
    assert.equal(sessionsViewLine(harness), 'Editor tools: not given (disabled for this agent ("editorTools": false))');
  });

  it('with acpClient.editorTools.enabled off no agent gets it, and the log says why', async () => {
    const harness = suite.start({ editorTools: launcher(false) });
    await harness.controller.start(scriptedAgent('echo', { ACP_REPORT_MCP: '1', ACP_MCP_CAPABILITIES: 'http' }));
    assert.deepEqual(await reported(harness), []);
    assert.ok(harness.logLines.includes("Scripted does not get the editor's tools: acpClient.editorTools.enabled is off"));
    assert.equal(sessionsViewLine(harness), 'Editor tools: not given (acpClient.editorTools.enabled is off)');
  });

  it('a v2-draft agent does not get it (the offer is in v1 shapes), and the log and the Sessions view say why', async () => {
    const harness = suite.start({ editorTools: launcher() });
    await harness.controller.start(v2Agent('answer', 2));
    assert.ok(harness.logLines.includes("V2 does not get the editor's tools: it speaks the ACP v2 draft"), harness.logLines.join('\n'));
    assert.equal(sessionsViewLine(harness), 'Editor tools: not given (the agent speaks the ACP v2 draft)');
  });

  it('a configured MCP server already named "editor" keeps the name: the Sessions view says the editor’s was not given', async () => {
    const harness = suite.start({
      editorTools: launcher(),
      mcpServers: {
        forAgent: () =>
          Promise.resolve({
            servers: [{ config: { name: 'editor', transport: 'stdio', command: '/usr/bin/mcp-editor', args: [], env: {} }, secrets: [] }],
            problems: [],
          }),
      },
    });
    await harness.controller.start(scriptedAgent('echo', { ACP_REPORT_MCP: '1', ACP_MCP_CAPABILITIES: 'http' }));
    const servers = await reported(harness);
    assert.deepEqual(
      servers.map((server) => [server.name, server.command]),
      [['editor', '/usr/bin/mcp-editor']],
    );
    assert.equal(sessionsViewLine(harness), 'Editor tools: not given (a configured MCP server is named "editor")');
  });

  it('attack: the editor tools token leaks into the wire log', async () => {
    const harness = suite.start({ editorTools: launcher(), trace: 'verbose' });
    await harness.controller.start(scriptedAgent('echo', { ACP_REPORT_MCP: '1', ACP_MCP_CAPABILITIES: 'http' }));
    const [editor] = await reported(harness);
    const token = (editor?.headers?.[0]?.value ?? '').replace('Bearer ', '');
    assert.ok(token.length > 20);
    assert.ok(harness.logLines.some((line) => line.includes("Sending request 'session/new")));
    assert.ok(!harness.logLines.some((line) => line.includes(token)), 'the token is masked in every log line');
  });
});
