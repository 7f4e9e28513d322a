import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AcpClientTestApi } from '../../src/api';

describe('activation', () => {
  it('activates and registers the commands', async () => {
    const extension = vscode.extensions.getExtension('acp-client.acp-client');
    assert.ok(extension, 'the extension is installed');
    await extension.activate();
    assert.equal(extension.isActive, true);
    const commands = await vscode.commands.getCommands(true);
    for (const id of [
      'acpClient.newSession',
      'acpClient.cancelTurn',
      'acpClient.selectAgent',
      'acpClient.showLog',
      'acpClient.addAgent',
      'acpClient.manageAgents',
    ]) {
      assert.ok(commands.includes(id), `${id} is registered`);
    }
  });

  it('resolves the chat view: its webview loads and asks the host for the transcript', async () => {
    const extension = vscode.extensions.getExtension<AcpClientTestApi>('acp-client.acp-client');
    assert.ok(extension);
    const api = await extension.activate();
    await vscode.commands.executeCommand('acpClient.chat.focus');
    // The webview posts `ready` from its own script, so this proves the HTML, CSP and bundle all loaded.
    const ready = await Promise.race([
      api.chatViewReady().then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), 30_000)),
    ]);
    assert.equal(ready, true, 'the chat webview reported ready');
  });
});
