/**
 * The read limit in a real VS Code: the `acpClient.limits.maxReadMB` setting as contributed and read there, files
 * streamed from disk by the VS Code adapter, and the agent's error.
 */
import * as assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { entriesOf } from '../../src/shared/selectors';
import { textOf, turnEnded, useScriptedAgent, waitFor, workspaceRoot } from './helpers';

describe('read limit in VS Code', function () {
  this.timeout(60_000);
  const file = (): string => path.join(workspaceRoot(), 'big-read.txt');
  const setLimit = (value: number | undefined): Thenable<void> =>
    vscode.workspace.getConfiguration('acpClient').update('limits.maxReadMB', value, vscode.ConfigurationTarget.Global);

  before(() => writeFileSync(file(), Array.from({ length: 2_000 }, (_, index) => `line ${String(index).padStart(5, '0')}\n`).join('')));
  after(async () => {
    rmSync(file(), { force: true });
    await setLimit(undefined);
  });

  async function agentReport(read: { path: string; line?: number; limit?: number }): Promise<string> {
    const client = await useScriptedAgent('limits');
    await client.sendPrompt(JSON.stringify({ read }));
    const state = await waitFor(client, turnEnded);
    return (
      entriesOf(state)
        .map(textOf)
        .find((text) => text.startsWith('read ')) ?? ''
    );
  }

  it('answers under the setting, refuses over it naming the limit, and serves a line/limit window', async () => {
    assert.equal(await agentReport({ path: file() }), 'read ok 22000 chars, 2000 lines');
    await setLimit(0.01);
    assert.match(
      await agentReport({ path: file() }),
      /^read error -32602: .*the file is 21\.5 KB, over the client's read limit of 10\.2 KB \(setting acpClient\.limits\.maxReadMB\)\. Read it in parts with line and limit\.$/,
    );
    assert.equal(await agentReport({ path: file(), line: 1_001, limit: 2 }), 'read ok 22 chars, 2 lines');
  });
});
