/**
 * Select Agent and New Session from the palette in the real VS Code, as a new user tries them: on a chat in which
 * nothing was said, another agent replaces the first in place (its process ends, the header follows at once); the
 * same agent is not restarted; New Session on a blank chat shows it instead of stacking another, and the Sessions
 * list holds only conversations in which something was said.
 */
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { AcpClientTestApi } from '../../src/api';
import type { TranscriptState } from '../../src/shared/model';
import { entriesOf } from '../../src/shared/selectors';
import { eventually, processesMarked } from '../support/processes';
import { scriptedAgentPath } from '../support/repo-root';
import { api, sleep, textOf, turnEnded, waitFor } from './helpers';

function describeProcess(pid: number): string {
  try {
    return `${pid}: ${readFileSync(`/proc/${pid}/cmdline`, 'latin1').replace(/\0/g, ' ')} ${readFileSync(`/proc/${pid}/stat`, 'latin1').split(' ').slice(2, 5).join(' ')}`;
  } catch {
    return `${pid}: gone`;
  }
}

const marks = { Alpha: randomUUID(), Beta: randomUUID() };

async function configureTwoAgents(): Promise<AcpClientTestApi> {
  const agent = (name: keyof typeof marks): object => ({
    command: process.execPath,
    args: [scriptedAgentPath()],
    env: { ACP_SCENARIO: 'echo', ACP_TEST_MARK: marks[name] },
  });
  const config = vscode.workspace.getConfiguration('acpClient');
  await config.update('agents', { Alpha: agent('Alpha'), Beta: agent('Beta') }, vscode.ConfigurationTarget.Global);
  await config.update('defaultAgent', 'Alpha', vscode.ConfigurationTarget.Global);
  const client = await api();
  await client.stopAgents();
  // Whatever the last test left shown: the chat is on Alpha, as a user would put it.
  await vscode.commands.executeCommand('acpClient.selectAgent', 'Alpha');
  return client;
}

const ready = (client: AcpClientTestApi, name: string): Promise<unknown> =>
  waitFor(client, (state) => state.agent.phase === 'ready' && state.agent.agentName === name);

describe('switching agents and new sessions from the palette', function () {
  this.timeout(90_000);

  afterEach(async () => {
    await (await api()).stopAgents();
  });

  it('Select Agent on a chat where nothing was said starts the other agent there: header at once, old process gone, the prompt goes to it', async () => {
    const client = await configureTwoAgents();
    await vscode.commands.executeCommand('acpClient.newSession');
    await ready(client, 'Alpha');
    const conversation = client.shownConversation();
    await eventually(() => processesMarked(marks.Alpha).length === 1, 'Alpha runs');
    const alphaPids = processesMarked(marks.Alpha);

    // What the header says from the moment the command runs: Beta starting, never Alpha again.
    const headerOf = (state: TranscriptState): string =>
      `${state.agent.phase} ${state.agent.phase === 'none' ? '' : state.agent.agentName}`;
    const headers: string[] = [headerOf(client.transcript())];
    const watching = client.onDidChangeTranscript((state) => {
      if (headers.at(-1) !== headerOf(state)) headers.push(headerOf(state));
    });
    // The picker's row for Beta runs this (as Add Agent does once it installed Beta).
    await vscode.commands.executeCommand('acpClient.selectAgent', 'Beta');
    watching.dispose();
    assert.deepEqual(headers, ['ready Alpha', 'starting Beta', 'ready Beta'], 'the header follows at once, nothing between');
    await ready(client, 'Beta');
    assert.equal(client.shownConversation(), conversation, 'the same (blank) conversation, not another');
    await eventually(
      () => {
        const left = processesMarked(marks.Alpha);
        if (left.length)
          console.log(`Alpha left: ${left.map(describeProcess).join('; ')}; shown ${JSON.stringify(client.transcript().agent)}`);
        return left.length === 0;
      },
      `Alpha's process ended (no other conversation uses it): before ${alphaPids.join()}`,
      20_000,
    );
    assert.equal(processesMarked(marks.Beta).length, 1);

    assert.deepEqual(await client.sendPrompt('for beta'), { accepted: true });
    const state = await waitFor(client, turnEnded);
    assert.equal(state.agent.phase === 'ready' && state.agent.agentName, 'Beta', 'the prompt went to Beta');
  });

  it('Select Agent on the agent the chat is on leaves it running (same session, same process)', async () => {
    const client = await configureTwoAgents();
    await vscode.commands.executeCommand('acpClient.newSession');
    await ready(client, 'Alpha');
    const sessionId = client.transcript().sessionId;
    const pids = processesMarked(marks.Alpha);
    await vscode.commands.executeCommand('acpClient.selectAgent', 'Alpha');
    await sleep(500);
    assert.equal(client.transcript().agent.phase, 'ready');
    assert.equal(client.transcript().sessionId, sessionId, 'not restarted');
    assert.deepEqual(processesMarked(marks.Alpha), pids);
    assert.ok(
      entriesOf(client.transcript()).some((entry) => entry.kind === 'notice' && entry.title === 'This chat is on Alpha already'),
      'the chat says why nothing changed',
    );
  });

  it('Select Agent on a stopped chat starts that agent in place', async () => {
    const client = await configureTwoAgents();
    await vscode.commands.executeCommand('acpClient.newSession');
    await ready(client, 'Alpha');
    await vscode.commands.executeCommand('acpClient.stopAgent');
    await waitFor(client, (state) => state.agent.phase === 'stopped');
    await vscode.commands.executeCommand('acpClient.selectAgent', 'Alpha');
    await ready(client, 'Alpha');
  });

  it('Select Agent on a conversation with history opens one for the other agent; neither transcript mixes agents', async () => {
    const client = await configureTwoAgents();
    await vscode.commands.executeCommand('acpClient.newSession');
    await ready(client, 'Alpha');
    await client.sendPrompt('said to alpha');
    await waitFor(client, turnEnded);
    const alphaConversation = client.shownConversation() ?? '';
    await vscode.commands.executeCommand('acpClient.selectAgent', 'Beta');
    await ready(client, 'Beta');
    assert.notEqual(client.shownConversation(), alphaConversation);
    assert.doesNotMatch(entriesOf(client.transcript()).map(textOf).join('\n'), /said to alpha/);
    const alpha = client.transcriptOf(alphaConversation);
    assert.ok(alpha && alpha.agent.phase !== 'none' && alpha.agent.agentName === 'Alpha', 'the first stays with Alpha');
  });

  it('New Session on a blank chat shows that one instead of stacking another; the Sessions list holds only conversations with a prompt', async () => {
    const client = await configureTwoAgents();
    await vscode.commands.executeCommand('acpClient.newSession');
    await ready(client, 'Alpha');
    const blank = client.shownConversation();
    assert.ok(!client.conversations().some((info) => info.id === blank), 'a conversation without a prompt is not listed');
    await vscode.commands.executeCommand('acpClient.newSession');
    assert.equal(client.shownConversation(), blank, 'the blank conversation again');
    await ready(client, 'Alpha');
    await client.sendPrompt('now it is history');
    await waitFor(client, turnEnded);
    assert.ok(
      client.conversations().some((info) => info.id === blank),
      'listed once something was said',
    );
    await vscode.commands.executeCommand('acpClient.newSession');
    assert.notEqual(client.shownConversation(), blank, 'a conversation with history gets a new one beside it');
  });
});
