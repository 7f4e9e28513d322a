/**
 * Issue 28: latency of the editor's MCP server on a 20,000-file workspace, called over HTTP by the official MCP
 * SDK's client as an agent would (token, JSON-RPC, workspace confinement of every path, paging, the JSON answer):
 *   1. `problems` of the whole workspace (one diagnostic in every file: 20,000, answered one 100-item page);
 *   2. `references` to a symbol used in 2,000 of the files;
 *   3. the physical limit: a bare loopback HTTP POST answered with a body of the same size (no MCP, no checks);
 *   4. the server's memory: heap and RSS grown by starting it and serving the calls.
 * The language answers come from an in-process stand-in with that many entries: what VS Code's own providers take
 * (tsserver, the JSON server) is theirs, not the server's, and the real-VS-Code test measures them end to end.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startEditorTools } from '../src/editor-tools/editor-tools-server';
import type { ChangedFile, EditorContext, EditorLanguage, Location, Problem, SymbolInfo } from '../src/editor-tools/ports';
import type { Figure } from './webview/figure';

const FILES = Number(process.env['EDITOR_TOOLS_FILES'] ?? 20_000);
const REFERENCING = Math.min(2_000, FILES);
const CALLS = Number(process.env['EDITOR_TOOLS_CALLS'] ?? 200);

/** A workspace of FILES small TypeScript files in 100 folders. */
function generateWorkspace(root: string): string[] {
  const files: string[] = [];
  for (let folder = 0; folder < Math.ceil(FILES / 200); folder++) mkdirSync(path.join(root, `pkg${folder}`));
  for (let index = 0; index < FILES; index++) {
    const file = path.join(root, `pkg${Math.floor(index / 200)}`, `file${index}.ts`);
    writeFileSync(file, `import { shared } from '../pkg0/file0';\nexport const value${index}: number = shared(${index});\n`);
    files.push(file);
  }
  return files;
}

/** Answers as a language service with this workspace would: a problem per file, references from 2,000 files. */
class WorkspaceStandIn implements EditorLanguage {
  private readonly all: Problem[];
  private readonly references: Location[];
  constructor(files: readonly string[]) {
    this.all = files.map((file) => ({
      path: file,
      range: { start: { line: 1, character: 13 }, end: { line: 1, character: 20 } },
      severity: 'warning',
      message: `'value' is declared but never read in ${path.basename(file)}.`,
      source: 'ts',
      code: '6133',
    }));
    this.references = files
      .slice(0, REFERENCING)
      .map((file) => ({ path: file, range: { start: { line: 1, character: 30 }, end: { line: 1, character: 36 } } }));
  }
  problems(file?: string): Promise<readonly Problem[]> {
    return Promise.resolve(file === undefined ? this.all : this.all.filter((problem) => problem.path === file));
  }
  documentSymbols(): Promise<readonly SymbolInfo[]> {
    return Promise.resolve([]);
  }
  workspaceSymbols(): Promise<readonly SymbolInfo[]> {
    return Promise.resolve([]);
  }
  locations(): Promise<readonly Location[]> {
    return Promise.resolve(this.references);
  }
  hover(): Promise<readonly string[]> {
    return Promise.resolve([]);
  }
  callHierarchy(): Promise<readonly []> {
    return Promise.resolve([]);
  }
  context(): Promise<EditorContext> {
    return Promise.resolve({ openEditors: [] });
  }
  diagnosticsSettled(): Promise<void> {
    return Promise.resolve();
  }
  changedFiles(): readonly ChangedFile[] {
    return [];
  }
  follow(): void {}
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

async function timed(call: () => Promise<number>): Promise<{ p50: number; p95: number; bytes: number }> {
  const times: number[] = [];
  let bytes = 0;
  for (let index = 0; index < 5; index++) await call(); // warm-up: JIT, the connection
  for (let index = 0; index < CALLS; index++) {
    const started = performance.now();
    bytes = await call();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), bytes };
}

