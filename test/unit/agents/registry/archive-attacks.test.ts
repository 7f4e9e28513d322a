/**
 * The registry install's attack rows: hostile archives (symlink chains, hard links, absolute and `..` names, bombs)
 * and hostile downloads (wrong or missing checksum, `http:`), each served by a loopback registry and installed
 * through the real installer. Every refusal row asserts that nothing outside the agent's folder changed (a canary
 * folder beside the storage, and the storage itself), that no `.partial-*` folder or download is left, that
 * nothing was recorded as installed, and the message the user is shown.
 */
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { AgentInstaller, type InstallOptions } from '../../../../src/agents/registry/agent-installer';
import type { ExtractionLimits } from '../../../../src/agents/registry/extraction-limits';
import { currentPlatform } from '../../../../src/agents/registry/platform';
import { parseRegistryIndex, type RegistryAgent } from '../../../../src/agents/registry/registry-schema';
import type { AttackCase } from '../../../support/attack-case';
import { bzip2Of, LAUNCHER, tarGzOf, tarOf, zipOf, type TarEntry } from '../../../support/hostile-archives';
import { binaryAgentEntry, RegistryFixture, sha256 } from '../../../support/registry-fixture';

interface AttackContext {
  readonly fixture: RegistryFixture;
  readonly installer: AgentInstaller;
  /** The folder beside the storage that no install may touch. */
  readonly canary: string;
  readonly storage: string;
  readonly agentFolder: string;
}

interface ArchiveAttack extends AttackCase {
  /** The install as it arrives; it must be refused with `refused`. */
  readonly install: (context: AttackContext) => Promise<unknown>;
  readonly refused: RegExp;
  /** Low caps, so a bomb is a few MB. */
  readonly limits?: Partial<ExtractionLimits>;
}

const ID = 'hostile';
const MiB = 1024 * 1024;
/** Every link chain below starts in `a/b/c/`, three folders into the unpack folder `agents/hostile/.partial-…`. */
const DEEP = 'a/b/c';

/** Serves the archive and installs it with its correct checksum (so only the archive itself is on trial). */
async function installArchive(context: AttackContext, name: string, bytes: Buffer, options: InstallOptions = {}): Promise<unknown> {
  const url = context.fixture.serve(name, bytes);
  return context.installer.install(registryAgent(binaryAgentEntry(ID, '1.0.0', url, { sha256: sha256(bytes) })), {
    allowInsecure: true,
    ...options,
  });
}

const registryAgent = (entry: Record<string, unknown>): RegistryAgent => {
  const agent = parseRegistryIndex({ agents: [entry] }).agents[0];
  assert.ok(agent, 'the fixture entry parses');
  return agent;
};

const unsafe = (what: string): RegExp => new RegExp(`^The archive is unsafe: its ${escapeRegExp(what)}; nothing was installed\\.$`);
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const bomb = (bytes: number): Buffer => Buffer.alloc(bytes, 0);

const chainEntries: TarEntry[] = [
  { type: 'file', ...LAUNCHER },
  { type: 'dir', name: `${DEEP}/` },
  // s is the unpack folder itself: inside, as text and on disk.
  { type: 'symlink', name: `${DEEP}/s`, target: '../../..' },
  // As text t is `a/b/c/s/../../../../canary` = `canary` inside; on disk s is three folders up already.
  { type: 'symlink', name: `${DEEP}/t`, target: 's/../../../../canary' },
  { type: 'file', name: `${DEEP}/t/x`, content: 'written through the chain' },
];

