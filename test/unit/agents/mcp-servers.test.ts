import * as assert from 'node:assert/strict';
import { parseAgentsSetting } from '../../../src/agents/agent-config';
import { mcpServersForAgent } from '../../../src/agents/mcp-for-agent';
import type { InputValues } from '../../../src/agents/mcp-references';
import { mergeMcpServers, parseMcpJson, parseMcpServers } from '../../../src/agents/mcp-servers';
import { selectForAgent } from '../../../src/agents/mcp-wire';

const noInputs: InputValues = { value: () => Promise.reject(new Error('no input expected')) };
const noEnv = (): undefined => undefined;

describe('MCP servers: settings and mcp.json', () => {
  it('reads the mcp.json `servers` shape: stdio with or without type, http and sse', () => {
    const parsed = parseMcpServers(
      {
        files: { command: 'npx', args: ['-y', 'server-files'], env: { ROOT: '/tmp' } },
        typed: { type: 'stdio', command: 'uvx' },
        docs: { type: 'http', url: 'https://docs.example/mcp', headers: { Authorization: 'Bearer x' } },
        events: { type: 'sse', url: 'https://events.example/sse' },
      },
      'acpClient.mcpServers',
    );
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(parsed.servers, [
      { name: 'files', transport: 'stdio', command: 'npx', args: ['-y', 'server-files'], env: { ROOT: '/tmp' } },
      { name: 'typed', transport: 'stdio', command: 'uvx', args: [], env: {} },
      { name: 'docs', transport: 'http', url: 'https://docs.example/mcp', headers: { Authorization: 'Bearer x' } },
      { name: 'events', transport: 'sse', url: 'https://events.example/sse', headers: {} },
    ]);
  });

  it('skips a broken entry naming the server and the field, and keeps the others', () => {
    const parsed = parseMcpServers(
      { noCommand: { args: ['x'] }, noUrl: { type: 'http' }, badEnv: { command: 'x', env: { N: 1 } }, good: { command: 'ok' } },
      'acpClient.mcpServers',
    );
    assert.deepEqual(
      parsed.servers.map((server) => server.name),
      ['good'],
    );
    assert.equal(parsed.problems.length, 3);
    assert.match(parsed.problems[0] ?? '', /acpClient\.mcpServers\["noCommand"\] skipped: command/);
    assert.match(parsed.problems[1] ?? '', /\["noUrl"\] skipped: url/);
    assert.match(parsed.problems[2] ?? '', /\["badEnv"\] skipped: env\.N/);
  });

  it('a setting that is not an object is one problem, not a crash', () => {
    assert.deepEqual(parseMcpServers(['x'], 'acpClient.mcpServers'), {
      servers: [],
      problems: ['acpClient.mcpServers must be an object keyed by server name'],
    });
    assert.deepEqual(parseMcpServers(undefined, 'acpClient.mcpServers'), { servers: [], problems: [] });
  });

  it('reads .vscode/mcp.json as VS Code writes it: comments, trailing commas, input prompts', () => {
    const parsed = parseMcpJson(
      `{
        // the team's servers
        "inputs": [{ "type": "promptString", "id": "token", "description": "GitHub token", "password": true }],
        "servers": {
          "github": { "type": "http", "url": "https://api.example/mcp", "headers": { "Authorization": "Bearer \${input:token}" }, },
        },
      }`,
      '.vscode/mcp.json',
    );
    assert.deepEqual(parsed.problems, []);
    assert.equal(parsed.servers[0]?.name, 'github');
    assert.equal(parsed.inputPrompts.get('token'), 'GitHub token');
  });

  it('a broken mcp.json is reported with where it breaks', () => {
    const parsed = parseMcpJson('{ "servers": { "a": ', '.vscode/mcp.json');
    assert.deepEqual(parsed.servers, []);
    assert.match(parsed.problems[0] ?? '', /^\.vscode\/mcp\.json could not be read: \w+ at offset \d+/);
  });

  it('a server named in settings wins over the workspace file’s of the same name', () => {
    const settings = parseMcpServers({ shared: { command: 'mine' } }, 's').servers;
    const workspace = parseMcpServers({ shared: { command: 'theirs' }, extra: { command: 'x' } }, 'w').servers;
    assert.deepEqual(
      mergeMcpServers(settings, workspace).map((server) => [server.name, 'command' in server ? server.command : '']),
      [
        ['shared', 'mine'],
        ['extra', 'x'],
      ],
    );
  });
});