/** A bare loopback POST answered with `bytes` of JSON: the floor under any local tool call. */
async function bareHttp(bytes: number): Promise<{ p50: number; p95: number }> {
  const body = JSON.stringify({ text: 'x'.repeat(Math.max(0, bytes - 12)) });
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const post = (): Promise<number> =>
    new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/', agent: false }, (res) => {
        let length = 0;
        res.on('data', (chunk: Buffer) => (length += chunk.length));
        res.on('end', () => resolve(length));
      });
      req.on('error', reject);
      req.end('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}');
    });
  try {
    return await timed(post);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

function textLength(result: unknown): number {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  const text = content[0]?.text ?? '';
  if (!text.startsWith('{')) throw new Error(`the tool failed: ${text.slice(0, 200)}`);
  return text.length;
}

export async function runEditorToolsBench(): Promise<Figure[]> {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'acp-editor-tools-bench-')));
  try {
    const files = generateWorkspace(root);
    const language = new WorkspaceStandIn(files);
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const rssBefore = process.memoryUsage().rss;
    const running = await startEditorTools(
      { language, roots: () => [root], bridge: { node: process.execPath, script: () => '' } },
      { http: true, sse: false },
    );
    const wire = running.wire;
    if (!('url' in wire)) throw new Error('the bench expects the HTTP server');
    const client = new Client({ name: 'bench-agent', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(wire.url), {
        requestInit: { headers: { Authorization: wire.headers[0]?.value ?? '' } },
      }),
    );
    try {
      const problems = await timed(async () => textLength(await client.callTool({ name: 'problems', arguments: { scope: 'workspace' } })));
      const target = { path: files[0] ?? '', line: 2, column: 31 };
      const references = await timed(async () => textLength(await client.callTool({ name: 'references', arguments: target })));
      const floor = await bareHttp(Math.max(problems.bytes, references.bytes));
      global.gc?.();
      const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1e6;
      const rssMb = (process.memoryUsage().rss - rssBefore) / 1e6;
      const ms = (value: number): number => Math.round(value * 100) / 100;
      console.log(
        `editor-tools: ${FILES} files, ${CALLS} calls each; problems page ${problems.bytes} B, references page ${references.bytes} B`,
      );
      return [
        {
          name: `editor-tools: problems (workspace, ${FILES} diagnostics) p50`,
          value: ms(problems.p50),
          unit: 'ms',
          target: '< 50',
          ok: problems.p50 < 50,
        },
        {
          name: `editor-tools: problems (workspace, ${FILES} diagnostics) p95`,
          value: ms(problems.p95),
          unit: 'ms',
          target: '< 100',
          ok: problems.p95 < 100,
        },
        {
          name: `editor-tools: references (${REFERENCING} files) p50`,
          value: ms(references.p50),
          unit: 'ms',
          target: '< 50',
          ok: references.p50 < 50,
        },
        {
          name: `editor-tools: references (${REFERENCING} files) p95`,
          value: ms(references.p95),
          unit: 'ms',
          target: '< 100',
          ok: references.p95 < 100,
        },
        {
          name: 'editor-tools: physical limit (bare loopback POST, same answer size) p50',
          value: ms(floor.p50),
          unit: 'ms',
          target: 'reference',
          ok: true,
        },
        {
          name: 'editor-tools: physical limit (bare loopback POST, same answer size) p95',
          value: ms(floor.p95),
          unit: 'ms',
          target: 'reference',
          ok: true,
        },
        {
          name: 'editor-tools: server heap growth (started + calls, after GC)',
          value: Math.round(heapMb * 10) / 10,
          unit: 'MB',
          target: '< 50',
          ok: heapMb < 50,
        },
        { name: 'editor-tools: process RSS growth', value: Math.round(rssMb * 10) / 10, unit: 'MB', target: '< 100', ok: rssMb < 100 },
      ];
    } finally {
      await client.close();
      await running.stop();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
