/**
 * Full turns in a real VS Code: the permission dialog answered through VS Code's own quick pick, the agent
 * reading the editor's unsaved text and its write landing in the editor (saved and undoable), cancel with a
 * pending permission, and a crash mid-turn.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { entriesOf } from '../../src/shared/selectors';
import { sleep, textOf, toolCall, turnEnded, useScriptedAgent, waitFor, workspaceRoot } from './helpers';

describe('a prompt turn in VS Code', function () {
  this.timeout(90_000);

  it('asks permission in a VS Code dialog, reads the unsaved buffer and writes through the editor', async () => {
    const file = path.join(workspaceRoot(), 'src', 'hello.ts');
    const document = await vscode.workspace.openTextDocument(file);
    const editor = await vscode.window.showTextDocument(document);
    await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), '// unsaved line\n'));
    assert.equal(document.isDirty, true);
    const unsaved = document.getText();

    const client = await useScriptedAgent('tools');
    const verdict = await client.sendPrompt('please edit hello.ts');
    assert.deepEqual(verdict, { accepted: true });
    await waitFor(client, (state) => toolCall(state, 'edit-1')?.status === 'awaiting_permission');
    const card = toolCall(client.transcript(), 'edit-1');
    assert.deepEqual(
      card?.permission?.options.map((option) => option.name),
      ['Allow', 'Always allow', 'Reject'],
    );
    // The quick pick lists the agent's options in order: accepting the first is "Allow".
    await sleep(500);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');

    const state = await waitFor(client, turnEnded);
    const call = toolCall(state, 'edit-1');
    assert.equal(call?.status, 'completed', JSON.stringify(entriesOf(state).at(-1)));
    assert.deepEqual(call?.permissionOutcome, { optionId: 'allow', name: 'Allow' });
    assert.ok(
      entriesOf(state).some((entry) => textOf(entry).includes('read: // unsaved line')),
      'the agent read the unsaved text',
    );
    assert.equal(document.getText(), `// Edited by the scripted agent\n${unsaved}`);
    assert.equal(document.isDirty, false, 'the write was saved');
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('undo');
    assert.equal(document.getText(), unsaved, 'the agent edit can be undone');
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it('cancels from the command palette command with a pending permission', async () => {
    const client = await useScriptedAgent('slow');
    await client.sendPrompt('take your time');
    await waitFor(
      client,
      (state) => toolCall(state, 'write-1')?.status === 'awaiting_permission' && toolCall(state, 'run-1')?.status === 'in_progress',
    );
    await vscode.commands.executeCommand('acpClient.cancelTurn');
    const now = client.transcript();
    assert.equal(toolCall(now, 'run-1')?.status, 'cancelled');
    assert.equal(toolCall(now, 'write-1')?.status, 'cancelled');
    assert.equal(toolCall(now, 'write-1')?.permissionOutcome, 'cancelled');
    const state = await waitFor(client, turnEnded);
    const end = entriesOf(state)
      .filter((entry) => entry.kind === 'turn_end')
      .pop();
    assert.deepEqual(end?.kind === 'turn_end' && end.outcome, { type: 'stopped', stopReason: 'cancelled' });
    assert.deepEqual(await client.sendPrompt('next one'), { accepted: true }, 'the conversation goes on');
    await waitFor(client, (s) => s.turn.phase === 'running');
    await vscode.commands.executeCommand('acpClient.cancelTurn');
    await waitFor(client, (s) => s.turn.phase === 'idle');
  });

  it('shows a crash mid-turn with the exit code and keeps the transcript', async () => {
    const client = await useScriptedAgent('crash');
    await client.sendPrompt('go');
    const state = await waitFor(client, (s) => entriesOf(s).some((entry) => entry.kind === 'notice' && entry.action === 'restart_agent'));
    const notice = entriesOf(state).find((entry) => entry.kind === 'notice' && entry.action === 'restart_agent');
    assert.ok(notice?.kind === 'notice');
    assert.match(notice.title, /exited with code 3/);
    assert.match(notice.detail ?? '', /fatal: simulated crash/);
    assert.equal(textOf(entriesOf(state)[0]), 'go');
    assert.equal(state.turn.phase, 'idle');
  });

  it('a write that auto save already put on disk is a success, not "could not be saved"', async () => {
    const file = path.join(workspaceRoot(), 'src', 'hello.ts');
    const document = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(document);
    const before = document.getText();
    // Auto save (on by default in the browser workbench) can win the race between the edit and the client's save:
    // saving on every change makes it win every time.
    const autoSave = vscode.workspace.onDidChangeTextDocument((event) => {
      if (event.document === document && event.contentChanges.length > 0) void event.document.save();
    });
    try {
      const client = await useScriptedAgent('tools');
      await client.sendPrompt('please edit hello.ts');
      await waitFor(client, (state) => toolCall(state, 'edit-1')?.status === 'awaiting_permission');
      await sleep(500);
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      const state = await waitFor(client, turnEnded);
      assert.equal(toolCall(state, 'edit-1')?.status, 'completed', JSON.stringify(entriesOf(state).at(-1)));
      assert.ok(!entriesOf(state).some((entry) => /could not be saved/.test(textOf(entry))), 'no write error is shown');
      assert.equal(document.getText(), `// Edited by the scripted agent\n${before}`);
      assert.equal(document.isDirty, false);
    } finally {
      autoSave.dispose();
      await vscode.window.showTextDocument(document);
      await vscode.commands.executeCommand('undo');
      await vscode.commands.executeCommand('workbench.action.files.save');
    }
  });

  it('refuses a file outside the workspace and says so in the transcript', async () => {
    const client = await useScriptedAgent('tools');
    await client.sendPrompt(`path:${path.join(workspaceRoot(), '..', 'elsewhere.txt')}`);
    await sleep(300);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    const state = await waitFor(client, turnEnded);
    assert.ok(
      entriesOf(state).some((entry) => entry.kind === 'notice' && /outside the workspace/.test(`${entry.title} ${entry.detail ?? ''}`)),
    );
    assert.ok(entriesOf(state).some((entry) => /The client refused/.test(textOf(entry))));
  });
});
