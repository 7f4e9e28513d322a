/**
 * Issue 13 in a real VS Code: every file a turn changes, whoever wrote it (the client's fs/write_text_file or the
 * agent on disk: an edit, a deletion, a rename, a binary file), shows in the turn's change card; Review opens the
 * multi-file diff editor, Undo restores per file and per turn through the editor; review before write holds a write
 * until the user accepts it, and a rejection reaches the agent as an error.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AcpClientTestApi } from '../../src/api';
import type { ChangeSetEntry, TranscriptState } from '../../src/shared/model';
import { entriesOf } from '../../src/shared/selectors';
import { sleep, textOf, toolCall, turnEnded, useScriptedAgent, waitFor, workspaceRoot } from './helpers';

const changeSets = (state: TranscriptState): ChangeSetEntry[] => entriesOf(state).filter((e): e is ChangeSetEntry => e.kind === 'changes');
const lastAgentText = (state: TranscriptState): string =>
  textOf(
    entriesOf(state)
      .filter((e) => e.kind === 'message' && e.role === 'agent')
      .pop(),
  );

describe('review of the changes an agent makes', function () {
  this.timeout(90_000);
  const dir = (): string => path.join(workspaceRoot(), 'review');
  const file = (name: string): string => path.join(dir(), name);

  before(async () => {
    rmSync(dir(), { recursive: true, force: true });
    mkdirSync(dir(), { recursive: true });
    writeFileSync(file('edit-me.txt'), 'first line\n');
    writeFileSync(file('delete-me.txt'), 'doomed\n');
    writeFileSync(file('old-name.txt'), 'moving\n');
    // The watcher reports the new files and the tracker reads them into its baseline before the turn. Opening them
    // (clean, in the background) gives the tracker their content at once too, so a slow machine cannot race it.
    for (const name of ['edit-me.txt', 'delete-me.txt', 'old-name.txt']) await vscode.workspace.openTextDocument(file(name));
    await sleep(3000);
  });
  after(async () => {
    await vscode.workspace.getConfiguration('acpClient.review').update('writes', undefined, vscode.ConfigurationTarget.Global);
    rmSync(dir(), { recursive: true, force: true });
  });

  it('captures writes through the client and on disk (edit, delete, rename, binary), reviews and undoes them', async () => {
    const client = await useScriptedAgent('changes');
    assert.deepEqual(await client.sendPrompt('change things'), { accepted: true });
    // On a loaded machine the watcher reports some disk writes after the card is out: the card grows by them.
    const state = await waitFor(client, (s) => turnEnded(s) && changeSets(s)[0]?.files.length === 5, 60_000);
    const set = changeSets(state)[0]!;
    const shown = Object.fromEntries(set.files.map((f) => [path.basename(f.path), f]));
    assert.deepEqual(Object.keys(shown).sort(), ['client.txt', 'delete-me.txt', 'edit-me.txt', 'image.bin', 'new-name.txt']);
    assert.equal(shown['client.txt']?.change, 'created');
    assert.equal(shown['client.txt']?.added, 1);
    assert.equal(shown['client.txt']?.note, undefined, "the agent's reported diff agrees with the disk");
    assert.equal(shown['edit-me.txt']?.change, 'modified');
    assert.deepEqual([shown['edit-me.txt']?.added, shown['edit-me.txt']?.removed], [1, 0]);
    assert.equal(shown['delete-me.txt']?.change, 'deleted');
    assert.equal(shown['new-name.txt']?.change, 'renamed');
    assert.equal(shown['new-name.txt']?.renamedFrom, file('old-name.txt'));
    assert.equal(shown['image.bin']?.change, 'created');
    assert.match(shown['image.bin']?.note ?? '', /Binary/);

    await vscode.commands.executeCommand('acpClient.reviewChanges');
    const labels = async (): Promise<string[]> => {
      for (let i = 0; i < 20; i++) {
        const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs.map((t) => t.label));
        if (tabs.some((label) => /Agent changes/.test(label))) return tabs;
        await sleep(100);
      }
      return vscode.window.tabGroups.all.flatMap((group) => group.tabs.map((t) => t.label));
    };
    const tabs = await labels();
    assert.ok(
      tabs.some((label) => /Agent changes \(5 files\)/.test(label)),
      `the multi-file diff editor shows the turn; tabs: ${tabs.join(', ')}`,
    );
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');

    // The user keeps open the edited file in an editor: Undo goes through the editor, so the document follows.
    // (Opened after the diff editors closed: a model they held may be disposed and replaced meanwhile.)
    await sleep(300);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file('edit-me.txt')));
    const undone = await vscode.commands.executeCommand<{ kind: string }>('acpClient.undoChanges', set.turnId, file('edit-me.txt'));
    assert.equal(undone?.kind, 'applied');
    const document = vscode.window.activeTextEditor?.document;
    assert.equal(document?.getText(), 'first line\n', 'the open editor shows the undo');
    assert.equal(document.isDirty, false, 'and it is saved');
    assert.equal(readFileSync(file('edit-me.txt'), 'utf8'), 'first line\n');
    await waitFor(client, (s) => changeSets(s)[0]?.files.find((f) => f.path === file('edit-me.txt'))?.review === 'undone');

    await vscode.commands.executeCommand('acpClient.keepChanges', set.turnId, file('image.bin'));
    await waitFor(client, (s) => changeSets(s)[0]?.files.find((f) => f.path === file('image.bin'))?.review === 'kept');

    const rest = await vscode.commands.executeCommand<{ kind: string }>('acpClient.undoChanges', set.turnId);
    assert.equal(rest?.kind, 'applied');
    assert.equal(existsSync(file('client.txt')), false, 'a file the agent created is deleted');
    assert.equal(readFileSync(file('delete-me.txt'), 'utf8'), 'doomed\n', 'a file the agent deleted is back');
    assert.equal(readFileSync(file('old-name.txt'), 'utf8'), 'moving\n', 'a rename is undone');
    assert.equal(existsSync(file('new-name.txt')), false);
    assert.equal(existsSync(file('image.bin')), true, 'a kept file stays');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('in "before" mode holds a write until the user accepts it; a rejection reaches the agent as an error', async () => {
    await vscode.workspace.getConfiguration('acpClient.review').update('writes', 'before', vscode.ConfigurationTarget.Global);
    const client: AcpClientTestApi = await useScriptedAgent('write-review');
    const proposed = file('proposed.txt');

    // The proposal is on screen as its diff tab: only then is there a write to answer (on a loaded machine the
    // agent's fs/write_text_file can come well after its tool call).
    const proposalShown = async (): Promise<void> => {
      const shown = (): boolean =>
        vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.label.includes('proposed.txt (proposed by the agent)')));
      for (let i = 0; i < 120 && !shown(); i++) await sleep(250);
      assert.ok(shown(), 'the proposed write is shown as a diff');
    };
    await client.sendPrompt('first');
    await waitFor(client, (s) => toolCall(s, 'propose-1')?.status === 'in_progress');
    await proposalShown();
    await sleep(300);
    assert.equal(existsSync(proposed), false, 'nothing is written while the user reviews');
    await vscode.commands.executeCommand('acpClient.rejectProposedWrite');
    const state = await waitFor(client, turnEnded);
    assert.match(lastAgentText(state), /write refused: .*rejected/);
    assert.equal(existsSync(proposed), false);

    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await client.sendPrompt('second');
    await waitFor(client, (s) => s.turn.phase === 'running' && toolCall(s, 'propose-1')?.status === 'in_progress');
    await proposalShown();
    await vscode.commands.executeCommand('acpClient.acceptProposedWrite');
    await waitFor(client, (s) => s.turn.phase === 'idle' && lastAgentText(s).includes('write accepted'));
    assert.equal(readFileSync(proposed, 'utf8'), 'proposed: second\n');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
