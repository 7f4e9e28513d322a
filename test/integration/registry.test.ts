/**
 * "ACP: Add Agent…" in the real VS Code: the picker lists a loopback registry's agent, picking it downloads and
 * installs the build, and the chat starts it and runs a turn. (Pin, update and uninstall are covered by the
 * unit tests of the installer; here the wiring: setting, command, progress, agent list, selection.)
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AttackCase } from '../support/attack-case';
import { LAUNCHER, zipOf } from '../support/hostile-archives';
import { binaryAgentEntry, RegistryFixture, sha256 } from '../support/registry-fixture';
import { scriptedAgentPath } from '../support/repo-root';
import { sleep, textOf, turnEnded, useScriptedAgent, waitFor } from './helpers';
import { entriesOf } from '../../src/shared/selectors';

describe('adding an agent from the ACP registry', function () {
  this.timeout(60_000);
  let fixture: RegistryFixture;

  before(async function () {
    if (process.platform === 'win32') this.skip(); // the fixture agent is a POSIX shell launcher
    fixture = await new RegistryFixture().start();
    const bytes = await fixture.tarGz();
    fixture.index = {
      version: '1.0.0',
      agents: [binaryAgentEntry('fixture', '1.0.0', fixture.serve('fixture.tar.gz', bytes), { sha256: sha256(bytes) })],
    };
    const config = vscode.workspace.getConfiguration('acpClient');
    await config.update('registry.url', fixture.url('registry.json'), vscode.ConfigurationTarget.Global);
    await config.update('agents', {}, vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    const config = vscode.workspace.getConfiguration('acpClient');
    await config.update('registry.url', undefined, vscode.ConfigurationTarget.Global);
    // The installed agent stays in the list: later suites must start the agent they configure, not this one.
    await config.update(
      'agents',
      { Scripted: { command: process.execPath, args: [scriptedAgentPath()], env: { ACP_SCENARIO: 'echo' } } },
      vscode.ConfigurationTarget.Global,
    );
    await vscode.commands.executeCommand('acpClient.selectAgent', 'Scripted');
    await fixture?.stop();
  });

  it("lists the registry agent, installs it on pick and chats with it, though another agent's empty chat was open", async () => {
    // The chat is Ready on another agent, nothing said: the installed agent must take it over, not be ignored.
    const client = await useScriptedAgent('echo');
    await vscode.commands.executeCommand('acpClient.newSession');
    await waitFor(client, (state) => state.agent.phase === 'ready' && state.agent.agentName === 'Scripted');
    const command = Promise.resolve(vscode.commands.executeCommand('acpClient.addAgent'));
    // The picker opens once the index is fetched; its first row is the only agent.
    await sleep(1500);
    assert.ok(
      fixture.requests.some((request) => request.url === '/registry.json'),
      'the index was fetched from acpClient.registry.url',
    );
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await command;
    assert.ok(
      fixture.requests.some((request) => request.url === '/fixture.tar.gz'),
      'the build was downloaded',
    );
    await waitFor(client, (state) => state.agent.phase === 'ready' && state.agent.agentName === 'Fixture fixture');
    assert.deepEqual(await client.sendPrompt('hello installed agent'), { accepted: true });
    const state = await waitFor(
      client,
      (current) =>
        turnEnded(current) &&
        entriesOf(current).some(
          (entry) => entry.kind === 'message' && entry.role === 'agent' && textOf(entry).includes('hello installed agent'),
        ),
    );
    assert.equal(state.agent.phase === 'ready' && state.agent.agentName, 'Fixture fixture');
  });

  const chainRow: AttackCase = {
    attack: 'registry zip with a symlink chain (s -> ../../.., t -> s/../../../canary, then t/x), through ACP: Add Agent',
    driven: 'a loopback registry index set as acpClient.registry.url; the picker row accepted in the real VS Code',
    sees: 'ACP: The archive is unsafe: its link "a/b/c/t -> s/../../../canary" leads outside the install folder; nothing was installed.',
  };
  it(`attack: ${chainRow.attack}`, async () => {
    const bytes = await zipOf([
      { type: 'file', ...LAUNCHER },
      { type: 'symlink', name: 'a/b/c/s', target: '../../..' },
      // On disk s is the unpack folder, so t is the extension's global storage folder's `canary`.
      { type: 'symlink', name: 'a/b/c/t', target: 's/../../../canary' },
      { type: 'file', name: 'a/b/c/t/x', content: 'written through the chain' },
    ]);
    const hostile = binaryAgentEntry('hostile', '6.6.6', fixture.serve('hostile.zip', bytes), { sha256: sha256(bytes) });
    const indexUrl = fixture.serve('hostile-registry.json', Buffer.from(JSON.stringify({ version: '1.0.0', agents: [hostile] })));
    const userData = path.join(path.dirname(process.env['ACP_TEST_WORKSPACE'] ?? ''), 'user-data');
    const storage = path.join(userData, 'User', 'globalStorage', 'acp-client.acp-client');
    const canary = path.join(storage, 'canary');
    mkdirSync(canary, { recursive: true });
    await vscode.workspace.getConfiguration('acpClient').update('registry.url', indexUrl, vscode.ConfigurationTarget.Global);

    void vscode.commands.executeCommand('acpClient.addAgent');
    await waitUntil(() => fixture.requests.some((request) => request.url === '/hostile-registry.json'), 'the index was fetched');
    await sleep(1000);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await waitUntil(() => fixture.requests.some((request) => request.url === '/hostile.zip'), 'the build was downloaded');

    const shown = await waitUntil(
      () => /Installing hostile failed: (.*)/.exec(acpLog(userData))?.[1],
      'the refusal in the ACP log (the error notification shows the same text)',
    );
    assert.equal(
      shown,
      'The archive is unsafe: its link "a/b/c/t -> s/../../../canary" leads outside the install folder; nothing was installed.',
    );
    assert.deepEqual(readdirSync(canary), [], 'nothing written outside the install folder');
    assert.deepEqual(readdirSync(path.join(storage, 'agents', 'hostile')), [], 'no version folder, no .partial-* left');
    const manifest = path.join(storage, 'agents', 'installed.json');
    assert.ok(!existsSync(manifest) || !readFileSync(manifest, 'utf8').includes('"hostile"'), 'not recorded as installed');
    await vscode.commands.executeCommand('notifications.clearAll');
  });
});

/** The newest ACP log of this run: `<user-data>/logs/<session>/exthost*\/acp-client.acp-client/ACP.log`. */
function acpLog(userData: string): string {
  const logs = path.join(userData, 'logs');
  const files = readdirSync(logs).flatMap((session) =>
    readdirSync(path.join(logs, session))
      .filter((host) => host.startsWith('exthost'))
      .map((host) => path.join(logs, session, host, 'acp-client.acp-client', 'ACP.log'))
      .filter((file) => existsSync(file)),
  );
  const newest = files.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  return newest ? readFileSync(newest, 'utf8') : '';
}

async function waitUntil<T>(probe: () => T | undefined | false, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what}`);
    await sleep(200);
  }
}
