/**
 * The editor's MCP server, driven by the official MCP SDK's client as an agent would: over HTTP with the bearer
 * token, and over stdio through the bundled bridge (dist/editor-tools-bridge.js, run with this Node). Token, loopback,
 * workspace confinement, bounds and deadlines.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { networkInterfaces, tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startEditorTools, type RunningEditorTools } from '../../../src/editor-tools/editor-tools-server';
import { BRIDGE_BUNDLE } from '../../../src/editor-tools/bridge/bridge-env';
import { repoRoot } from '../../support/repo-root';
import type { AttackCase } from '../../support/attack-case';
import { FakeLanguage, problemAt } from './fake-language';

const HTTP = { http: true, sse: false };
const STDIO = { http: false, sse: false };

interface Fixture {
  readonly root: string;
  readonly outside: string;
  readonly language: FakeLanguage;
  readonly running: RunningEditorTools;
}

async function start(capabilities = HTTP, deadlineMs = 2_000): Promise<Fixture> {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'editor-tools-')));
  const root = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  writeFileSync(path.join(root, 'a.json'), '{');
  writeFileSync(path.join(outside, 'secret.ts'), 'export const key = 1;');
  symlinkSync(outside, path.join(root, 'link-out'));
  const language = new FakeLanguage();
  const running = await startEditorTools(
    {
      language,
      roots: () => [root],
      deadlineMs,
      bridge: { node: process.execPath, script: () => path.join(repoRoot(), 'dist', BRIDGE_BUNDLE) },
    },
    capabilities,
  );
  return { root, outside, language, running };
}

async function httpClient(running: RunningEditorTools, token?: string): Promise<Client> {
  const wire = running.wire;
  if (!('url' in wire)) throw new Error('not an HTTP server');
  const authorization = token === undefined ? wire.headers[0]!.value : `Bearer ${token}`;
  const client = new Client({ name: 'test-agent', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(wire.url), { requestInit: { headers: { Authorization: authorization } } }),
  );
  return client;
}

async function stdioClient(running: RunningEditorTools, env: Record<string, string> = {}): Promise<Client> {
  const wire = running.wire;
  if (!('command' in wire)) throw new Error('not a stdio server');
  const client = new Client({ name: 'test-agent', version: '1' });
  const fromWire = Object.fromEntries(wire.env.map(({ name, value }) => [name, value]));
  await client.connect(
    new StdioClientTransport({ command: wire.command, args: [...wire.args], env: { ...fromWire, ...env }, stderr: 'pipe' }),
  );
  return client;
}

const textOf = (result: unknown): string => {
  const content = (result as CallToolResult).content[0];
  return content?.type === 'text' ? content.text : '';
};

/** A raw request, to see what the server answers a caller without the MCP client's manners. */
function rawPost(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
  });
}

