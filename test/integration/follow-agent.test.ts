/**
 * Follow the agent in the real VS Code: a scripted agent sends tool calls whose `locations` name a file and line;
 * with `acpClient.followAgent` on, the active editor shows each in turn (in the preview tab, at that line) while
 * the chat stays where the user is; with it off, nothing opens; a location outside the workspace never opens.
 */
import * as assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AcpClientTestApi } from '../../src/api';
import type { AttackCase } from '../support/attack-case';
import { turnEnded, useScriptedAgent, waitFor, workspaceRoot } from './helpers';

const lines = (name: string): string => Array.from({ length: 20 }, (_, index) => `export const ${name}${index} = ${index};`).join('\n');

/**
 * The file of every text editor that became active while `run` ran and `settleMs` after (its selection is set
 * just after the event); done early once `until` says so (the last reveal may land after the turn's end on a loaded
 * machine).
 */
async function activeEditorsDuring(
  run: () => Promise<void>,
  settleMs: number,
  until?: (seen: readonly string[]) => boolean,
): Promise<string[]> {
  const seen: string[] = [];
  const subscription = vscode.window.onDidChangeActiveTextEditor((editor) => {
    if (editor) seen.push(path.basename(editor.document.uri.fsPath));
  });
  try {
    await run();
    const deadline = Date.now() + settleMs;
    while (Date.now() < deadline && !until?.(seen)) await new Promise((resolve) => setTimeout(resolve, 100));
  } finally {
    subscription.dispose();
  }
  return seen;
}

const inSomeTab = (name: string): boolean =>
  vscode.window.tabGroups.all.some((group) =>
    group.tabs.some((tab) => tab.input instanceof vscode.TabInputText && path.basename(tab.input.uri.fsPath) === name),
  );

describe('follow the agent: the editor reveals what a tool call reads or edits', function () {
  this.timeout(120_000);
  let client: AcpClientTestApi;
  const file = (name: string): string => path.join(workspaceRoot(), name);
  const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('acpClient');

  before(async () => {
    for (const name of ['follow-a', 'follow-b', 'follow-c']) writeFileSync(file(`${name}.txt`), lines(name.replace('-', '')));
    client = await useScriptedAgent('follow', { ACP_FOLLOW_PAUSE_MS: '1500' });
  });

  beforeEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('acpClient.chat.focus');
  });

  after(async () => {
    await config().update('followAgent', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await client?.stopAgents();
    for (const name of ['follow-a', 'follow-b', 'follow-c']) rmSync(file(`${name}.txt`), { force: true });
  });

  async function turn(prompt: string): Promise<void> {
    assert.deepEqual(await client.sendPrompt(prompt), { accepted: true });
    await waitFor(client, turnEnded, 60_000);
  }

  it('with acpClient.followAgent on, the active editor follows each tool call to its file and line, in a preview tab', async () => {
    await config().update('followAgent', true, vscode.ConfigurationTarget.Global);
    const seen = await activeEditorsDuring(
      () => turn(`follow ${file('follow-a.txt')}:3 ${file('follow-b.txt')}:12`),
      45_000,
      () =>
        vscode.window.activeTextEditor?.document.uri.fsPath === file('follow-b.txt') &&
        vscode.window.activeTextEditor.selection.start.line === 11,
    );
    assert.deepEqual(
      seen.filter((where) => where.startsWith('follow-')),
      ['follow-a.txt', 'follow-b.txt'],
    );
    const active = vscode.window.activeTextEditor;
    assert.equal(active?.document.uri.fsPath, file('follow-b.txt'));
    assert.equal(active?.selection.start.line, 11);
    assert.ok(
      active?.visibleRanges.some((range) => range.contains(new vscode.Position(11, 0))),
      'line 12 is in view',
    );
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.equal(tab?.isPreview, true, 'shown in the preview tab: the next location replaces it');
    assert.ok(!inSomeTab('follow-a.txt'), 'the first file’s preview was replaced, not left open');
  });

  it('with acpClient.followAgent off (the default), no editor opens', async () => {
    await config().update('followAgent', undefined, vscode.ConfigurationTarget.Global);
    const seen = await activeEditorsDuring(() => turn(`follow ${file('follow-c.txt')}:5`), 3_000);
    assert.deepEqual(seen, []);
    assert.ok(!inSomeTab('follow-c.txt'));
    assert.equal(vscode.window.activeTextEditor, undefined);
  });

  const attacks: readonly (AttackCase & { location: () => string })[] = [
    {
      attack: 'a tool call location names a file outside the workspace',
      driven: 'the scripted agent sends a tool_call whose locations name /etc/hostname, follow on',
      sees: 'no editor opens; the call shows in the chat as any other',
      location: () => '/etc/hostname:1',
    },
    {
      attack: 'a tool call location climbs out of the workspace with ..',
      driven: 'the scripted agent names <workspace>/../<outside file>, follow on',
      sees: 'no editor opens',
      location: () => `${workspaceRoot()}/../../../../../../../etc/hostname:1`,
    },
  ];
  for (const row of attacks)
    it(`attack: ${row.attack}`, async () => {
      await config().update('followAgent', true, vscode.ConfigurationTarget.Global);
      const seen = await activeEditorsDuring(() => turn(`follow ${row.location()}`), 3_000);
      assert.deepEqual(seen, []);
      assert.ok(!inSomeTab('hostname'), 'nothing outside the workspace is in a tab');
    });
});
