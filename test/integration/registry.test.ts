/**
 * "ACP: Add Agent…" in the real VS Code: the picker lists a loopback registry's agent, picking it downloads and
 * installs the build, and the chat starts it and runs a turn. (Pin, update and uninstall are covered by the
 * unit tests of the installer; here the wiring: setting, command, progress, agent list, selection.)
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
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
});
