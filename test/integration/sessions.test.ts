/**
 * Many conversations at once in a real VS Code: each streams on its own, a permission pending in one is visible
 * in the list while another runs, Switch Session and the editor panel show the one asked for; conversations with
 * one agent share its process, and a crash of it is survived by all of them with one restart.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { entriesOf } from '../../src/shared/selectors';
import type { TranscriptState } from '../../src/shared/model';
import { randomUUID } from 'node:crypto';
import { sleep, textOf, toolCall, useAgent, useScriptedAgent, waitFor } from './helpers';
import { processesMarked } from '../support/processes';
import { sessionsAgent } from '../support/sessions-agent';

const texts = (state: TranscriptState | undefined): string => (state ? entriesOf(state).map(textOf).join('\n') : '');

describe('many conversations', function () {
  this.timeout(90_000);

  it('two conversations stream at once: one waits for a permission, the other runs; each keeps its own transcript', async () => {
    const client = await useScriptedAgent('mixed');
    const first = client.shownConversation();
    assert.ok(first);
    await client.sendPrompt('slow one');
    await waitFor(client, (state) => toolCall(state, 'write-1')?.status === 'awaiting_permission');
    // The dialog for the first conversation's permission is open; a second conversation starts beside it.
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('acpClient.newSession');
    const second = client.shownConversation();
    assert.ok(second && second !== first, 'New Session shows a new conversation');
    await waitFor(client, (state) => state.agent.phase === 'ready');
    assert.deepEqual(await client.sendPrompt('stream something'), { accepted: true });
    await waitFor(client, (state) => state.turn.phase === 'running');
    const statuses = new Map(client.conversations().map((info) => [info.id, info.status]));
    assert.equal(statuses.get(first), 'waiting', 'the first waits for the user');
    assert.equal(statuses.get(second), 'running');
    // The first goes on streaming while not shown.
    const ticksBefore = texts(client.transcriptOf(first)).length;
    await sleep(600);
    assert.ok(texts(client.transcriptOf(first)).length > ticksBefore, 'the hidden conversation keeps streaming');
    await waitFor(client, (state) => state.turn.phase === 'idle');
    assert.doesNotMatch(texts(client.transcriptOf(second)), /tick \d/, "the first conversation's output is not in the second");
    assert.doesNotMatch(texts(client.transcriptOf(first)), /stream something/);

    await client.showConversation(first);
    assert.equal(client.shownConversation(), first);
    await vscode.commands.executeCommand('acpClient.cancelTurn');
    await waitFor(client, (state) => state.turn.phase === 'idle');
    assert.equal(client.conversations().find((info) => info.id === first)?.status, 'idle');
  });

  it('Switch Session lists the conversations newest first and shows the one picked', async () => {
    const client = await useScriptedAgent('echo');
    await client.sendPrompt('a conversation to find');
    await waitFor(client, (state) => state.turn.phase === 'idle' && state.entryCount > 1);
    const current = client.shownConversation();
    const older = client.conversations().find((info) => info.id !== current);
    assert.ok(older, 'there is an older conversation');
    void vscode.commands.executeCommand('acpClient.switchSession');
    await sleep(800);
    // The list starts with the newest (this one); the next is the older one.
    await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await eventually(() => client.shownConversation() !== current);
    assert.equal(client.shownConversation(), client.conversations()[1]?.id);
  });

  it('Open in Editor moves a conversation into an editor panel that keeps streaming; the sidebar shows another', async () => {
    const client = await useScriptedAgent('echo');
    const moved = client.shownConversation();
    assert.ok(moved);
    await vscode.commands.executeCommand('acpClient.openSessionInEditor', moved);
    await eventually(() => panelTabs().length > 0);
    assert.notEqual(client.shownConversation(), moved, 'the sidebar shows another conversation');
    assert.deepEqual(await client.sendPromptTo(moved, 'to the panel'), { accepted: true });
    await eventually(() => /echo/i.test(texts(client.transcriptOf(moved))) || texts(client.transcriptOf(moved)).includes('to the panel'));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await eventually(() => panelTabs().length === 0);
    assert.ok(
      client.conversations().some((info) => info.id === moved),
      'closing the panel does not end the conversation',
    );
  });

  it('three conversations share one agent process; its crash marks each exited and keeps them; one Restart Agent brings all three back, resumed', async () => {
    const marker = randomUUID();
    const agent = sessionsAgent(['resume'], { ACP_TEST_MARK: marker });
    try {
      const { command, args, env } = agent.config;
      const client = await useAgent('Sessions', { command, args: [...args], env: { ...env } });
      for (let more = 0; more < 2; more++) {
        // Something said in each: New Session on a blank conversation shows that one again.
        await client.sendPrompt(`opening ${more}`);
        await waitFor(client, (state) => state.turn.phase === 'idle' && state.entryCount > 1);
        await vscode.commands.executeCommand('acpClient.newSession');
        await waitFor(client, (state) => state.agent.phase === 'ready');
      }
      await client.sendPrompt('opening 2');
      await waitFor(client, (state) => state.turn.phase === 'idle' && state.entryCount > 1);
      const ids = client
        .conversations()
        .slice(0, 3)
        .map((info) => info.id);
      const sessionOf = (id: string): string | undefined => client.transcriptOf(id)?.sessionId;
      const sessions = ids.map(sessionOf);
      assert.equal(new Set(sessions).size, 3, 'each conversation has its own ACP session');
      assert.equal(processesMarked(marker).length, 1, 'on one agent process');
      for (const [index, id] of ids.entries()) assert.deepEqual(await client.sendPromptTo(id, `question ${index}`), { accepted: true });
      await eventually(() => ids.every((id) => client.transcriptOf(id)?.turn.phase === 'idle'));

      process.kill(processesMarked(marker)[0] ?? 0, 'SIGKILL');
      await eventually(() => ids.every((id) => client.transcriptOf(id)?.agent.phase === 'exited'));
      for (const [index, id] of ids.entries())
        assert.match(texts(client.transcriptOf(id)), new RegExp(`question ${index}`), 'the transcript is kept');
      assert.ok(
        client.conversations().every((info) => !ids.includes(info.id) || info.status === 'exited'),
        'the Sessions list shows each as exited',
      );

      await client.showConversation(ids[0] ?? '');
      await vscode.commands.executeCommand('acpClient.restartAgent');
      await eventually(() => ids.every((id) => client.transcriptOf(id)?.agent.phase === 'ready'));
      assert.deepEqual(ids.map(sessionOf), sessions, 'each continues its own session');
      const resumed = agent
        .requests()
        .filter((request) => request.method === 'session/resume')
        .map((request) => String(request.params['sessionId']));
      assert.deepEqual([...resumed].sort(), [...(sessions as string[])].sort(), 'resumed on the new process, each once');
      assert.equal(processesMarked(marker).length, 1, 'one process again');
      await client.stopAgents();
      await eventually(() => processesMarked(marker).length === 0);
    } finally {
      agent.dispose();
    }
  });
});

function panelTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.includes('acpClient.chatPanel'));
}

async function eventually(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(100);
  }
}
