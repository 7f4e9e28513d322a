/**
 * A tool call's diff opens in VS Code's diff editor (what the card's "Open diff" button runs; the end-to-end
 * test clicks the button): the agent's old text on the left, its new text on the right, nothing written to disk.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { DIFF_NEW_TEXT, DIFF_OLD_TEXT, NEW_FILE_TEXT, OUTSIDE_DIFF_PATH } from '../fixtures/agents/scenarios/diffs';
import { toolCall, turnEnded, useScriptedAgent, waitFor, workspaceRoot } from './helpers';

/** The active tab once it is a diff editor. */
async function activeDiffTab(): Promise<{ tab: vscode.Tab; input: vscode.TabInputTextDiff }> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    if (tab?.input instanceof vscode.TabInputTextDiff) return { tab, input: tab.input };
    if (Date.now() > deadline) throw new Error(`no diff editor opened; active tab: ${tab?.label ?? 'none'}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const textOfUri = async (uri: vscode.Uri): Promise<string> => (await vscode.workspace.openTextDocument(uri)).getText();

describe('diff editor in VS Code', function () {
  this.timeout(60_000);

  it("opens a tool call's diff side by side: the agent's old text against its new text", async () => {
    const client = await useScriptedAgent('diffs');
    const before = readFileSync(path.join(workspaceRoot(), 'src', 'hello.ts'), 'utf8');
    await client.sendPrompt('propose some edits');
    const state = await waitFor(client, turnEnded);
    const call = toolCall(state, 'diff-1');
    assert.deepEqual(
      call?.content.map((content) => content.type),
      ['content', 'diff', 'diff'],
    );

    await vscode.commands.executeCommand('acpClient.openToolCallDiff', 'diff-1', 1, 0);
    const { tab, input } = await activeDiffTab();
    assert.equal(tab.label, "hello.ts (agent's change)");
    assert.equal(await textOfUri(input.original), DIFF_OLD_TEXT);
    assert.equal(await textOfUri(input.modified), DIFF_NEW_TEXT);
    assert.equal(readFileSync(path.join(workspaceRoot(), 'src', 'hello.ts'), 'utf8'), before, 'opening a diff writes nothing');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('shows a new file against an empty left side', async () => {
    const client = await useScriptedAgent('diffs');
    await client.sendPrompt('propose some edits');
    await waitFor(client, turnEnded);
    await vscode.commands.executeCommand('acpClient.openToolCallDiff', 'diff-1', 2, 0);
    const { tab, input } = await activeDiffTab();
    assert.equal(tab.label, "created.ts (agent's change)");
    assert.equal(await textOfUri(input.original), '');
    assert.equal(await textOfUri(input.modified), NEW_FILE_TEXT);
    assert.equal(existsSync(path.join(workspaceRoot(), 'src', 'created.ts')), false, 'the proposed file was not created');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand('acpClient.openToolCallDiff', 7)), /takes \(toolCallId: string/);
  });

  it('attack: a v2 diff (no new text) of a file outside the workspace asks before showing it', async () => {
    mkdirSync(path.dirname(OUTSIDE_DIFF_PATH), { recursive: true });
    writeFileSync(OUTSIDE_DIFF_PATH, 'a secret outside the workspace\n');
    try {
      const client = await useScriptedAgent('diffs');
      await client.sendPrompt('a change outside');
      await waitFor(client, (s) => turnEnded(s) && toolCall(s, 'diff-outside') !== undefined);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      // The old code showed the file's text at once. Now the modal "Open a file outside the workspace?" asks, which
      // VS Code under test refuses to show (its DialogService rejects): the answer is "no", nothing opens.
      const asked = await Promise.resolve(vscode.commands.executeCommand('acpClient.openToolCallDiff', 'diff-outside', 0, 0)).then(
        () => 'no dialog',
        (error: unknown) => String(error),
      );
      assert.match(asked, /Open a file outside the workspace\?/, 'the user is asked first');
      const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs);
      assert.deepEqual(
        tabs.filter((tab) => tab.input instanceof vscode.TabInputTextDiff).map((tab) => tab.label),
        [],
        'no diff editor shows the file outside',
      );
    } finally {
      rmSync(path.dirname(OUTSIDE_DIFF_PATH), { recursive: true, force: true });
    }
  });
});
