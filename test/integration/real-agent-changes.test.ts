/**
 * Issue 13 with the real Claude Code ACP agent (offline, mock Messages API): its Write tool writes files itself, on
 * disk, not through fs/write_text_file. The turn's change card still shows them, Undo restores, "Restore to here"
 * rewinds two turns at once, and a file the user edited after the agent is detected and not overwritten.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AcpClientTestApi } from '../../src/api';
import type { ChangeSetEntry, TranscriptState } from '../../src/shared/model';
import { entriesOf } from '../../src/shared/selectors';
import { startMockAnthropic, type MockAnthropic } from '../fixtures/mock-anthropic/server';
import { claudeAgentBin, claudeAgentEnv } from '../support/claude-agent';
import { latestToolCall, sleep, useAgent, waitFor, workspaceRoot } from './helpers';

// The tool_use id the mock gives its Write call (see test/fixtures/mock-anthropic/reply.ts).
const WRITE_ID = 'toolu_mock_write';

const changeSet = (state: TranscriptState, turnId: string): ChangeSetEntry | undefined =>
  entriesOf(state).find((e): e is ChangeSetEntry => e.kind === 'changes' && e.turnId === turnId);

describe("a real agent's changes: Claude Code writing files itself", function () {
  this.timeout(180_000);
  let mock: MockAnthropic | undefined;
  let home: string | undefined;
  let client: AcpClientTestApi;
  const dir = (): string => path.join(workspaceRoot(), 'claude-review');
  const file = (name: string): string => path.join(dir(), name);

  /** One turn that writes `name` with `content`, the Write allowed in VS Code's quick pick; answers the turn id. */
  async function writeTurn(name: string, content: string): Promise<string> {
    const before = client.transcript().turn;
    assert.equal(before.phase, 'idle');
    assert.deepEqual(await client.sendPrompt(`write ${file(name)} with ${content}`), { accepted: true });
    const running = client.transcript().turn;
    assert.ok(running.phase !== 'idle');
    const turnId = running.turnId;
    await waitFor(client, (s) => latestToolCall(s, WRITE_ID)?.status === 'awaiting_permission', 60_000);
    await sleep(500);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await waitFor(client, (s) => s.turn.phase === 'idle' && changeSet(s, turnId) !== undefined, 60_000);
    return turnId;
  }

  /** Runs a command that asks with a quick pick, and accepts the pick's first (safe) item. */
  async function answeringFirstPick<T>(command: string, ...args: unknown[]): Promise<T | undefined> {
    const result = vscode.commands.executeCommand<T>(command, ...args);
    await sleep(800);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    return result;
  }

  before(async () => {
    rmSync(dir(), { recursive: true, force: true });
    mkdirSync(dir(), { recursive: true });
    mock = await startMockAnthropic();
    const agentEnv = claudeAgentEnv(mock.url);
    home = agentEnv.home;
    client = await useAgent('Claude Code (mock API)', { command: process.execPath, args: [claudeAgentBin()], env: agentEnv.env }, 60_000);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await mock?.close();
    if (home) rmSync(home, { recursive: true, force: true });
    rmSync(dir(), { recursive: true, force: true });
  });

  it('shows the file its Write tool created on disk, and Undo deletes it', async () => {
    const turnId = await writeTurn('one.txt', 'hello from claude');
    assert.equal(readFileSync(file('one.txt'), 'utf8'), 'hello from claude');
    const shown = changeSet(client.transcript(), turnId)?.files;
    assert.deepEqual(
      shown?.map((f) => [f.path, f.change, f.added, f.removed, f.review]),
      [[file('one.txt'), 'created', 1, 0, 'pending']],
    );
    assert.equal(shown?.[0]?.note, undefined, 'what Claude reported on its tool call agrees with the disk');
    const undone = await vscode.commands.executeCommand<{ kind: string }>('acpClient.undoChanges', turnId);
    assert.equal(undone?.kind, 'applied');
    assert.equal(existsSync(file('one.txt')), false);
  });

  it('"Restore to here" rewinds two turns; a file the user edited after the agent is detected and kept', async () => {
    const second = await writeTurn('two.txt', 'second turn');
    const third = await writeTurn('three.txt', 'third turn');
    assert.ok(existsSync(file('two.txt')) && existsSync(file('three.txt')));
    const restored = await answeringFirstPick<{ kind: string }>('acpClient.restoreCheckpoint', second);
    assert.equal(restored?.kind, 'applied');
    assert.equal(existsSync(file('two.txt')), false, 'the first of the two turns is rewound');
    assert.equal(existsSync(file('three.txt')), false, 'and the second');
    await waitFor(client, (s) => changeSet(s, third)?.files[0]?.review === 'undone');

    // Now the user edits what the agent wrote, in the editor, before undoing it.
    const fourth = await writeTurn('four.txt', 'fourth turn');
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file('four.txt')));
    await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), 'the user was here\n'));
    await editor.document.save();
    await sleep(500);
    // The first choice shows the diff; nothing is overwritten.
    const outcome = await answeringFirstPick<{ kind: string; paths: string[] }>('acpClient.undoChanges', fourth);
    assert.deepEqual(outcome, { kind: 'conflict', paths: [file('four.txt')], unsaved: [] });
    assert.equal(readFileSync(file('four.txt'), 'utf8'), 'the user was here\nfourth turn', "the user's edit is not overwritten");
    assert.equal(changeSet(client.transcript(), fourth)?.files[0]?.review, 'pending');
    // The restore to the message before it says the same, and leaves the file as the user has it.
    const rewound = await answeringFirstPick<{ kind: string }>('acpClient.restoreCheckpoint', fourth);
    assert.notEqual(rewound?.kind, 'conflict');
    assert.equal(readFileSync(file('four.txt'), 'utf8'), 'the user was here\nfourth turn');
  });
});