export const ARCHIVE_ATTACKS: readonly ArchiveAttack[] = [
  {
    attack: 'zip symlink chain (s -> ../../.., t -> s/../../../../canary, then t/x)',
    driven: 'registry index -> install of a zip (loopback server)',
    sees: 'The archive is unsafe: its link "a/b/c/t -> s/../../../../canary" leads outside the install folder',
    install: async (context) =>
      installArchive(
        context,
        'chain.zip',
        await zipOf([
          { type: 'file', ...LAUNCHER },
          { type: 'symlink', name: `${DEEP}/s`, target: '../../..' },
          { type: 'symlink', name: `${DEEP}/t`, target: 's/../../../../canary' },
          { type: 'file', name: `${DEEP}/t/x`, content: 'written through the chain' },
        ]),
      ),
    refused: unsafe('link "a/b/c/t -> s/../../../../canary" leads outside the install folder'),
  },
  {
    attack: 'tar.gz symlink chain (the same entries as a tar)',
    driven: 'registry index -> install of a tar.gz',
    sees: 'The archive is unsafe: its link "a/b/c/t -> s/../../../../canary" leads outside the install folder',
    install: (context) => installArchive(context, 'chain.tar.gz', tarGzOf(chainEntries)),
    refused: unsafe('link "a/b/c/t -> s/../../../../canary" leads outside the install folder'),
  },
  {
    attack: 'zip link through a name made later (l -> x/../../../../canary, then x -> ../../.., then l/y)',
    driven: 'registry index -> install of a zip',
    sees: 'The archive is unsafe: its link "a/b/c/l -> x/../../../../canary" leads outside the install folder',
    install: async (context) =>
      installArchive(
        context,
        'later.zip',
        await zipOf([
          { type: 'file', ...LAUNCHER },
          { type: 'symlink', name: `${DEEP}/l`, target: 'x/../../../../canary' },
          { type: 'symlink', name: `${DEEP}/x`, target: '../../..' },
          { type: 'file', name: `${DEEP}/l/y`, content: 'written through a link made later' },
        ]),
      ),
    refused: unsafe('link "a/b/c/l -> x/../../../../canary" leads outside the install folder'),
  },
  {
    attack: 'tar entry written through an inside link (lib/cur -> v1, then lib/cur/x)',
    driven: 'registry index -> install of a tar.gz',
    sees: 'The archive is unsafe: its entry "lib/cur/x" would be written through the link "lib/cur"',
    install: (context) =>
      installArchive(
        context,
        'through.tar.gz',
        tarGzOf([
          { type: 'file', ...LAUNCHER },
          { type: 'dir', name: 'lib/v1/' },
          { type: 'symlink', name: 'lib/cur', target: 'v1' },
          { type: 'file', name: 'lib/cur/x', content: 'x' },
        ]),
      ),
    refused: unsafe('entry "lib/cur/x" would be written through the link "lib/cur"'),
  },
  {
    attack: 'tar hard link to a file outside through an inside symlink (s -> ../../.., h => a/b/c/s/../../../../canary/keep.txt)',
    driven: 'registry index -> install of a tar.gz',
    sees: 'The archive is unsafe: its hard link "h => a/b/c/s/../../../../canary/keep.txt" does not name a file inside the install folder',
    install: (context) =>
      installArchive(
        context,
        'hardlink.tar.gz',
        tarGzOf([
          { type: 'file', ...LAUNCHER },
          { type: 'dir', name: `${DEEP}/` },
          { type: 'symlink', name: `${DEEP}/s`, target: '../../..' },
          { type: 'hardlink', name: 'h', target: `${DEEP}/s/../../../../canary/keep.txt` },
          { type: 'file', name: 'h', content: 'overwritten through the hard link' },
        ]),
      ),
    refused: unsafe('hard link "h => a/b/c/s/../../../../canary/keep.txt" does not name a file inside the install folder'),
  },
  {
    attack: 'tar hard link with ../ (h => ../../../canary/keep.txt)',
    driven: 'registry index -> install of a tar',
    sees: 'The archive is unsafe: its hard link "h => ../../../canary/keep.txt" does not name a file inside the install folder',
    install: (context) =>
      installArchive(
        context,
        'hardlink.tar',
        tarOf([
          { type: 'file', ...LAUNCHER },
          { type: 'hardlink', name: 'h', target: '../../../canary/keep.txt' },
        ]),
      ),
    refused: unsafe('hard link "h => ../../../canary/keep.txt" does not name a file inside the install folder'),
  },
  {
    attack: 'tar symlink to an absolute path (bin/out -> /etc)',
    driven: 'registry index -> install of a tar.gz',
    sees: 'The archive is unsafe: its link "bin/out -> /etc" leads outside the install folder',
    install: (context) =>
      installArchive(
        context,
        'abs-link.tar.gz',
        tarGzOf([
          { type: 'file', ...LAUNCHER },
          { type: 'symlink', name: 'bin/out', target: '/etc' },
        ]),
      ),
    refused: unsafe('link "bin/out -> /etc" leads outside the install folder'),
  },
  {
    attack: 'tar entry with an absolute path (into the canary)',
    driven: 'registry index -> install of a tar.gz',
    sees: 'The archive is unsafe: its entry "/…/canary/abs.txt" would be written outside the install folder',
    install: (context) =>
      installArchive(
        context,
        'abs.tar.gz',
        tarGzOf([
          { type: 'file', ...LAUNCHER },
          { type: 'file', name: path.join(context.canary, 'abs.txt'), content: 'abs' },
        ]),
      ),
    refused:
      /^The archive is unsafe: its entry "\/.*\/canary\/abs\.txt" would be written outside the install folder; nothing was installed\.$/,
  },
  {
    attack: 'zip entry with an absolute path (into the canary)',
    driven: 'registry index -> install of a zip (name patched after yazl)',
    sees: 'The archive is unsafe: its entry "/…/canary/abs.txt" would be written outside the install folder',
    install: async (context) => {
      const absolute = path.join(context.canary, 'abs.txt');
      const placeholder = 'q'.repeat(absolute.length);
      return installArchive(
        context,
        'abs.zip',
        await zipOf(
          [
            { type: 'file', ...LAUNCHER },
            { type: 'file', name: placeholder, content: 'abs' },
          ],
          { [placeholder]: absolute },
        ),
      );
    },
    refused:
      /^The archive is unsafe: its entry "\/.*\/canary\/abs\.txt" would be written outside the install folder; nothing was installed\.$/,
  },
  {
    attack: 'tar entry with ../ (../../../canary/up.txt)',
    driven: 'registry index -> install of a tar.gz',
    sees: 'The archive is unsafe: its entry "../../../canary/up.txt" would be written outside the install folder',
    install: (context) =>
      installArchive(
        context,
        'up.tar.gz',
        tarGzOf([
          { type: 'file', ...LAUNCHER },
          { type: 'file', name: '../../../canary/up.txt', content: 'up' },
        ]),
      ),
    refused: unsafe('entry "../../../canary/up.txt" would be written outside the install folder'),
  },
  {
    attack: 'tar entry with backslashes (..\\..\\..\\canary\\bs.txt)',
    driven: 'registry index -> install of a tar.gz',
    sees: 'The archive is unsafe: its entry "..\\..\\..\\canary\\bs.txt" has a name with a backslash, a colon or a NUL',
    install: (context) =>
      installArchive(
        context,
        'bs.tar.gz',
        tarGzOf([
          { type: 'file', ...LAUNCHER },
          { type: 'file', name: '..\\..\\..\\canary\\bs.txt', content: 'bs' },
        ]),
      ),
    refused: unsafe('entry "..\\..\\..\\canary\\bs.txt" has a name with a backslash, a colon or a NUL'),
  },
  {
    attack: 'zip entry with a drive letter (C:/x.txt)',
    driven: 'registry index -> install of a zip (name patched)',
    sees: 'The archive is unsafe: its entry "C:/x.txt" would be written outside the install folder',
    install: async (context) =>
      installArchive(
        context,
        'drive.zip',
        await zipOf(
          [
            { type: 'file', ...LAUNCHER },
            { type: 'file', name: 'CC/x.txt', content: 'c' },
          ],
          { 'CC/x.txt': 'C:/x.txt' },
        ),
      ),
    refused: unsafe('entry "C:/x.txt" would be written outside the install folder'),
  },
  {
    attack: 'zip entry with a NUL in its name',
    driven: 'registry index -> install of a zip (name patched)',
    sees: 'The archive is unsafe: its entry "bin/a<U+0000>b" has a name with a backslash, a colon or a NUL',
    install: async (context) =>
      installArchive(
        context,
        'nul.zip',
        await zipOf(
          [
            { type: 'file', ...LAUNCHER },
            { type: 'file', name: 'bin/aQb', content: 'n' },
          ],
          { 'bin/aQb': 'bin/a\0b' },
        ),
      ),
    refused: unsafe('entry "bin/a<U+0000>b" has a name with a backslash, a colon or a NUL'),
  },
  {
    attack: 'tar with a named pipe',
    driven: 'registry index -> install of a tar.gz',
    sees: 'The archive is unsafe: its entry "bin/pipe" is a device or pipe, which no agent needs',
    install: (context) =>
      installArchive(
        context,
        'fifo.tar.gz',
        tarGzOf([
          { type: 'file', ...LAUNCHER },
          { type: 'fifo', name: 'bin/pipe' },
        ]),
      ),
    refused: unsafe('entry "bin/pipe" is a device or pipe, which no agent needs'),
  },
  {
    attack: 'zip bomb (32 MiB of zeros in one entry, caps 4 MiB and 100x)',
    driven: 'registry index -> install of a zip',
    sees: 'The archive is too big to unpack: it expands more than 100 times; nothing was installed.',
    limits: { maxUnpackedBytes: 4 * MiB, maxRatio: 100, ratioGraceBytes: 1 * MiB },
    install: async (context) =>
      installArchive(
        context,
        'bomb.zip',
        await zipOf([
          { type: 'file', ...LAUNCHER },
          { type: 'file', name: 'bin/zeros', content: bomb(32 * MiB) },
        ]),
      ),
    refused: /^The archive is too big to unpack: it expands more than 100 times; nothing was installed\.$/,
  },
  {
    attack: 'gzip bomb (a tar.gz of 32 MiB of zeros, caps 4 MiB and 100x)',
    driven: 'registry index -> install of a tar.gz',
    sees: 'The archive is too big to unpack: it expands more than 100 times; nothing was installed.',
    limits: { maxUnpackedBytes: 4 * MiB, maxRatio: 100, ratioGraceBytes: 1 * MiB },
    install: (context) =>
      installArchive(
        context,
        'bomb.tar.gz',
        tarGzOf([
          { type: 'file', ...LAUNCHER },
          { type: 'file', name: 'bin/zeros', content: bomb(32 * MiB) },
        ]),
      ),
    refused: /^The archive is too big to unpack: it expands more than 100 times; nothing was installed\.$/,
  },
  {
    attack: 'bzip2 bomb (a tar.bz2 of 32 MiB of zeros, caps 4 MiB and 100x)',
    driven: 'registry index -> install of a tar.bz2',
    sees: 'The archive is too big to unpack: it expands more than 100 times; nothing was installed.',
    limits: { maxUnpackedBytes: 4 * MiB, maxRatio: 100, ratioGraceBytes: 1 * MiB },
    install: (context) => {
      const bytes = bzip2Of(
        tarOf([
          { type: 'file', ...LAUNCHER },
          { type: 'file', name: 'bin/zeros', content: bomb(32 * MiB) },
        ]),
      );
      if (!bytes) return Promise.reject(new Error('skip: no bzip2 here'));
      return installArchive(context, 'bomb.tar.bz2', bytes);
    },
    refused: /^The archive is too big to unpack: it expands more than 100 times; nothing was installed\.$/,
  },
  {
    attack: 'archive larger than the unpacked-size cap (3 MiB of random bytes, cap 1 MiB)',
    driven: 'registry index -> install of a tar.gz',
    sees: 'The archive is too big to unpack: more than 1 MiB unpacked; nothing was installed.',
    limits: { maxUnpackedBytes: 1 * MiB },
    install: (context) =>
      installArchive(
        context,
        'big.tar.gz',
        tarGzOf([
          { type: 'file', ...LAUNCHER },
          { type: 'file', name: 'bin/data', content: pseudoRandom(3 * MiB) },
        ]),
      ),
    refused: /^The archive is too big to unpack: more than 1 MiB unpacked; nothing was installed\.$/,
  },
  {
    attack: 'archive with too many entries (40 files, cap 10)',
    driven: 'registry index -> install of a zip',
    sees: 'The archive is too big to unpack: more than 10 entries; nothing was installed.',
    limits: { maxEntries: 10 },
    install: async (context) =>
      installArchive(
        context,
        'many.zip',
        await zipOf([
          { type: 'file', ...LAUNCHER },
          ...Array.from({ length: 40 }, (_, index) => ({ type: 'file' as const, name: `many/${index}`, content: 'x' })),
        ]),
      ),
    refused: /^The archive is too big to unpack: more than 10 entries; nothing was installed\.$/,
  },
  {
    attack: 'download whose sha256 does not match',
    driven: 'registry index -> install (loopback server)',
    sees: "The download of … does not match the registry's checksum (expected …, got …); nothing was installed.",
    install: async (context) => {
      const bytes = tarGzOf([{ type: 'file', ...LAUNCHER }]);
      const url = context.fixture.serve('tampered.tar.gz', bytes);
      const wrong = sha256(Buffer.from('another build'));
      return context.installer.install(registryAgent(binaryAgentEntry(ID, '1.0.0', url, { sha256: wrong })), { allowInsecure: true });
    },
    refused:
      /^The download of http:\/\/127\.0\.0\.1:\d+\/tampered\.tar\.gz does not match the registry's checksum \(expected sha256 [0-9a-f]{64}, got [0-9a-f]{64}\); nothing was installed\.$/,
  },
  {
    attack: 'http: archive URL from a registry the user did not set',
    driven: 'registry index -> install without allowInsecure',
    sees: 'ACP installs only over https: … is plain http, which anyone on the network can replace',
    install: (context) => {
      const bytes = tarGzOf([{ type: 'file', ...LAUNCHER }]);
      const url = context.fixture.serve('plain.tar.gz', bytes);
      return context.installer.install(registryAgent(binaryAgentEntry(ID, '1.0.0', url, { sha256: sha256(bytes) })));
    },
    refused:
      /^ACP installs only over https: http:\/\/127\.0\.0\.1:\d+\/plain\.tar\.gz is plain http, which anyone on the network can replace\. Only a registry you set yourself \(acpClient\.registry\.url\) may use http; nothing was installed\.$/,
  },
  {
    attack: 'install folder of the agent is a symlink to a folder outside',
    driven: 'storage/agents/hostile -> the canary, then install',
    sees: 'ACP will not install into … : it is a symbolic link, not a folder; nothing was installed.',
    install: (context) => {
      mkdirSync(path.dirname(context.agentFolder), { recursive: true });
      symlinkSync(context.canary, context.agentFolder);
      return installArchive(context, 'plain.tar.gz', tarGzOf([{ type: 'file', ...LAUNCHER }]));
    },
    refused: /^ACP will not install into .*\/agents\/hostile: it is a symbolic link, not a folder; nothing was installed\.$/,
  },
];

