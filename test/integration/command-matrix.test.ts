/**
 * Every command from every state, in the real VS Code: one test per cell of test/support/command-matrix.ts. Each
 * puts the chat in its state from a fresh start, runs the command as the palette does, and checks what the user
 * then sees: the command did what its name says, or the chat says why not; no transcript mixes agents; the count of
 * agent processes is what the state calls for.
 */
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { AcpClientApi } from '../../src/api';
import type { TranscriptState } from '../../src/shared/model';
import { entriesOf } from '../../src/shared/selectors';
import { MATRIX, type MatrixCell, type MatrixCommand, type MatrixState } from '../support/command-matrix';
import { eventually, processesMarked } from '../support/processes';
import { scriptedAgentPath } from '../support/repo-root';
import { api, textOf, turnEnded, waitFor } from './helpers';

const marks = { Alpha: randomUUID(), Beta: randomUUID() };
/** Alpha's answer streams for several seconds (a turn that is still running when the command comes). */
const agentConfig = (name: keyof typeof marks): object => ({
  command: process.execPath,
  args: [scriptedAgentPath()],
  env: { ACP_SCENARIO: 'stream', ACP_CHUNK_DELAY_MS: '700', ACP_TEST_MARK: marks[name] },
});

const notices = (state: TranscriptState): string[] => entriesOf(state).flatMap((entry) => (entry.kind === 'notice' ? [entry.title] : []));
const prompts = (state: TranscriptState | undefined): string =>
  state
    ? entriesOf(state)
        .filter((entry) => entry.kind === 'message' && entry.role === 'user')
        .map(textOf)
        .join('\n')
    : '';
const readyOn = (state: TranscriptState, agent: string): boolean => state.agent.phase === 'ready' && state.agent.agentName === agent;

async function configure(agents: object): Promise<AcpClientApi> {
  const config = vscode.workspace.getConfiguration('acpClient');
  await config.update('agents', agents, vscode.ConfigurationTarget.Global);
  await config.update('defaultAgent', Object.keys(agents)[0], vscode.ConfigurationTarget.Global);
  const client = await api();
  await client.stopAgents();
  await eventually(
    () => processesMarked(marks.Alpha).length + processesMarked(marks.Beta).length === 0,
    'no agent left from before',
    15_000,
  );
  return client;
}

/** Puts the chat in `state` with Alpha its agent; returns the conversation shown. */
async function enter(state: MatrixState): Promise<{ client: AcpClientApi; conversation: string | undefined }> {
  if (state === 'no agent configured') {
    const client = await configure({});
    // A chat with nothing in it and no agent: a blank conversation.
    if (client.transcript().entryCount > 0 || client.transcript().agent.phase !== 'none')
      await vscode.commands.executeCommand('acpClient.newSession').then(undefined, () => undefined);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    return { client, conversation: client.shownConversation() };
  }
  const client = await configure({ Alpha: agentConfig('Alpha'), Beta: agentConfig('Beta') });
  // A blank conversation (beside the earlier ones, which are stopped), then Alpha in it: one conversation runs.
  await vscode.commands.executeCommand('acpClient.newSession');
  await waitFor(client, (s) => s.agent.phase === 'ready', 30_000);
  if (!readyOn(client.transcript(), 'Alpha')) await vscode.commands.executeCommand('acpClient.selectAgent', 'Alpha');
  await waitFor(client, (s) => readyOn(s, 'Alpha'), 30_000);
  await eventually(() => processesMarked(marks.Alpha).length === 1 && processesMarked(marks.Beta).length === 0, 'only Alpha runs', 15_000);
  if (state !== 'Ready, nothing said') {
    assert.deepEqual(await client.sendPrompt('a question for Alpha'), { accepted: true });
    await waitFor(client, (s) => s.turn.phase === 'running');
    if (state !== 'turn running') {
      // History without waiting the whole answer out: the turn ends as cancelled.
      await vscode.commands.executeCommand('acpClient.cancelTurn');
      await waitFor(client, turnEnded);
    }
  }
  if (state === 'crashed') {
    for (const pid of processesMarked(marks.Alpha)) process.kill(pid, 'SIGKILL');
    await waitFor(client, (s) => s.agent.phase === 'exited');
  }
  if (state === 'stopped') {
    await vscode.commands.executeCommand('acpClient.stopAgent');
    await waitFor(client, (s) => s.agent.phase === 'stopped');
  }
  return { client, conversation: client.shownConversation() };
}

function run(command: MatrixCommand): Thenable<unknown> {
  switch (command) {
    case 'New Session':
      return vscode.commands.executeCommand('acpClient.newSession');
    case 'Select Agent: same':
      return vscode.commands.executeCommand('acpClient.selectAgent', 'Alpha');
    case 'Select Agent: another':
      return vscode.commands.executeCommand('acpClient.selectAgent', 'Beta');
    case 'Cancel Turn':
      return vscode.commands.executeCommand('acpClient.cancelTurn');
    case 'Stop Agent':
      return vscode.commands.executeCommand('acpClient.stopAgent');
    case 'Restart Agent':
      return vscode.commands.executeCommand('acpClient.restartAgent');
  }
}

async function check(cell: MatrixCell, client: AcpClientApi, before: string | undefined, noticesBefore: number): Promise<void> {
  const { outcome } = cell;
  const shown = client.shownConversation();
  switch (outcome.kind) {
    case 'ready_here':
      await waitFor(client, (s) => readyOn(s, outcome.agent), 30_000);
      assert.equal(shown, before, 'the same conversation');
      break;
    case 'ready_elsewhere':
      await waitFor(client, (s) => readyOn(s, outcome.agent), 30_000);
      assert.notEqual(client.shownConversation(), before, 'another conversation');
      assert.doesNotMatch(prompts(client.transcript()), /a question for Alpha/, 'the new conversation holds none of the old one');
      if (before) assert.match(prompts(client.transcriptOf(before)), /a question for Alpha/, 'the old conversation keeps its transcript');
      break;
    case 'explained':
      await waitFor(client, (s) => notices(s).slice(noticesBefore).includes(outcome.title), 10_000);
      assert.equal(shown, before, 'the same conversation');
      break;
    case 'cancelled':
      await waitFor(
        client,
        (s) =>
          turnEnded(s) &&
          entriesOf(s).some(
            (entry) => entry.kind === 'turn_end' && entry.outcome.type === 'stopped' && entry.outcome.stopReason === 'cancelled',
          ),
      );
      break;
    case 'stopped':
      await waitFor(client, (s) => s.agent.phase === 'stopped');
      assert.equal(shown, before);
      break;
  }
  await eventually(
    () => processesMarked(marks.Alpha).length === cell.processes.Alpha && processesMarked(marks.Beta).length === cell.processes.Beta,
    `processes: Alpha ${processesMarked(marks.Alpha).length} (want ${cell.processes.Alpha}), Beta ${processesMarked(marks.Beta).length} (want ${cell.processes.Beta})`,
    15_000,
  );
}

describe('command matrix: every command from every state', function () {
  this.timeout(120_000);

  after(async () => {
    await configure({ Scripted: { command: process.execPath, args: [scriptedAgentPath()], env: { ACP_SCENARIO: 'echo' } } });
  });

  for (const cell of MATRIX) {
    it(`${cell.state} × ${cell.command}: ${cell.sees}`, async () => {
      const { client, conversation } = await enter(cell.state);
      const noticesBefore = notices(client.transcript()).length;
      await run(cell.command);
      await check(cell, client, conversation, noticesBefore);
    });
  }
});
