/**
 * Installing binary-distribution agents from a loopback registry, then running the installed agent through the
 * real host path; and every way an install must refuse, leaving nothing behind.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { AgentInstaller } from '../../../../src/agents/registry/agent-installer';
import { attemptInstall } from '../../../../src/agents/registry/install-attempt';
import { currentPlatform } from '../../../../src/agents/registry/platform';
import { parseRegistryIndex, type RegistryAgent } from '../../../../src/agents/registry/registry-schema';
import type { DownloadProgress } from '../../../../src/agents/registry/download';
import { entriesOf } from '../../../../src/shared/selectors';
import type { TranscriptState } from '../../../../src/shared/model';
import { HarnessSuite } from '../../../support/harness-suite';
import { tarGzOf, zipOf } from '../../../support/hostile-archives';
import { binaryAgentEntry, RegistryFixture, sha256 } from '../../../support/registry-fixture';

const agentText = (state: TranscriptState): string =>
  entriesOf(state)
    .filter((entry) => entry.kind === 'message' && entry.role === 'agent')
    .map((entry) => (entry.kind === 'message' ? entry.content.map((block) => (block.type === 'text' ? block.text : '')).join('') : ''))
    .join('');

describe('installing binary agents from the registry', function () {
  this.timeout(30_000);
  const suite = new HarnessSuite('acp-registry-ws-');
  let fixture: RegistryFixture;
  let storage: string;
  let installer: AgentInstaller;

  const registryAgent = (entry: Record<string, unknown>): RegistryAgent => {
    const agent = parseRegistryIndex({ agents: [entry] }).agents[0];
    assert.ok(agent, 'the fixture entry parses');
    return agent;
  };
  const agentFolder = (id: string): string => path.join(storage, 'agents', id);
  /** The loopback registry serves http: as a registry the user set themselves may. */
  const loopback = { allowInsecure: true } as const;

  before(function () {
    if (!currentPlatform()?.match(/^(linux|darwin)-/)) this.skip(); // the fixture agent is a POSIX shell launcher
  });
  beforeEach(async () => {
    fixture = await new RegistryFixture().start();
    storage = mkdtempSync(path.join(tmpdir(), 'acp-registry-storage-'));
    installer = new AgentInstaller({ storageDir: storage, platform: currentPlatform() });
    await installer.load();
  });
  afterEach(async () => {
    await fixture.stop();
    rmSync(storage, { recursive: true, force: true });
  });

  for (const format of ['tar.gz', 'zip'] as const) {
    it(`installs a ${format} build with a verified checksum, and the installed agent runs a prompt turn`, async () => {
      const bytes = format === 'zip' ? await fixture.zip() : await fixture.tarGz();
      const url = fixture.serve(`agent-1.0.0.${format}`, bytes);
      const progress: DownloadProgress[] = [];
      const installed = await installer.install(registryAgent(binaryAgentEntry('fixture', '1.0.0', url, { sha256: sha256(bytes) })), {
        ...loopback,
        onProgress: (step) => progress.push(step),
      });

      assert.equal(installed.kind, 'binary');
      assert.equal(installed.command, path.join(agentFolder('fixture'), '1.0.0', 'bin', 'acp-agent'));
      assert.ok(statSync(installed.command).mode & 0o100, 'cmd is executable although archived without the bit');
      assert.equal(progress.at(-1)?.receivedBytes, bytes.length);
      assert.equal(progress.at(-1)?.totalBytes, bytes.length);

      const [config] = installer.agentConfigs();
      assert.ok(config);
      assert.deepEqual(config.args, ['echo']);
      const harness = suite.start();
      await harness.controller.start(config);
      assert.deepEqual(await harness.controller.sendPrompt('hello from the registry'), { accepted: true });
      const state = await harness.waitFor(
        (current) => current.turn.phase === 'idle' && agentText(current).includes('hello from the registry'),
      );
      assert.match(agentText(state), /^Prompt received:/);
    });
  }

  it('installs a tar.bz2 build', async function () {
    const bytes = await fixture.tarBz2();
    if (!bytes) this.skip(); // no bzip2 on this machine to make the archive
    const installed = await installer.install(
      registryAgent(binaryAgentEntry('bz', '2.1.0', fixture.serve('agent.tbz2', bytes), { sha256: sha256(bytes) })),
      loopback,
    );
    assert.ok(statSync(installed.command).isFile());
    assert.ok(statSync(installed.command).mode & 0o100);
  });

  it('installs a raw binary as the command itself, executable', async () => {
    const bytes = fixture.rawLauncher();
    const installed = await installer.install(
      registryAgent(binaryAgentEntry('raw', '1.0.0', fixture.serve('acp-agent-linux-x64', bytes), { sha256: sha256(bytes) })),
      loopback,
    );
    assert.equal(installed.command, path.join(agentFolder('raw'), '1.0.0', 'bin', 'acp-agent'));
    assert.ok(statSync(installed.command).mode & 0o100);
    assert.equal(statSync(installed.command).size, bytes.length);
  });

  it('refuses a tar.gz with a symlink pointing outside the install folder', async () => {
    const url = fixture.serve('symlink.tar.gz', await fixture.tarGzWithEscapingSymlink());
    await assert.rejects(
      installer.install(registryAgent(binaryAgentEntry('link', '1.0.0', url)), loopback),
      /The archive is unsafe: its link "bin\/escape -> \.\.\/\.\.\/outside" leads outside the install folder/,
    );
    assert.deepEqual(readdirSync(agentFolder('link')), []);
  });

  it('keeps links inside the archive (tar: lib/libfoo.so -> libfoo.so.1 made before its target; zip: cmd is a link)', async () => {
    const launcher = '#!/bin/sh\necho hi\n';
    const tarBytes = tarGzOf([
      { type: 'file', name: 'bin/acp-agent', content: launcher, mode: 0o755 },
      { type: 'symlink', name: 'lib/libfoo.so', target: 'libfoo.so.1' },
      { type: 'file', name: 'lib/libfoo.so.1', content: 'lib' },
      { type: 'hardlink', name: 'lib/libfoo.copy', target: 'lib/libfoo.so.1' },
    ]);
    const fromTar = await installer.install(
      registryAgent(binaryAgentEntry('links', '1.0.0', fixture.serve('links.tar.gz', tarBytes), { sha256: sha256(tarBytes) })),
      loopback,
    );
    const lib = path.join(path.dirname(path.dirname(fromTar.command)), 'lib');
    assert.equal(readlinkSync(path.join(lib, 'libfoo.so')), 'libfoo.so.1');
    assert.equal(readFileSync(path.join(lib, 'libfoo.so'), 'utf8'), 'lib');
    assert.equal(statSync(path.join(lib, 'libfoo.copy')).nlink, 2);

    const zipBytes = await zipOf([
      { type: 'file', name: 'libexec/agent', content: launcher },
      { type: 'symlink', name: 'bin/acp-agent', target: '../libexec/agent' },
    ]);
    const fromZip = await installer.install(
      registryAgent(binaryAgentEntry('zlink', '1.0.0', fixture.serve('links.zip', zipBytes), { sha256: sha256(zipBytes) })),
      loopback,
    );
    assert.ok(statSync(fromZip.command).mode & 0o100, 'the file the cmd link leads to is made executable');
    assert.equal(readFileSync(fromZip.command, 'utf8'), launcher);
  });

  it('refuses an https download that a redirect sends to http', async () => {
    const bytes = await fixture.tarGz();
    const plain = fixture.serve('agent.tar.gz', bytes);
    // What fetch answers after following a redirect from https to http (the loopback server has no TLS).
    const redirected: typeof fetch = async (_input, init) => {
      const response = await fetch(plain, init);
      Object.defineProperty(response, 'url', { value: plain });
      return response;
    };
    const secure = new AgentInstaller({ storageDir: storage, platform: currentPlatform(), fetch: redirected });
    await assert.rejects(
      secure.install(
        registryAgent(binaryAgentEntry('redirect', '1.0.0', 'https://downloads.example/agent.tar.gz', { sha256: sha256(bytes) })),
      ),
      /^Error: ACP installs only over https: https:\/\/downloads\.example\/agent\.tar\.gz redirects to http:\/\/127\.0\.0\.1:\d+\/agent\.tar\.gz, which is plain http, which anyone on the network can replace\./,
    );
    assert.deepEqual(readdirSync(agentFolder('redirect')), []);
  });

  it('refuses a download whose sha256 does not match, keeping nothing', async () => {
    const bytes = await fixture.tarGz();
    const url = fixture.serve('agent.tar.gz', bytes);
    const wrong = sha256(Buffer.from('something else'));
    await assert.rejects(
      installer.install(registryAgent(binaryAgentEntry('tampered', '1.0.0', url, { sha256: wrong })), loopback),
      (error: Error) => {
        assert.match(
          error.message,
          new RegExp(`does not match the registry's checksum \\(expected sha256 ${wrong}, got ${sha256(bytes)}\\); nothing was installed`),
        );
        return true;
      },
    );
    assert.deepEqual(installer.installed, []);
    assert.deepEqual(readdirSync(agentFolder('tampered')), [], 'no version folder, no partial download');
  });

  for (const format of ['zip', 'tar.gz'] as const) {
    it(`refuses a ${format} with a ../ entry as unsafe, writing nothing outside or inside`, async () => {
      const bytes = format === 'zip' ? await fixture.zipWithParentEntry() : await fixture.tarGzWithParentEntry();
      const url = fixture.serve(`escape.${format}`, bytes);
      await assert.rejects(
        installer.install(registryAgent(binaryAgentEntry('slip', '1.0.0', url)), loopback),
        /The archive is unsafe: its entry "\.\.\/escape\.txt" would be written outside the install folder; nothing was installed\./,
      );
      assert.equal(existsSync(path.join(agentFolder('slip'), 'escape.txt')), false);
      assert.equal(existsSync(path.join(storage, 'agents', 'escape.txt')), false);
      assert.deepEqual(readdirSync(agentFolder('slip')), []);
      assert.deepEqual(installer.installed, []);
    });
  }

  it('says which command is missing from an archive', async () => {
    const bytes = await fixture.tarGz();
    const entry = binaryAgentEntry('nocmd', '1.0.0', fixture.serve('agent.tar.gz', bytes));
    const target = { archive: fixture.url('agent.tar.gz'), cmd: './bin/not-there' };
    await assert.rejects(
      installer.install(registryAgent({ ...entry, distribution: { binary: { [currentPlatform()!]: target } } }), loopback),
      /has no "\.\/bin\/not-there", the command the registry says to run/,
    );
    assert.deepEqual(readdirSync(agentFolder('nocmd')), []);
  });

  it('cancels a download in flight, keeping nothing', async () => {
    const bytes = Buffer.alloc(8 * 1024 * 1024, 1);
    const url = fixture.serve('big.tar.gz', bytes);
    const controller = new AbortController();
    const install = installer.install(registryAgent(binaryAgentEntry('big', '1.0.0', url)), {
      ...loopback,
      signal: controller.signal,
      onProgress: (step) => {
        if (step.receivedBytes > 0) controller.abort();
      },
    });
    await assert.rejects(install, /Download cancelled\./);
    assert.deepEqual(readdirSync(agentFolder('big')), []);
    assert.deepEqual(installer.installed, []);
  });

  it('a cancelled install is told apart from a failure by its type, not its wording', async () => {
    const big = fixture.serve('big.tar.gz', Buffer.alloc(8 * 1024 * 1024, 1));
    const controller = new AbortController();
    const cancelled = await attemptInstall(() =>
      installer.install(registryAgent(binaryAgentEntry('big', '1.0.0', big)), {
        ...loopback,
        signal: controller.signal,
        onProgress: (step) => {
          if (step.receivedBytes > 0) controller.abort();
        },
      }),
    );
    assert.deepEqual(cancelled, { kind: 'cancelled' });
    // A real failure whose text happens to say "cancelled" (here the archive's name) is a failure: Retry and the
    // fixes, not "was cancelled".
    const missing = fixture.url('cancelled.tar.gz');
    const failed = await attemptInstall(() => installer.install(registryAgent(binaryAgentEntry('gone', '1.0.0', missing)), loopback));
    assert.equal(failed.kind, 'failed');
    assert.match(failed.kind === 'failed' ? failed.message : '', /cancelled\.tar\.gz: the server answered 404/);
    assert.deepEqual(installer.installed, []);
  });

  it('says there is no build for this machine when the registry has none and no npx/uvx', async () => {
    const entry = binaryAgentEntry('elsewhere', '1.0.0', 'https://example.com/a.zip');
    const other = currentPlatform() === 'linux-x86_64' ? 'windows-x86_64' : 'linux-x86_64';
    const agent = registryAgent({ ...entry, distribution: { binary: { [other]: { archive: 'https://example.com/a.zip', cmd: 'a' } } } });
    await assert.rejects(
      installer.install(agent),
      new RegExp(`has no build for this machine \\(${currentPlatform()}\\); only for ${other}`),
    );
  });
});
