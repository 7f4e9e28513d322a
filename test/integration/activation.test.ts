import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

describe('activation', () => {
  it('activates and registers the commands', async () => {
    const extension = vscode.extensions.getExtension('acp-client.acp-client');
    assert.ok(extension, 'the extension is installed');
    await extension.activate();
    assert.equal(extension.isActive, true);
    const commands = await vscode.commands.getCommands(true);
    for (const id of ['acpClient.newSession', 'acpClient.cancelTurn', 'acpClient.selectAgent', 'acpClient.showLog']) {
      assert.ok(commands.includes(id), `${id} is registered`);
    }
  });

  it('resolves the chat view', async () => {
    await vscode.commands.executeCommand('acpClient.chat.focus');
  });
});
