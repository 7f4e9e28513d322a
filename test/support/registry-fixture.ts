/**
 * A loopback ACP registry for tests: builds, at run time, a binary-distribution agent (a launcher script that
 * execs the scripted SDK agent) packed every way the registry allows, plus broken variants, and serves them
 * with an index over HTTP on 127.0.0.1 with ETags. Requests are recorded so tests can see revalidation.
 */
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as tar from 'tar';
import * as yazl from 'yazl';
import { scriptedAgentPath } from './repo-root';

export interface RecordedRequest {
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

export const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

export class RegistryFixture {
  readonly requests: RecordedRequest[] = [];
  /** Served at /registry.json; tests replace it to publish a new version. */
  index: unknown = { version: '1.0.0', agents: [] };
  private readonly files = new Map<string, Buffer>();
  /** Files sent slowly, as a big download over a real network is: bytes per 50 ms. */
  private readonly throttled = new Map<string, number>();
  private readonly work = mkdtempSync(path.join(tmpdir(), 'acp-registry-fixture-'));
  private server: Server | undefined;
  private base = '';

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      this.requests.push({ url: request.url ?? '', headers: request.headers });
      const name = (request.url ?? '/').slice(1);
      const body = name === 'registry.json' ? Buffer.from(JSON.stringify(this.index)) : this.files.get(name);
      if (!body) return void response.writeHead(404).end();
      const etag = `"${sha256(body).slice(0, 16)}"`;
      if (request.headers['if-none-match'] === etag) return void response.writeHead(304, { etag }).end();
      response.writeHead(200, { etag, 'content-length': body.length, 'content-type': 'application/octet-stream' });
      const step = this.throttled.get(name);
      if (step === undefined) return void response.end(body);
      let sent = 0;
      const timer = setInterval(() => {
        response.write(body.subarray(sent, sent + step));
        sent += step;
        if (sent < body.length) return;
        clearInterval(timer);
        response.end();
      }, 50);
      response.on('close', () => clearInterval(timer));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  url(name: string): string {
    return `${this.base}/${name}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
    rmSync(this.work, { recursive: true, force: true });
  }

  /** `bytesPer50ms`: send it slowly (a test that must see the download under way). */
  serve(name: string, bytes: Buffer, bytesPer50ms?: number): string {
    this.files.set(name, bytes);
    if (bytesPer50ms !== undefined) this.throttled.set(name, bytesPer50ms);
    return this.url(name);
  }

  /** The agent as it sits in an archive: `bin/acp-agent`, a shell launcher for the scripted agent. */
  private agentTree(): string {
    const root = path.join(this.work, 'tree');
    mkdirSync(path.join(root, 'bin'), { recursive: true });
    const launcher = path.join(root, 'bin', 'acp-agent');
    writeFileSync(launcher, `#!/bin/sh\nexec '${process.execPath}' '${scriptedAgentPath()}' "$@"\n`);
    // Archived without the executable bit: the installer must set it from `cmd`.
    chmodSync(launcher, 0o644);
    return root;
  }

  /** `paddingBytes`: random (incompressible) bytes beside the agent, for an archive of a real agent's size. */
  async tarGz(paddingBytes = 0): Promise<Buffer> {
    const tree = this.agentTree();
    const padding = path.join(tree, 'bin', 'padding.bin');
    rmSync(padding, { force: true });
    if (paddingBytes > 0) writeFileSync(padding, randomBytes(paddingBytes));
    const file = path.join(this.work, 'agent.tar.gz');
    await tar.c({ gzip: true, cwd: tree, file, portable: true }, ['bin']);
    rmSync(padding, { force: true });
    return readFileSync(file);
  }

  /** bzip2 has no kept JS compressor; the system's bzip2 makes the archive (undefined where there is none). */
  async tarBz2(): Promise<Buffer | undefined> {
    const plain = path.join(this.work, 'agent.tar');
    await tar.c({ cwd: this.agentTree(), file: plain, portable: true }, ['bin']);
    const compressed = spawnSync('bzip2', ['-kf', plain]);
    return compressed.status === 0 ? readFileSync(`${plain}.bz2`) : undefined;
  }

  /** The launcher alone, as a raw-binary download. */
  rawLauncher(): Buffer {
    return readFileSync(path.join(this.agentTree(), 'bin', 'acp-agent'));
  }

  /** A tar.gz holding the agent and a symlink `bin/escape` to a folder outside the archive's root. */
  async tarGzWithEscapingSymlink(): Promise<Buffer> {
    const tree = this.agentTree();
    const link = path.join(tree, 'bin', 'escape');
    rmSync(link, { force: true });
    symlinkSync('../../outside', link);
    const file = path.join(this.work, 'symlink.tar.gz');
    await tar.c({ gzip: true, cwd: tree, file, portable: true }, ['bin']);
    rmSync(link);
    return readFileSync(file);
  }

  zip(): Promise<Buffer> {
    const zip = new yazl.ZipFile();
    zip.addBuffer(readFileSync(path.join(this.agentTree(), 'bin', 'acp-agent')), 'bin/acp-agent', { mode: 0o100644 });
    return zipBytes(zip);
  }

  /** A zip with an entry named `../escape.txt`. yazl refuses to write that name, so a same-length name is patched. */
  async zipWithParentEntry(): Promise<Buffer> {
    const zip = new yazl.ZipFile();
    zip.addBuffer(Buffer.from('#!/bin/sh\n'), 'bin/acp-agent');
    zip.addBuffer(Buffer.from('escaped'), 'xx/escape.txt');
    const bytes = await zipBytes(zip);
    return Buffer.from(bytes.toString('latin1').replaceAll('xx/escape.txt', '../escape.txt'), 'latin1');
  }

  /** A tar.gz whose second entry is `../escape.txt` (node-tar keeps the name as given with preservePaths). */
  async tarGzWithParentEntry(): Promise<Buffer> {
    const tree = this.agentTree();
    writeFileSync(path.join(this.work, 'escape.txt'), 'escaped');
    const file = path.join(this.work, 'escape.tar.gz');
    await tar.c({ gzip: true, cwd: tree, file, preservePaths: true, portable: true }, ['bin', '../escape.txt']);
    return readFileSync(file);
  }
}

function zipBytes(zip: yazl.ZipFile): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
    zip.end();
  });
}

/** A registry entry for the fixture agent with one linux/darwin/windows target per platform key, all alike. */
export function binaryAgentEntry(
  id: string,
  version: string,
  archive: string,
  options: { sha256?: string; args?: string[]; env?: Record<string, string> } = {},
): Record<string, unknown> {
  const target = {
    archive,
    cmd: './bin/acp-agent',
    args: options.args ?? ['echo'],
    ...(options.env ? { env: options.env } : {}),
    ...(options.sha256 ? { sha256: options.sha256 } : {}),
  };
  return {
    id,
    name: `Fixture ${id}`,
    version,
    description: 'A scripted ACP agent',
    license: 'MIT',
    someFutureField: { kept: true },
    distribution: { binary: { 'linux-x86_64': target, 'linux-aarch64': target, 'darwin-aarch64': target, 'darwin-x86_64': target } },
  };
}
