/**
 * Issue 25's attack rows for writes back to the workspace, in a real VS Code: a scripted agent deletes or creates
 * a file under `attacks/`, the test plants what an attacker (or the agent's own tools) would, then drives Undo and
 * Restore to here through the extension's commands. Nothing may be written outside the workspace (a canary file in
 * a temp folder), and a user's unsaved edits survive.
 */
import * as assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AcpClientTestApi } from '../../src/api';
import type { ChangeSetEntry, TranscriptState } from '../../src/shared/model';
import { entriesOf } from '../../src/shared/selectors';
import type { AttackCase } from '../support/attack-case';
import { sleep, turnEnded, useScriptedAgent, waitFor, workspaceRoot } from './helpers';

interface Outcome {
  readonly kind: string;
  readonly skipped?: readonly { readonly path: string; readonly reason: string }[];
  readonly paths?: readonly string[];
  readonly unsaved?: readonly string[];
}

interface Row extends AttackCase {
  readonly run: () => Promise<void>;
}

const CANARY = 'export PATH=$HOME/bin:$PATH\n';
const changeSets = (state: TranscriptState): ChangeSetEntry[] => entriesOf(state).filter((e): e is ChangeSetEntry => e.kind === 'changes');

describe('attacks on writes back to the workspace (real VS Code)', function () {
  this.timeout(90_000);
  const dir = (): string => path.join(workspaceRoot(), 'attacks');
  const file = (name: string): string => path.join(dir(), name);
  let outside: string;
  let canary: string;
  let client: AcpClientTestApi;

  /** One turn of the scripted agent (`delete <name>` or `create <name>`); resolves with its change set's turn id. */
  const turn = async (prompt: string): Promise<string> => {
    const sets = changeSets(client.transcript()).length;
    assert.deepEqual(await client.sendPrompt(prompt), { accepted: true });
    const state = await waitFor(client, (s) => turnEnded(s) && changeSets(s).length > sets, 30_000);
    return changeSets(state).at(-1)!.turnId;
  };

  const rows: Row[] = [
    {
      attack: 'undo of a deleted file that came back as a symlink to a file outside the workspace (~/.bash_login)',
      driven:
        'installed extension in code-server: the agent deletes a file, a link to the canary takes its place, Undo (acpClient.undoChanges)',
      sees: 'a warning "Did not undo attacks/victim.txt: it is now a symbolic link."; the canary is unchanged',
      run: async () => {
        const turnId = await turn('delete victim.txt');
        symlinkSync(canary, file('victim.txt'));
        const outcome = await vscode.commands.executeCommand<Outcome>('acpClient.undoChanges', turnId);
        assert.equal(outcome?.kind, 'refused');
        assert.deepEqual(outcome.skipped, [{ path: file('victim.txt'), reason: 'it is now a symbolic link' }]);
        assert.equal(lstatSync(file('victim.txt')).isSymbolicLink(), true);
      },
    },
    {
      attack: 'restore to here through a dangling symlink that points outside the workspace',
      driven:
        'installed extension in code-server: the agent deletes a file, a dangling link to outside takes its place, Restore to here (quick pick accepted)',
      sees: 'the quick pick lists the file "will not be restored: it is now a symbolic link whose target is missing", then a warning saying the same',
      run: async () => {
        const turnId = await turn('delete victim2.txt');
        symlinkSync(path.join(outside, 'planted'), file('victim2.txt'));
        const restoring = vscode.commands.executeCommand<Outcome>('acpClient.restoreCheckpoint', turnId);
        await sleep(1500);
        await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
        const outcome = await restoring;
        assert.equal(outcome?.kind, 'refused');
        assert.deepEqual(outcome.skipped, [{ path: file('victim2.txt'), reason: 'it is now a symbolic link whose target is missing' }]);
        assert.equal(existsSync(path.join(outside, 'planted')), false);
      },
    },
    {
      attack: 'undo of a file the agent created deletes unsaved edits the user made to it',
      driven: 'installed extension in code-server: the agent creates a file (fs/write_text_file), the user edits it without saving, Undo',
      sees: 'the conflict question "made.txt changed after the agent (unsaved edits in the editor: made.txt)"; dismissed, the edit stays',
      run: async () => {
        const turnId = await turn('create made.txt');
        const document = await vscode.workspace.openTextDocument(file('made.txt'));
        await vscode.window.showTextDocument(document);
        const edit = new vscode.WorkspaceEdit();
        edit.insert(document.uri, new vscode.Position(0, 0), 'my unsaved words\n');
        assert.equal(await vscode.workspace.applyEdit(edit), true);
        assert.equal(document.isDirty, true);
        const undoing = vscode.commands.executeCommand<Outcome>('acpClient.undoChanges', turnId, file('made.txt'));
        await sleep(1500);
        await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
        const outcome = await undoing;
        assert.equal(outcome?.kind, 'conflict');
        assert.deepEqual(outcome.unsaved, [file('made.txt')]);
        assert.equal(existsSync(file('made.txt')), true, 'the file is not deleted');
        const edited = 'my unsaved words\nmade by the agent\n';
        assert.equal(document.getText(), edited, 'the unsaved edit survives in the editor');
        const disk = readFileSync(file('made.txt'), 'utf8');
        assert.ok(document.isDirty || disk === edited, `still unsaved, or saved as the user wrote it; on disk: ${JSON.stringify(disk)}`);
        if (document.isDirty) await vscode.commands.executeCommand('workbench.action.files.revert');
      },
    },
  ];

  before(async () => {
    rmSync(dir(), { recursive: true, force: true });
    mkdirSync(dir(), { recursive: true });
    outside = mkdtempSync(path.join(tmpdir(), 'acp-outside-'));
    canary = path.join(outside, '.bash_login');
    writeFileSync(canary, CANARY);
    // Files the tracker must know before the turns delete them: the watcher reports them and the tracker reads them
    // into its baseline; opening them (clean) hands it their content at the next turn too, however slow the machine.
    for (const name of ['victim.txt', 'victim2.txt']) {
      writeFileSync(file(name), `the user\u2019s ${name}\n`);
      await vscode.workspace.openTextDocument(file(name));
    }
    await sleep(3000);
    client = await useScriptedAgent('undo-attacks');
    // Run alone, this suite's conversation is the window's first: a turn first lets the workspace walk finish.
    await turn('create warm-up.txt');
  });
  afterEach(() => {
    assert.equal(readFileSync(canary, 'utf8'), CANARY, 'the canary outside the workspace is untouched');
    assert.deepEqual(readdirSync(outside), ['.bash_login'], 'nothing new outside the workspace');
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(dir(), { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  for (const row of rows) it(`attack: ${row.attack}`, row.run);
});
