/**
 * Issue 29 with an agent that writes on disk itself (the scripted `changes` scenario: one file through
 * fs/write_text_file, then an edit, a deletion, a rename and a binary file made directly on disk): the conversation
 * review counts every file, and Undo of all puts each back as it was.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChangeSetEntry, TranscriptState } from '../../src/shared/model';
import { entriesOf } from '../../src/shared/selectors';
import { sleep, turnEnded, useScriptedAgent, waitFor, workspaceRoot } from './helpers';

describe('the conversation review with an agent that writes on disk', function () {
  this.timeout(120_000);
  const dir = (): string => path.join(workspaceRoot(), 'review');
  const file = (name: string): string => path.join(dir(), name);
  const originals: Record<string, string> = { 'edit-me.txt': 'first line\n', 'delete-me.txt': 'doomed\n', 'old-name.txt': 'moving\n' };

  before(async () => {
    rmSync(dir(), { recursive: true, force: true });
    mkdirSync(dir(), { recursive: true });
    for (const [name, text] of Object.entries(originals)) writeFileSync(file(name), text);
    // The tracker's baseline learns the files before the turn (see changes.test.ts).
    for (const name of Object.keys(originals)) await vscode.workspace.openTextDocument(file(name));
    await sleep(3000);
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(dir(), { recursive: true, force: true });
  });

  it('lists the files written on disk and through the client, and Undo of all restores them', async () => {
    const client = await useScriptedAgent('changes');
    assert.deepEqual(await client.sendPrompt('change things'), { accepted: true });
    // Five entries: the rename's deletion of the old name is folded into the new name. On a loaded machine the
    // watcher reports some of the agent's disk writes after the card is out: the card grows by them.
    const cardFiles = (s: TranscriptState): number =>
      entriesOf(s).find((e): e is ChangeSetEntry => e.kind === 'changes')?.files.length ?? 0;
    await waitFor(client, (s) => turnEnded(s) && cardFiles(s) === 5, 60_000);
    assert.equal(await vscode.commands.executeCommand<number>('acpClient.reviewConversation'), 5);
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label));
    assert.ok(
      tabs.some((label) => label.includes('Conversation changes (5 files)')),
      `the multi-file diff is open: ${tabs.join(', ')}`,
    );
    const undone = await vscode.commands.executeCommand<{ kind: string }>('acpClient.undoConversationChanges');
    assert.equal(undone?.kind, 'applied');
    for (const [name, text] of Object.entries(originals)) assert.equal(readFileSync(file(name), 'utf8'), text, `${name} is back`);
    for (const name of ['client.txt', 'new-name.txt', 'image.bin']) assert.equal(existsSync(file(name)), false, `${name} is gone`);
    await client.stopAgents();
  });
});
