import * as assert from 'node:assert/strict';
import { mcpServersForAgent } from '../../../src/agents/mcp-for-agent';
import { resolveReferences, type InputValues } from '../../../src/agents/mcp-references';
import { parseMcpServers } from '../../../src/agents/mcp-servers';
import { selectForAgent } from '../../../src/agents/mcp-wire';

/** SecretStorage with a user behind the password box: asked once per id, then stored. */
class FakeSecretStore implements InputValues {
  readonly stored = new Map<string, string>();
  readonly asked: { id: string; prompt: string }[] = [];
  constructor(private readonly answers: Record<string, string | undefined>) {}
  value(id: string, prompt: string): Promise<string | undefined> {
    const stored = this.stored.get(id);
    if (stored !== undefined) return Promise.resolve(stored);
    this.asked.push({ id, prompt });
    const answer = this.answers[id];
    if (answer !== undefined) this.stored.set(id, answer);
    return Promise.resolve(answer);
  }
}

const env = (values: Record<string, string>) => (name: string) => values[name];

describe('MCP servers: ${env:} and ${input:} references', () => {
  const [remote, local] = parseMcpServers(
    {
      api: { type: 'http', url: 'https://${env:API_HOST}/mcp', headers: { Authorization: 'Bearer ${input:api-token}' } },
      tool: { command: '${env:TOOLS}/bin/tool', args: ['--key', '${input:api-token}'], env: { HOME_DIR: '${env:HOME_DIR}' } },
    },
    's',
  ).servers;
  assert.ok(remote && local);

  it('env comes from the host environment, input from the store; every referenced value is a secret, alone and in place', async () => {
    const store = new FakeSecretStore({ 'api-token': 's3cret' });
    const resolution = await resolveReferences(remote, { env: env({ API_HOST: 'api.example' }), inputs: store });
    assert.ok(resolution.ok);
    assert.deepEqual(resolution.server.config, {
      name: 'api',
      transport: 'http',
      url: 'https://api.example/mcp',
      headers: { Authorization: 'Bearer s3cret' },
    });
    assert.deepEqual(resolution.server.secrets, ['api.example', 'https://api.example/mcp', 's3cret', 'Bearer s3cret']);
  });

  it('asks once for an input used twice, with a prompt naming the server', async () => {
    const store = new FakeSecretStore({ 'api-token': 'k' });
    const sources = { env: env({ API_HOST: 'h', TOOLS: '/opt', HOME_DIR: '/home/u' }), inputs: store };
    const result = await mcpServersForAgent({ name: 'A', command: 'a', args: [], env: {} }, [remote, local], sources);
    assert.deepEqual(result.problems, []);
    assert.equal(store.asked.length, 1);
    assert.match(store.asked[0]?.prompt ?? '', /\$\{input:api-token\}.*"api"/);
    const tool = result.servers[1]?.config;
    assert.deepEqual(tool, {
      name: 'tool',
      transport: 'stdio',
      command: '/opt/bin/tool',
      args: ['--key', 'k'],
      env: { HOME_DIR: '/home/u' },
    });
    // The argument carrying the secret is masked too, not only env and headers.
    assert.ok(selectForAgent(result.servers, { http: true, sse: false }).secrets.includes('k'));
  });

  it('the prompt from mcp.json’s inputs is the one shown', async () => {
    const store = new FakeSecretStore({ 'api-token': 'k' });
    await resolveReferences(remote, {
      env: env({ API_HOST: 'h' }),
      inputs: store,
      inputPrompts: new Map([['api-token', 'Your API token']]),
    });
    assert.equal(store.asked[0]?.prompt, 'Your API token');
  });

  it('a missing env variable skips the server, naming the variable', async () => {
    const resolution = await resolveReferences(remote, { env: env({}), inputs: new FakeSecretStore({ 'api-token': 'k' }) });
    assert.deepEqual(resolution, { ok: false, problem: 'MCP server "api" skipped: the environment variable API_HOST is not set' });
  });

  it('a dismissed password box skips the server; nothing is stored and the other servers still go', async () => {
    const store = new FakeSecretStore({});
    const plain = parseMcpServers({ plain: { command: 'p' } }, 's').servers;
    const result = await mcpServersForAgent({ name: 'A', command: 'a', args: [], env: {} }, [remote, ...plain], {
      env: env({ API_HOST: 'h' }),
      inputs: store,
    });
    assert.deepEqual(
      result.servers.map((server) => server.config.name),
      ['plain'],
    );
    assert.deepEqual(result.problems, ['MCP server "api" skipped: no value was given for ${input:api-token}']);
    assert.equal(store.stored.size, 0);
  });

  it('text without references is left exactly as written', async () => {
    const [plain] = parseMcpServers({ p: { command: 'run $HOME ${workspaceFolder}', env: { A: '${env:' } } }, 's').servers;
    assert.ok(plain);
    const resolution = await resolveReferences(plain, { env: env({}), inputs: new FakeSecretStore({}) });
    assert.ok(resolution.ok);
    assert.deepEqual(resolution.server, { config: plain, secrets: [] });
  });
});
