/** The registry index over real HTTP (loopback): parsing, ETag revalidation, the hourly cache and offline use. */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { RegistryIndexSource } from '../../../../src/agents/registry/registry-index-source';
import { parseRegistryIndex } from '../../../../src/agents/registry/registry-schema';
import { binaryAgentEntry, RegistryFixture } from '../../../support/registry-fixture';

describe('registry index', () => {
  let fixture: RegistryFixture;
  let cacheDir: string;
  let clock: number;
  const source = (): RegistryIndexSource => new RegistryIndexSource({ url: fixture.url('registry.json'), cacheDir, now: () => clock });
  const indexRequests = (): string[] =>
    fixture.requests.filter((request) => request.url === '/registry.json').map((request) => String(request.headers['if-none-match'] ?? ''));

  beforeEach(async () => {
    fixture = await new RegistryFixture().start();
    fixture.index = { version: '1.0.0', agents: [binaryAgentEntry('alpha', '1.0.0', fixture.url('alpha.tar.gz'))], extensions: [] };
    cacheDir = mkdtempSync(path.join(tmpdir(), 'acp-registry-cache-'));
    clock = 1_000_000;
  });
  afterEach(async () => {
    await fixture.stop();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it('fetches the index and keeps unknown fields of an agent', async () => {
    const index = await source().load();
    assert.equal(index.origin, 'network');
    assert.deepEqual(
      index.agents.map((agent) => [agent.id, agent.version, agent.license]),
      [['alpha', '1.0.0', 'MIT']],
    );
    assert.deepEqual(index.agents[0]?.['someFutureField'], { kept: true });
    assert.equal(index.agents[0]?.distribution.binary?.['linux-x86_64']?.cmd, './bin/acp-agent');
  });

  it('answers from the cache within the hour, then revalidates with If-None-Match and keeps it on 304', async () => {
    await source().load();
    clock += 30 * 60 * 1000;
    assert.equal((await source().load()).origin, 'cache');
    assert.equal(indexRequests().length, 1, 'no request within the hour');
    clock += 31 * 60 * 1000;
    const revalidated = await source().load();
    assert.equal(revalidated.origin, 'revalidated');
    assert.deepEqual(
      revalidated.agents.map((agent) => agent.id),
      ['alpha'],
    );
    const [first, second] = indexRequests();
    assert.equal(first, '');
    assert.match(second ?? '', /^"[0-9a-f]{16}"$/);
  });

  it('refreshes on demand and sees a new version', async () => {
    await source().load();
    fixture.index = { version: '1.0.1', agents: [binaryAgentEntry('alpha', '2.0.0', fixture.url('alpha.tar.gz'))] };
    assert.equal((await source().load()).agents[0]?.version, '1.0.0', 'still the cached copy');
    const forced = await source().load(true);
    assert.equal(forced.origin, 'network');
    assert.equal(forced.agents[0]?.version, '2.0.0');
  });

  it('uses the cached copy when offline and says why, and fails clearly with no cache', async () => {
    await source().load();
    const url = fixture.url('registry.json');
    await fixture.stop();
    clock += 2 * 60 * 60 * 1000;
    const offline = await new RegistryIndexSource({ url, cacheDir, now: () => clock }).load();
    assert.equal(offline.origin, 'stale-cache');
    assert.deepEqual(
      offline.agents.map((agent) => agent.id),
      ['alpha'],
    );
    assert.match(offline.offlineReason ?? '', /cannot reach http:\/\/127\.0\.0\.1:\d+\/registry\.json/);
    const empty = mkdtempSync(path.join(tmpdir(), 'acp-registry-cache-'));
    try {
      await assert.rejects(new RegistryIndexSource({ url, cacheDir: empty }).load(), /not available and there is no cached copy/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('drops a malformed agent with the reason, keeps the others, and refuses what it would run unchecked', () => {
    const good = binaryAgentEntry('good', '1.0.0', 'https://example.com/a.tar.gz');
    const index = parseRegistryIndex({
      agents: [
        good,
        { ...binaryAgentEntry('badsum', '1.0.0', 'https://example.com/a.tar.gz', { sha256: 'abc' }) },
        { id: 'opt', name: 'Opt', version: '1.0.0', distribution: { npx: { package: '--registry=evil' } } },
        {
          id: 'ftp',
          name: 'Ftp',
          version: '1.0.0',
          distribution: { binary: { 'linux-x86_64': { archive: 'file:///etc/passwd', cmd: 'x' } } },
        },
        {
          id: 'future',
          name: 'Future',
          version: '1.0.0',
          distribution: { binary: { 'plan9-mips': { archive: 'whatever' } }, uvx: { package: 'future-agent' } },
        },
      ],
    });
    assert.deepEqual(
      index.agents.map((agent) => agent.id),
      ['good', 'future'],
    );
    assert.deepEqual(index.agents[1]?.distribution.binary, {}, 'an unknown platform is ignored, not fatal');
    assert.equal(index.problems.length, 3);
    assert.match(index.problems[0] ?? '', /"badsum".*sha256: must be 64 hex digits/);
    assert.match(index.problems[1] ?? '', /"opt".*must be a package name/);
    assert.match(index.problems[2] ?? '', /"ftp".*must be an http\(s\) URL/);
    assert.throws(() => parseRegistryIndex({ notAnIndex: true }));
  });
});