/** Bytes gzip cannot shrink, made without randomness so a failing row can be re-run as it was. */
function pseudoRandom(length: number): Buffer {
  const out = Buffer.alloc(length);
  let block = createHash('sha256').update('seed').digest();
  for (let offset = 0; offset < length; offset += block.length) {
    block.copy(out, offset);
    block = createHash('sha256').update(block).digest();
  }
  return out;
}

/** Everything under `root` (but `skip`) as one comparable list: kind, link target, size, content hash, links. */
function snapshot(root: string, skip: string): string[] {
  const lines: string[] = [];
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder).sort()) {
      const file = path.join(folder, name);
      if (file === skip) continue;
      const stat = lstatSync(file);
      const relative = path.relative(root, file);
      if (stat.isSymbolicLink()) lines.push(`${relative} -> ${readlinkSync(file)}`);
      else if (stat.isDirectory()) {
        lines.push(`${relative}/ ${(stat.mode & 0o777).toString(8)}`);
        walk(file);
      } else
        lines.push(
          `${relative} ${(stat.mode & 0o777).toString(8)} nlink=${stat.nlink} ${createHash('sha256').update(readFileSync(file)).digest('hex')}`,
        );
    }
  };
  walk(root);
  return lines;
}

describe('attacks on the registry install (archives and downloads)', function () {
  this.timeout(60_000);
  let work: string;
  let context: AttackContext;

  before(function () {
    if (!currentPlatform()?.match(/^(linux|darwin)-/)) this.skip(); // symlinks and modes as POSIX has them
  });

  const setUp = async (limits: Partial<ExtractionLimits> | undefined): Promise<void> => {
    work = mkdtempSync(path.join(tmpdir(), 'acp-archive-attacks-'));
    const storage = path.join(work, 'storage');
    const canary = path.join(work, 'canary');
    mkdirSync(storage);
    mkdirSync(canary);
    writeFileSync(path.join(canary, 'keep.txt'), 'the user file');
    const installer = new AgentInstaller({ storageDir: storage, platform: currentPlatform(), ...(limits ? { limits } : {}) });
    await installer.load();
    const fixture = await new RegistryFixture().start();
    context = { fixture, installer, canary, storage, agentFolder: path.join(storage, 'agents', ID) };
  };
  afterEach(async () => {
    await context?.fixture.stop();
    rmSync(work, { recursive: true, force: true });
  });

  for (const row of ARCHIVE_ATTACKS) {
    it(`attack: ${row.attack}`, async function () {
      await setUp(row.limits);
      const agentsRoot = path.dirname(context.agentFolder);
      const before = snapshot(work, agentsRoot);
      let message = '';
      await assert.rejects(row.install(context), (error: Error) => ((message = error.message), true));
      if (message.startsWith('skip:')) this.skip();
      assert.match(message, row.refused);
      assert.deepEqual(snapshot(work, agentsRoot), before, 'nothing outside the agents folder changed');
      assert.deepEqual(readdirSync(context.canary), ['keep.txt']);
      assert.deepEqual(existsSync(agentsRoot) ? readdirSync(agentsRoot) : [], existsSync(agentsRoot) ? [ID] : [], 'no manifest');
      if (existsSync(context.agentFolder) && !lstatSync(context.agentFolder).isSymbolicLink())
        assert.deepEqual(readdirSync(context.agentFolder), [], 'no version folder, no .partial-* folder or download');
      assert.deepEqual(context.installer.installed, [], 'nothing recorded as installed');
    });
  }

  it('attack: archive without a sha256 (as the official registry publishes them) installs over https only, with a warning', async () => {
    await setUp(undefined);
    const bytes = tarGzOf([{ type: 'file', ...LAUNCHER }]);
    const url = context.fixture.serve('unchecked.tar.gz', bytes);
    const warnings: string[] = [];
    const installed = await context.installer.install(registryAgent(binaryAgentEntry(ID, '1.0.0', url)), {
      allowInsecure: true,
      onWarning: (text) => warnings.push(text),
    });
    assert.equal(installed.version, '1.0.0');
    assert.deepEqual(warnings, [
      `The registry gives no sha256 for ${url}: it was installed without a checksum, trusting the server 127.0.0.1 alone.`,
    ]);
  });

  it('attack: entries archived world-writable and set-id install writable by their owner alone', async () => {
    await setUp(undefined);
    const bytes = tarGzOf([
      { type: 'dir', name: 'bin/', mode: 0o777 },
      { type: 'file', ...LAUNCHER, mode: 0o6777 },
      { type: 'file', name: 'lib/data.txt', content: 'data', mode: 0o666 },
    ]);
    const url = context.fixture.serve('writable.tar.gz', bytes);
    const installed = await context.installer.install(registryAgent(binaryAgentEntry(ID, '1.0.0', url, { sha256: sha256(bytes) })), {
      allowInsecure: true,
    });
    const modeOf = (file: string): string => (lstatSync(file).mode & 0o7777).toString(8);
    const version = path.join(context.agentFolder, '1.0.0');
    assert.equal(modeOf(path.join(version, 'bin', 'acp-agent')), '755', 'executable, not set-id, not writable by others');
    assert.equal(modeOf(path.join(version, 'lib', 'data.txt')), '644');
    assert.equal(modeOf(path.join(version, 'bin')), '755');
    assert.equal(installed.version, '1.0.0');
  });

  it('attack: stale .partial-* folders and downloads left by a crash are removed at start-up', async () => {
    await setUp(undefined);
    const agentFolder = path.join(context.storage, 'agents', 'crashed');
    const dead = path.join(agentFolder, '.partial-1.0.0-999999999-0a0b0c0d');
    mkdirSync(path.join(dead, 'bin'), { recursive: true });
    writeFileSync(path.join(dead, 'bin', 'half'), 'half');
    writeFileSync(`${dead}.download`, 'half a download');
    // Another window's install under way (a live pid, fresh): kept.
    const live = path.join(agentFolder, `.partial-2.0.0-${process.ppid}-01020304`);
    mkdirSync(live);
    // A live pid can be a reused one: a day-old partial goes whatever its pid.
    const old = path.join(agentFolder, `.partial-0.9.0-${process.ppid}-05060708`);
    mkdirSync(old);
    const dayAgo = new Date(Date.now() - 25 * 3600 * 1000);
    utimesSync(old, dayAgo, dayAgo);
    const restarted = new AgentInstaller({ storageDir: context.storage, platform: currentPlatform() });
    await restarted.load();
    assert.deepEqual(readdirSync(agentFolder), [path.basename(live)]);
  });
});
