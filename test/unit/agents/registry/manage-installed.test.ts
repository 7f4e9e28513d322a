/**
 * What the user manages after installing: the manifest survives a restart, installed agents join the settings'
 * agents (settings win on a name clash), updates follow the registry unless pinned, uninstall removes the files;
 * npx/uvx distributions become launch lines, and a missing launcher is named before anything is spawned.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { AgentConfig } from '../../../../src/agents/agent-config';
import { AgentInstaller } from '../../../../src/agents/registry/agent-installer';
import { mergeAgents } from '../../../../src/agents/registry/merge-agents';
import { currentPlatform } from '../../../../src/agents/registry/platform';
import { parseRegistryIndex, type RegistryAgent } from '../../../../src/agents/registry/registry-schema';
import { binaryAgentEntry, RegistryFixture, sha256 } from '../../../support/registry-fixture';

const parsed = (entry: Record<string, unknown>): RegistryAgent => {
  const agent = parseRegistryIndex({ agents: [entry] }).agents[0];
  assert.ok(agent);
  return agent;
};
const packageAgent = (id: string, distribution: Record<string, unknown>): RegistryAgent =>
  parsed({ id, name: `Pkg ${id}`, version: '0.3.0', description: 'd', distribution });

describe('managing installed registry agents', function () {
  this.timeout(20_000);
  let fixture: RegistryFixture;
  let storage: string;
  let bin: string;
  /** A PATH holding only fake `npx`/`uvx` launchers the test chooses, so the result never depends on the machine. */
  const withLaunchers = (...names: string[]): NodeJS.ProcessEnv => {
    for (const name of names) writeFileSync(path.join(bin, name), '#!/bin/sh\n', { mode: 0o755 });
    return { PATH: bin };
  };

  beforeEach(async () => {
    fixture = await new RegistryFixture().start();
    storage = mkdtempSync(path.join(tmpdir(), 'acp-registry-storage-'));
    bin = path.join(storage, 'fake-bin');
    mkdirSync(bin);
  });
  afterEach(async () => {
    await fixture.stop();
    rmSync(storage, { recursive: true, force: true });
  });

  it('updates to the registry version and removes the old files; a pinned agent stays; uninstall removes everything', async function () {
    if (!currentPlatform()?.match(/^(linux|darwin)-/)) this.skip();
    const bytes = await fixture.tarGz();
    const url = fixture.serve('agent.tar.gz', bytes);
    const installer = new AgentInstaller({ storageDir: storage, platform: currentPlatform() });
    // The loopback registry serves http: as a registry the user set themselves may.
    const first = await installer.install(parsed(binaryAgentEntry('fixture', '1.0.0', url, { sha256: sha256(bytes) })), {
      allowInsecure: true,
    });

    const reloaded = new AgentInstaller({ storageDir: storage, platform: currentPlatform() });
    assert.equal(await reloaded.load(), undefined);
    assert.deepEqual(reloaded.installed, installer.installed, 'the manifest survives a restart');

    const pinned = await reloaded.setPinned('fixture', true);
    assert.equal(pinned.pinned, true);
    const newer = parsed(binaryAgentEntry('fixture', '1.1.0', url, { sha256: sha256(bytes) }));
    await assert.rejects(reloaded.update(newer), /Fixture fixture is pinned to 1\.0\.0; unpin it to update\./);
    assert.ok(existsSync(first.command));

    await reloaded.setPinned('fixture', false);
    const updated = await reloaded.update(newer, { allowInsecure: true });
    assert.equal(updated.version, '1.1.0');
    assert.ok(existsSync(updated.command));
    assert.equal(existsSync(first.folder!), false, 'the old version folder is gone');

    await reloaded.uninstall('fixture');
    assert.deepEqual(reloaded.installed, []);
    assert.equal(existsSync(path.join(storage, 'agents', 'fixture')), false);
    const again = new AgentInstaller({ storageDir: storage, platform: currentPlatform() });
    await again.load();
    assert.deepEqual(again.installed, []);
  });

  it('turns npx and uvx distributions into launch lines with their env', async () => {
    const installer = new AgentInstaller({ storageDir: storage, platform: 'linux-x86_64', env: withLaunchers('npx', 'uvx') });
    const npx = await installer.install(
      packageAgent('n', { npx: { package: '@scope/agent@1.2.3', args: ['--acp'], env: { MODE: 'acp' } }, uvx: { package: 'py-agent' } }),
    );
    assert.deepEqual([npx.kind, npx.command, npx.args, npx.env], ['npx', 'npx', ['-y', '@scope/agent@1.2.3', '--acp'], { MODE: 'acp' }]);
    const withCmd = await installer.install(packageAgent('c', { npx: { package: 'multi-tool', cmd: 'multi-acp' } }));
    assert.deepEqual(withCmd.args, ['-y', '--package', 'multi-tool', 'multi-acp']);
    const uvx = await installer.install(packageAgent('u', { uvx: { package: 'py-agent==0.3.0', args: ['acp'] } }));
    assert.deepEqual([uvx.command, uvx.args], ['uvx', ['py-agent==0.3.0', 'acp']]);
    const uvxCmd = await installer.install(packageAgent('v', { uvx: { package: 'py-tools', cmd: 'py-acp' } }));
    assert.deepEqual(uvxCmd.args, ['--from', 'py-tools', 'py-acp']);
    assert.deepEqual(
      installer.agentConfigs().map((agent) => agent.name),
      ['Pkg n', 'Pkg c', 'Pkg u', 'Pkg v'],
    );
  });

  it('falls back to uvx when npx is missing, and says what to install when neither is there', async () => {
    const onlyUv = new AgentInstaller({ storageDir: storage, platform: 'linux-x86_64', env: withLaunchers('uvx') });
    const both = packageAgent('b', { npx: { package: 'js-agent' }, uvx: { package: 'py-agent' } });
    assert.equal((await onlyUv.install(both)).kind, 'uvx');
    const none = new AgentInstaller({ storageDir: storage, platform: 'linux-x86_64', env: { PATH: path.join(storage, 'empty') } });
    await assert.rejects(
      none.install(packageAgent('n', { npx: { package: 'js-agent' } })),
      /runs through npx, which is not on PATH: install Node\.js/,
    );
    await assert.rejects(
      none.install(packageAgent('u', { uvx: { package: 'py-agent' } })),
      /runs through uvx, which is not on PATH: install uv/,
    );
  });

  it('keeps what another window installed meanwhile (both share the global storage)', async () => {
    const env = withLaunchers('npx');
    const first = new AgentInstaller({ storageDir: storage, platform: 'linux-x86_64', env });
    const second = new AgentInstaller({ storageDir: storage, platform: 'linux-x86_64', env });
    await first.load();
    await second.load();
    await first.install(packageAgent('a', { npx: { package: 'agent-a' } }));
    await second.install(packageAgent('b', { npx: { package: 'agent-b' } }));
    const after = new AgentInstaller({ storageDir: storage, platform: 'linux-x86_64' });
    await after.load();
    assert.deepEqual(
      after.installed.map((entry) => entry.id),
      ['a', 'b'],
    );
  });

  it('reads a broken manifest as nothing installed and says why', async () => {
    mkdirSync(path.join(storage, 'agents'));
    writeFileSync(path.join(storage, 'agents', 'installed.json'), '{"agents": [{"id": 1}]}');
    const installer = new AgentInstaller({ storageDir: storage, platform: 'linux-x86_64' });
    assert.match((await installer.load()) ?? '', /installed\.json is not a valid list of installed agents/);
    assert.deepEqual(installer.installed, []);
  });

  it('lists settings and installed agents together; a settings entry of the same name wins', () => {
    const agent = (name: string, command: string): AgentConfig => ({ name, command, args: [], env: {} });
    const merged = mergeAgents(
      [agent('Mine', 'my-agent'), agent('Gemini CLI', 'gemini')],
      [agent('Gemini CLI', 'npx'), agent('Codex', '/store/codex')],
    );
    assert.deepEqual(
      merged.map((entry) => `${entry.name}=${entry.command}`),
      ['Mine=my-agent', 'Gemini CLI=gemini', 'Codex=/store/codex'],
    );
  });
});
