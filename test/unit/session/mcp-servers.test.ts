/**
 * MCP servers through the whole host path to a real scripted agent process, which says what `session/new` gave
 * it: the ACP wire shape, the agent's transports respected (with a notice for what was left out), per-agent off,
 * secrets resolved for the agent and masked in the wire trace.
 */
import * as assert from 'node:assert/strict';
import { mcpServersForAgent } from '../../../src/agents/mcp-for-agent';
import type { InputValues } from '../../../src/agents/mcp-references';
import { parseMcpServers } from '../../../src/agents/mcp-servers';
import type { NoticeEntry } from '../../../src/shared/model';
import { entriesOf } from '../../../src/shared/selectors';
import type { McpServerSource } from '../../../src/session/ports';
import { HarnessSuite } from '../../support/harness-suite';
import { scriptedAgent, type HostHarness } from '../../support/host-harness';

const SECRET = 'tok-9f3e1d';

const SETTINGS = {
  files: { command: '/usr/bin/mcp-files', args: ['--root', '/w'], env: { API_KEY: '${input:files-key}', MODE: '${env:MCP_TEST_MODE}' } },
  docs: { type: 'http', url: 'https://docs.example/mcp', headers: { Authorization: 'Bearer ${input:files-key}' } },
  events: { type: 'sse', url: 'https://events.example/sse' },
};

class StoredInputs implements InputValues {
  asked = 0;
  constructor(private readonly answer: string | undefined) {}
  value(): Promise<string | undefined> {
    this.asked++;
    return Promise.resolve(this.answer);
  }
}

/** The editor-free half of the VS Code source: settings parsed, references resolved against a fake store. */
function source(inputs: InputValues, settings: unknown = SETTINGS): McpServerSource {
  return {
    forAgent: (agent) => {
      const parsed = parseMcpServers(settings, 'acpClient.mcpServers');
      return mcpServersForAgent(agent, parsed.servers, { env: (name) => (name === 'MCP_TEST_MODE' ? 'ro' : undefined), inputs });
    },
  };
}

const notices = (harness: HostHarness): NoticeEntry[] =>
  entriesOf(harness.store.state).filter((entry): entry is NoticeEntry => entry.kind === 'notice');

async function reported(harness: HostHarness): Promise<unknown> {
  const state = await harness.waitFor((s) => agentText(s) !== undefined);
  return JSON.parse(agentText(state) ?? '');
}

function agentText(state: HostHarness['store']['state']): string | undefined {
  for (const entry of entriesOf(state)) {
    if (entry.kind !== 'message' || entry.role !== 'agent') continue;
    const block = entry.content[0];
    if (block?.type === 'text' && block.text.startsWith('mcpServers: ')) return block.text.slice('mcpServers: '.length);
  }
  return undefined;
}

describe('MCP servers passed to a real agent', function () {
  this.timeout(20_000);
  const suite = new HarnessSuite('acp-mcp-');

  it('an agent advertising http and sse gets all three, in ACP’s shape, with the secrets resolved', async () => {
    const harness = suite.start({ mcpServers: source(new StoredInputs(SECRET)) });
    await harness.controller.start(scriptedAgent('echo', { ACP_REPORT_MCP: '1', ACP_MCP_CAPABILITIES: 'http,sse' }));
    assert.deepEqual(await reported(harness), [
      {
        name: 'files',
        command: '/usr/bin/mcp-files',
        args: ['--root', '/w'],
        env: [
          { name: 'API_KEY', value: SECRET },
          { name: 'MODE', value: 'ro' },
        ],
      },
      { type: 'http', name: 'docs', url: 'https://docs.example/mcp', headers: [{ name: 'Authorization', value: `Bearer ${SECRET}` }] },
      { type: 'sse', name: 'events', url: 'https://events.example/sse', headers: [] },
    ]);
    assert.deepEqual(notices(harness), []);
    assert.ok(harness.logLines.includes('Scripted gets MCP servers: files, docs, events'), 'the log names them, without values');
  });

  it('an agent advertising no http/sse gets the stdio server only, and a notice names what was left out and why', async () => {
    const harness = suite.start({ mcpServers: source(new StoredInputs(SECRET)) });
    await harness.controller.start(scriptedAgent('echo', { ACP_REPORT_MCP: '1' }));
    const servers = await reported(harness);
    assert.ok(Array.isArray(servers));
    assert.deepEqual(
      servers.map((server: { name: string }) => server.name),
      ['files'],
    );
    const [notice] = notices(harness);
    assert.equal(notice?.title, 'MCP servers not passed to Scripted');
    assert.equal(
      notice?.detail,
      '"docs": the agent does not support HTTP MCP servers\n"events": the agent does not support SSE MCP servers',
    );
  });

  it('an agent whose entry says `mcpServers: false` gets an empty list and no secret is asked for', async () => {
    const inputs = new StoredInputs(SECRET);
    const harness = suite.start({ mcpServers: source(inputs) });
    await harness.controller.start({
      ...scriptedAgent('echo', { ACP_REPORT_MCP: '1', ACP_MCP_CAPABILITIES: 'http,sse' }),
      mcpServers: false,
    });
    assert.deepEqual(await reported(harness), []);
    assert.equal(inputs.asked, 0);
  });

  it('a secret the user did not give skips the servers needing it, says so, and the session still opens', async () => {
    const harness = suite.start({ mcpServers: source(new StoredInputs(undefined)) });
    await harness.controller.start(scriptedAgent('echo', { ACP_REPORT_MCP: '1', ACP_MCP_CAPABILITIES: 'http,sse' }));
    assert.deepEqual(await reported(harness), [{ type: 'sse', name: 'events', url: 'https://events.example/sse', headers: [] }]);
    const [notice] = notices(harness);
    assert.equal(notice?.title, 'Some MCP servers were skipped');
    assert.match(notice?.detail ?? '', /"files" skipped: no value was given for \$\{input:files-key\}/);
    assert.equal(harness.store.state.agent.phase, 'ready');
  });

  it('the verbose wire trace shows session/new with env and header values masked', async () => {
    const harness = suite.start({ mcpServers: source(new StoredInputs(SECRET)), trace: 'verbose' });
    await harness.controller.start(scriptedAgent('echo', { ACP_REPORT_MCP: '1', ACP_MCP_CAPABILITIES: 'http' }));
    await reported(harness);
    const sent = harness.logLines.find((line) => line.includes("Sending request 'session/new"));
    assert.ok(sent, 'session/new is traced');
    assert.match(sent, /"mcpServers"/);
    assert.match(sent, /"\/usr\/bin\/mcp-files"/, 'what is not secret stays readable');
    assert.ok(!sent.includes(SECRET), sent);
    assert.ok(!sent.includes('"ro"'), 'every env value is masked, not only those from inputs');
    assert.equal(sent.split('"***"').length - 1, 3);
    // The agent echoed the values back in a session/update: masked there too.
    assert.ok(!harness.logLines.some((line) => line.includes(SECRET)));
  });
});