describe('MCP servers: the wire shape and the agent’s transports', () => {
  const configured = parseMcpServers(
    {
      files: { command: '/usr/bin/files', args: ['--root', '/w'], env: { TOKEN: 't0k', MODE: 'ro' } },
      docs: { type: 'http', url: 'https://docs.example/mcp', headers: { Authorization: 'Bearer abc' } },
      events: { type: 'sse', url: 'https://events.example/sse' },
    },
    's',
  ).servers;
  const resolved = configured.map((config) => ({ config, secrets: [] }));

  it('converts to ACP’s shape: stdio {name, command, args, env[]}, http/sse {type, name, url, headers[]}', () => {
    const selection = selectForAgent(resolved, { http: true, sse: true });
    assert.deepEqual(selection.servers, [
      {
        name: 'files',
        command: '/usr/bin/files',
        args: ['--root', '/w'],
        env: [
          { name: 'TOKEN', value: 't0k' },
          { name: 'MODE', value: 'ro' },
        ],
      },
      { type: 'http', name: 'docs', url: 'https://docs.example/mcp', headers: [{ name: 'Authorization', value: 'Bearer abc' }] },
      { type: 'sse', name: 'events', url: 'https://events.example/sse', headers: [] },
    ]);
    assert.deepEqual(selection.skipped, []);
    assert.deepEqual(new Set(selection.secrets), new Set(['t0k', 'ro', 'Bearer abc']));
  });

  it('an agent advertising no http/sse gets the stdio servers only, and each left out is named with why', () => {
    const selection = selectForAgent(resolved, { http: false, sse: false });
    assert.deepEqual(
      selection.servers.map((server) => server.name),
      ['files'],
    );
    assert.deepEqual(selection.skipped, [
      '"docs": the agent does not support HTTP MCP servers',
      '"events": the agent does not support SSE MCP servers',
    ]);
    assert.ok(!selection.secrets.includes('Bearer abc'), 'what is not sent needs no masking');
  });

  it('http without sse: the http server goes, the sse one does not', () => {
    const selection = selectForAgent(resolved, { http: true, sse: false });
    assert.deepEqual(
      selection.servers.map((server) => server.name),
      ['files', 'docs'],
    );
    assert.equal(selection.skipped.length, 1);
  });
});

describe('MCP servers: per agent', () => {
  const configured = parseMcpServers({ files: { command: 'files' } }, 's').servers;

  it('`"mcpServers": false` in an agent’s entry gives it none; other agents get them', async () => {
    const { agents, problems } = parseAgentsSetting({ Quiet: { command: 'q', mcpServers: false }, Busy: { command: 'b' } });
    assert.deepEqual(problems, []);
    const [quiet, busy] = agents;
    assert.ok(quiet && busy);
    assert.equal(quiet.mcpServers, false);
    const sources = { env: noEnv, inputs: noInputs };
    assert.deepEqual((await mcpServersForAgent(quiet, configured, sources)).servers, []);
    assert.deepEqual(
      (await mcpServersForAgent(busy, configured, sources)).servers.map((server) => server.config.name),
      ['files'],
    );
  });

  it('a non-boolean mcpServers in an agent entry is a problem with the entry', () => {
    const { agents, problems } = parseAgentsSetting({ Odd: { command: 'o', mcpServers: 'no' } });
    assert.deepEqual(agents, []);
    assert.match(problems[0] ?? '', /Odd.*mcpServers/);
  });
});