describe('editor tools server', function () {
  this.timeout(20_000);
  const fixtures: Fixture[] = [];
  const clients: Client[] = [];
  const open = async (capabilities = HTTP, deadlineMs?: number): Promise<Fixture> => {
    const fixture = await start(capabilities, deadlineMs);
    fixtures.push(fixture);
    return fixture;
  };
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close().catch(() => undefined);
    for (const fixture of fixtures.splice(0)) {
      await fixture.running.stop();
      rmSync(path.dirname(fixture.root), { recursive: true, force: true });
    }
  });

  it('offers the tools over HTTP on 127.0.0.1 with the token in headers, and answers problems of a file', async () => {
    const { root, language, running } = await open();
    assert.equal(running.transport, 'http');
    assert.ok('url' in running.wire && running.wire.url.startsWith('http://127.0.0.1:'), 'loopback URL');
    const file = path.join(root, 'a.json');
    language.problemsByPath.set(file, [problemAt(file, 0, 'End of file expected.')]);
    const client = await httpClient(running);
    clients.push(client);
    const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
    for (const tool of ['problems', 'problems_after_edit', 'definition', 'references', 'hover', 'document_symbols', 'editor_context'])
      assert.ok(names.includes(tool), `${tool} in ${names.join(', ')}`);
    const result = JSON.parse(textOf(await client.callTool({ name: 'problems', arguments: { path: 'a.json' } })));
    assert.deepEqual(result.items, [
      { path: file, line: 1, column: 1, endLine: 1, endColumn: 6, severity: 'error', source: 'fake', message: 'End of file expected.' },
    ]);
    assert.equal(result.total, 1);
  });

  it('problems after an edit: what is new and what was fixed in the files changed this turn, the rest not repeated', async () => {
    const { root, language, running } = await open();
    const file = path.join(root, 'a.json');
    const kept = problemAt(file, 3, 'Property keys must be doublequoted.');
    language.changed = [{ path: file, problemsBefore: [problemAt(file, 0, 'End of file expected.'), kept] }];
    language.problemsByPath.set(file, [kept, problemAt(file, 7, 'Expected comma.')]);
    const client = await httpClient(running);
    clients.push(client);
    const result = JSON.parse(textOf(await client.callTool({ name: 'problems_after_edit', arguments: { quietMs: 0 } })));
    assert.equal(result.files.length, 1);
    const [only] = result.files;
    assert.equal(only.path, file);
    assert.equal(only.total, 2);
    assert.deepEqual(
      only.new.map((problem: { line: number; message: string }) => [problem.line, problem.message]),
      [[8, 'Expected comma.']],
    );
    assert.deepEqual(
      only.fixed.map((problem: { line: number; message: string }) => [problem.line, problem.message]),
      [[1, 'End of file expected.']],
    );
    language.changed = [];
    const none = JSON.parse(textOf(await client.callTool({ name: 'problems_after_edit', arguments: {} })));
    assert.deepEqual(none, { files: [], note: 'No file was changed in this turn.' });
  });

  it('pages large results and cuts long messages, so an answer stays bounded', async () => {
    const { root, language, running } = await open();
    const file = path.join(root, 'a.json');
    language.problemsByPath.set(
      file,
      Array.from({ length: 250 }, (_, index) => problemAt(file, index, index === 0 ? 'x'.repeat(100_000) : `problem ${index}`)),
    );
    const client = await httpClient(running);
    clients.push(client);
    const first = textOf(await client.callTool({ name: 'problems', arguments: { path: file } }));
    const page = JSON.parse(first);
    assert.ok(first.length < 70 * 1024, `answer of ${first.length} chars`);
    assert.equal(page.total, 250);
    assert.equal(page.items.length, 100);
    assert.equal(page.nextCursor, '100');
    assert.ok(page.items[0].message.length < 5_000, 'the long message is cut');
    const last = JSON.parse(textOf(await client.callTool({ name: 'problems', arguments: { path: file, cursor: '200' } })));
    assert.equal(last.items.length, 50);
    assert.equal(last.nextCursor, undefined);
  });

  it('answers a tool whose language service never answers with a clear error within the deadline', async () => {
    const { root, language, running } = await open(HTTP, 300);
    language.hang = true;
    const client = await httpClient(running);
    clients.push(client);
    for (const [name, args] of [
      ['problems', { path: 'a.json' }],
      ['references', { path: path.join(root, 'a.json'), line: 1, column: 1 }],
      ['hover', { path: 'a.json', line: 1, column: 1 }],
      ['editor_context', {}],
    ] as const) {
      const started = Date.now();
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      assert.equal(result.isError, true, name);
      assert.match(textOf(result), /did not answer within 0\.3 s/, name);
      assert.ok(Date.now() - started < 2_000, `${name} answered in ${Date.now() - started} ms`);
    }
  });

  it('leaves out results outside the workspace folders and says how many', async () => {
    const { root, outside, language, running } = await open();
    const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
    language.locationsFound = [
      { path: path.join(root, 'a.json'), range },
      { path: path.join(outside, 'secret.ts'), range },
      { path: path.join(root, 'link-out', 'secret.ts'), range },
    ];
    const client = await httpClient(running);
    clients.push(client);
    const result = JSON.parse(textOf(await client.callTool({ name: 'references', arguments: { path: 'a.json', line: 1, column: 1 } })));
    assert.deepEqual(
      result.items.map((item: { path: string }) => item.path),
      [path.join(root, 'a.json')],
    );
    assert.equal(result.outsideWorkspace, 2);
  });

  it('over stdio: the bundled bridge, run with Node, reaches the same tools through the local socket', async () => {
    const { root, language, running } = await open(STDIO);
    assert.equal(running.transport, 'stdio');
    assert.ok('command' in running.wire && running.wire.command === process.execPath);
    const file = path.join(root, 'a.json');
    language.problemsByPath.set(file, [problemAt(file, 0, 'Expected a JSON object.')]);
    const client = await stdioClient(running);
    clients.push(client);
    const result = JSON.parse(textOf(await client.callTool({ name: 'problems', arguments: { path: file } })));
    assert.equal(result.items[0].message, 'Expected a JSON object.');
  });

  it('stops with the agent process: the port and the socket no longer answer', async () => {
    const http = await open();
    const url = 'url' in http.running.wire ? http.running.wire.url : '';
    await http.running.stop();
    await assert.rejects(rawPost(url, {}), /ECONNREFUSED/);
    const stdio = await open(STDIO);
    await stdio.running.stop();
    await assert.rejects(stdioClient(stdio.running));
    fixtures.splice(0);
    rmSync(path.dirname(http.root), { recursive: true, force: true });
    rmSync(path.dirname(stdio.root), { recursive: true, force: true });
  });

  const attacks: readonly (AttackCase & { run: () => Promise<void> })[] = [
    {
      attack: 'another local process calls the HTTP server without the token',
      driven: 'a raw POST tools/list to the URL with no Authorization header',
      sees: 'nothing: 401, no tool runs',
      run: async () => {
        const { running } = await open();
        const url = 'url' in running.wire ? running.wire.url : '';
        assert.equal(await rawPost(url, {}), 401);
      },
    },
    {
      attack: 'a caller guesses a token',
      driven: 'the MCP SDK client with a wrong bearer token, and a raw POST with the right token in another scheme',
      sees: 'nothing: the connection is refused (401)',
      run: async () => {
        const { running } = await open();
        await assert.rejects(httpClient(running, 'A'.repeat(43)), /401|Unauthorized/);
        const url = 'url' in running.wire ? running.wire.url : '';
        const token = running.secrets[0]!;
        assert.equal(await rawPost(url, { Authorization: `Basic ${token}` }), 401);
      },
    },
    {
      attack: 'a web page rebinds a DNS name to 127.0.0.1 (or posts cross-origin) with the token',
      driven: 'a raw POST with the right token but Host evil.example, and one with an Origin header',
      sees: 'nothing: 403',
      run: async () => {
        const { running } = await open();
        const url = 'url' in running.wire ? running.wire.url : '';
        const auth = { Authorization: `Bearer ${running.secrets[0]!}` };
        assert.equal(await rawPost(url, { ...auth, Host: 'evil.example' }), 403);
        assert.equal(await rawPost(url, { ...auth, Origin: 'https://evil.example' }), 403);
      },
    },
    {
      attack: 'a machine on the network reaches the server',
      driven: 'the same port on every non-loopback IPv4 address of this machine',
      sees: 'nothing: the port is bound to 127.0.0.1 only (connection refused)',
      run: async () => {
        const { running } = await open();
        const url = new URL('url' in running.wire ? running.wire.url : '');
        const addresses = Object.values(networkInterfaces())
          .flat()
          .filter((address) => address !== undefined && address.family === 'IPv4' && !address.internal)
          .map((address) => address!.address);
        for (const address of addresses)
          await assert.rejects(
            rawPost(`http://${address}:${url.port}/mcp`, { Authorization: `Bearer ${running.secrets[0]!}` }),
            /ECONNREFUSED/,
          );
      },
    },
    {
      attack: 'the agent asks for a file outside the workspace',
      driven: 'problems, hover and document_symbols on /etc/passwd and on ../outside/secret.ts',
      sees: 'a tool error "Refused: … outside the workspace folders"; the language service is never asked',
      run: async () => {
        const { outside, language, running } = await open();
        const client = await httpClient(running);
        clients.push(client);
        for (const target of ['/etc/passwd', '../outside/secret.ts', path.join(outside, 'secret.ts')])
          for (const [name, extra] of [
            ['problems', {}],
            ['hover', { line: 1, column: 1 }],
            ['document_symbols', {}],
          ] as const) {
            const result = (await client.callTool({ name, arguments: { path: target, ...extra } })) as CallToolResult;
            assert.equal(result.isError, true, `${name} ${target}`);
            assert.match(textOf(result), /Refused: .*outside the workspace folders/);
          }
        assert.deepEqual(language.followed, [], 'nothing was revealed either');
      },
    },
    {
      attack: 'the agent reaches outside through a symlink in the workspace',
      driven: 'problems and definition on <ws>/link-out/secret.ts, where link-out -> a folder outside',
      sees: 'a tool error "Refused: … outside the workspace folders"',
      run: async () => {
        const { root, running } = await open();
        const client = await httpClient(running);
        clients.push(client);
        const target = path.join(root, 'link-out', 'secret.ts');
        for (const [name, extra] of [
          ['problems', {}],
          ['definition', { line: 1, column: 1 }],
        ] as const) {
          const result = (await client.callTool({ name, arguments: { path: target, ...extra } })) as CallToolResult;
          assert.equal(result.isError, true);
          assert.match(textOf(result), /Refused: .*outside the workspace folders/);
        }
      },
    },
    {
      attack: 'a local process connects to the bridge socket without the token',
      driven: 'the bundled bridge run with a wrong ACP_EDITOR_TOOLS_TOKEN',
      sees: 'nothing: the socket is closed before any MCP message is read',
      run: async () => {
        const { running } = await open(STDIO);
        await assert.rejects(stdioClient(running, { ACP_EDITOR_TOOLS_TOKEN: 'wrong' }));
      },
    },
  ];
  for (const row of attacks) it(`attack: ${row.attack}`, row.run);
});
