/**
 * Every command from every state, in the real VS Code: one test per cell of test/support/command-matrix.ts. Each
 * puts the chat in its state from a fresh start, runs the command as the palette does, and checks what the user
 * then sees: the command did what its name says, or the chat says why not; no transcript mixes agents; the count of
 * agent processes is what the state calls for; a draft typed before the command is still there. Rename's input box
 * is filled in with real keys (test/support/workbench-keys.ts: the code-server launcher types them in Chromium).
 * "Add to ACP Chat" needs the chat's own attachment tray: it is driven in test/e2e/matrix-states.ts.
 */
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AcpClientTestApi } from '../../src/api';
import type { TranscriptState } from '../../src/shared/model';
import { entriesOf } from '../../src/shared/selectors';
import { modePicker } from '../../src/shared/session-pickers';
import { MATRIX, type MatrixCell, type MatrixCommand, type MatrixState } from '../support/command-matrix';
import { eventually, processesMarked } from '../support/processes';
import { scriptedAgentPath } from '../support/repo-root';
import { typeInWorkbench } from '../support/workbench-keys';
import { MATRIX_WRITTEN } from '../fixtures/agents/scenarios/matrix';
import { api, sleep, textOf, toolCall, turnEnded, waitFor, workspaceRoot } from './helpers';

const marks = { Alpha: randomUUID(), Beta: randomUUID() };
type Agent = keyof typeof marks;

/**
 * Alpha's answers stream for several seconds (a turn still running when the command comes); "edit" asks permission,
 * "elicit" asks a question. Both agents offer modes and options. Alpha starts slowly in "starting" and asks for
 * sign-in in "sign-in needed".
 */
function agentConfig(name: Agent, state: MatrixState): object {
  const extra =
    name === 'Alpha' && state === 'starting'
      ? { ACP_INIT_DELAY_MS: '6000' }
      : name === 'Alpha' && state === 'sign-in needed'
        ? { ACP_AUTH: '1' }
        : {};
  return {
    command: process.execPath,
    args: [scriptedAgentPath()],
    env: { ACP_SCENARIO: 'matrix', ACP_CHUNK_DELAY_MS: '700', ACP_SESSION_CONTROLS: 'both', ACP_TEST_MARK: marks[name], ...extra },
  };
}

const SENT = 'a prompt sent from the matrix';
const DRAFT = 'a draft the command must not lose';
const RENAMED = 'Renamed in the matrix';
/** The file the history's turn writes where the command needs a change to act on (Review Changes, Restore to here). */
const written = (): string => path.join(workspaceRoot(), MATRIX_WRITTEN);
const needsChange = (command: MatrixCommand): boolean => command === 'Review Changes' || command === 'Restore to here';

const notices = (state: TranscriptState): string[] => entriesOf(state).flatMap((entry) => (entry.kind === 'notice' ? [entry.title] : []));
const prompts = (state: TranscriptState | undefined): string =>
  state
    ? entriesOf(state)
        .filter((entry) => entry.kind === 'message' && entry.role === 'user')
        .map(textOf)
        .join('\n')
    : '';
const agentText = (state: TranscriptState): string =>
  entriesOf(state)
    .filter((entry) => entry.kind === 'message' && entry.role === 'agent')
    .map(textOf)
    .join('\n');
const readyOn = (state: TranscriptState, agent: string): boolean => state.agent.phase === 'ready' && state.agent.agentName === agent;
const settledOn = (state: TranscriptState, agent: string): boolean =>
  (state.agent.phase === 'ready' || state.agent.phase === 'needs_auth') && state.agent.agentName === agent;
const pendingPermission = (state: TranscriptState): boolean =>
  entriesOf(state).some((entry) => entry.kind === 'tool_call' && entry.permission !== undefined);
const pendingQuestion = (state: TranscriptState): boolean =>
  entriesOf(state).some(
    (entry) => entry.kind === 'tool_call' && entry.elicitation !== undefined && entry.elicitation.outcome === undefined,
  );
/** A Send's verdict: accepted (queued while the agent starts or a turn runs, or sent at once). */
const accepted = (result: unknown): boolean =>
  typeof result === 'object' && result !== null && 'accepted' in result && result.accepted === true;
const count = (agent: Agent): number => processesMarked(marks[agent]).length;

async function configure(agents: object, idleTimeoutMinutes?: number): Promise<AcpClientTestApi> {
  const config = vscode.workspace.getConfiguration('acpClient');
  await config.update('agents', agents, vscode.ConfigurationTarget.Global);
  await config.update('defaultAgent', Object.keys(agents)[0], vscode.ConfigurationTarget.Global);
  await config.update('idleTimeoutMinutes', idleTimeoutMinutes, vscode.ConfigurationTarget.Global);
  const client = await api();
  // The extension hears a changed definition a moment later and stops the agent it changed: not after the state is set up.
  await sleep(3_000);
  await client.stopAgents();
  await eventually(() => count('Alpha') + count('Beta') === 0, 'no agent left from before', 15_000);
  return client;
}

/**
 * Puts the chat in `state` with Alpha its agent; returns the conversation shown. With `writes`, the history's turn
 * first writes a file (the change Review Changes and Restore to here act on).
 */
async function enter(state: MatrixState, writes = false): Promise<{ client: AcpClientTestApi; conversation: string | undefined }> {
  if (state === 'no agent configured') {
    const client = await configure({});
    // A chat with nothing in it and no agent: a blank conversation.
    if (client.transcript().entryCount > 0 || client.transcript().agent.phase !== 'none')
      await vscode.commands.executeCommand('acpClient.newSession').then(undefined, () => undefined);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    return { client, conversation: client.shownConversation() };
  }
  // The idle timeout is short only where it is the state (3 s after the last turn).
  const client = await configure(
    { Alpha: agentConfig('Alpha', state), Beta: agentConfig('Beta', state) },
    state === 'stopped by the idle timeout' ? 0.05 : undefined,
  );
  // A blank conversation (beside the earlier ones, which are stopped), then Alpha in it: one conversation runs.
  await vscode.commands.executeCommand('acpClient.newSession');
  await waitFor(client, (s) => s.agent.phase === 'ready' || s.agent.phase === 'needs_auth', 30_000);
  if (!settledOn(client.transcript(), 'Alpha')) await vscode.commands.executeCommand('acpClient.selectAgent', 'Alpha');
  await waitFor(client, (s) => settledOn(s, 'Alpha'), 30_000);
  await eventually(() => count('Alpha') === 1 && count('Beta') === 0, 'only Alpha runs', 15_000);
  if (state === 'sign-in needed') {
    assert.equal(client.transcript().agent.phase, 'needs_auth');
    return { client, conversation: client.shownConversation() };
  }
  if (state === 'starting') {
    // A fresh start of the slow Alpha in the blank conversation: "Starting…" for 6 s.
    await vscode.commands.executeCommand('acpClient.stopAgent');
    await waitFor(client, (s) => s.agent.phase === 'stopped');
    void vscode.commands.executeCommand('acpClient.restartAgent');
    await waitFor(client, (s) => s.agent.phase === 'starting');
    await eventually(() => count('Alpha') === 1, 'Alpha is starting', 15_000);
    return { client, conversation: client.shownConversation() };
  }
  if (state !== 'Ready, nothing said') {
    const asking = state === 'waiting for a permission' ? 'edit' : state === 'waiting for an elicitation' ? 'elicit card' : '';
    if (writes) rmSync(written(), { force: true });
    assert.deepEqual(await client.sendPrompt(`a question for Alpha ${asking}${writes ? ' write' : ''}`), { accepted: true });
    await waitFor(client, (s) => s.turn.phase === 'running');
    if (writes) await waitFor(client, (s) => toolCall(s, 'matrix-write')?.status === 'completed', 20_000);
    if (state === 'waiting for a permission') await waitFor(client, pendingPermission);
    else if (state === 'waiting for an elicitation') await waitFor(client, pendingQuestion);
    else if (state !== 'turn running') {
      // History without waiting the whole answer out: the turn ends as cancelled.
      await vscode.commands.executeCommand('acpClient.cancelTurn');
      await waitFor(client, turnEnded);
      // The turn's change card comes a moment after it ends (the disk settles first): what there is to review.
      if (writes) await waitFor(client, (s) => entriesOf(s).some((entry) => entry.kind === 'changes'), 20_000);
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
  if (state === 'stopped by the idle timeout') {
    await waitFor(client, (s) => s.agent.phase === 'stopped', 20_000);
    await vscode.workspace.getConfiguration('acpClient').update('idleTimeoutMinutes', undefined, vscode.ConfigurationTarget.Global);
  }
  return { client, conversation: client.shownConversation() };
}

/** Runs a command that may open a quick pick, and picks its row `index` (0: the first) as a person would. */
async function withPick(command: Thenable<unknown>, index: number): Promise<unknown> {
  await sleep(3_000);
  for (let step = 0; step < index; step++) await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
  await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  return command;
}

async function run(command: MatrixCommand, client: AcpClientTestApi, before: string | undefined): Promise<unknown> {
  const exec = (id: string, ...args: unknown[]): Thenable<unknown> => vscode.commands.executeCommand(id, ...args);
  switch (command) {
    case 'New Session':
      return exec('acpClient.newSession');
    case 'Select Agent: same':
      return exec('acpClient.selectAgent', 'Alpha');
    case 'Select Agent: another':
      return exec('acpClient.selectAgent', 'Beta');
    case 'Cancel Turn':
      return exec('acpClient.cancelTurn');
    case 'Stop button':
      return client.postFromChat({ type: 'cancel_turn' });
    case 'Stop Agent':
      return exec('acpClient.stopAgent');
    case 'Restart Agent':
      return exec('acpClient.restartAgent');
    case 'Send':
      return client.sendPrompt(SENT);
    case 'Sign In':
      return withPick(exec('acpClient.signIn'), 0);
    case 'Sign Out':
      return exec('acpClient.signOut');
    case 'Select Mode':
      return exec('acpClient.selectMode', 'code');
    case 'Mode picker in the header':
      return client.postFromChat({ type: 'set_mode', modeId: 'code' });
    case 'Change Session Option':
      return exec('acpClient.changeSessionOption', 'model', 'deep');
    case 'Fork':
      return exec('acpClient.forkSession');
    case 'Switch Session':
      // The shown conversation is listed first: the next row is another one.
      return withPick(exec('acpClient.switchSession'), 1);
    case 'Open in Editor':
      return exec('acpClient.openSessionInEditor');
    case 'Delete':
      // The modal's "Delete" answered (a modal cannot be clicked from the extension host).
      return before && client.removeConversation(before);
    case 'Rename': {
      // From its row in Sessions (the tree passes its node); a blank conversation is not listed: a keybinding then.
      const info = client.conversations().find((candidate) => candidate.id === before);
      const renaming = exec('acpClient.renameSession', info?.prompted ? { kind: 'conversation', info } : undefined);
      // The input box opens with the title filled in and selected: the person types over it and presses Enter.
      await sleep(3_000);
      typeInWorkbench([{ press: 'Control+A' }, { type: RENAMED }, { press: 'Enter' }]);
      return renaming;
    }
    case 'Review Changes':
      return exec('acpClient.reviewChanges');
    case 'Restore to here': {
      // The restore control on the first message; its preview picker's first row ("Restore 1 file") chosen.
      const first = entriesOf(client.transcript()).find((entry) => entry.kind === 'message' && entry.role === 'user');
      assert.ok(first?.kind === 'message' && first.turnId !== undefined, 'the first message has its restore control');
      client.postFromChat({ type: 'restore_checkpoint', turnId: first.turnId });
      // The picker comes only where no turn runs; otherwise the person presses nothing (Enter would answer the
      // agent's own question, whose picker may be open).
      if (client.transcript().turn.phase !== 'idle') return sleep(1_000);
      return withPick(Promise.resolve(), 0);
    }
  }
}

const tabLabels = (): string[] => vscode.window.tabGroups.all.flatMap((group) => group.tabs.map((tab) => tab.label));
const editorTabs = (): number =>
  vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith('acpClient.chatPanel')).length;

async function check(
  cell: MatrixCell,
  client: AcpClientTestApi,
  before: string | undefined,
  noticesBefore: number,
  result: unknown,
  phaseBefore: string,
): Promise<void> {
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
    case 'sign_in_here':
      await waitFor(client, (s) => s.agent.phase === 'needs_auth' && s.agent.agentName === 'Alpha', 30_000);
      assert.equal(client.shownConversation(), before, 'the same conversation');
      break;
    case 'explained':
      await waitFor(client, (s) => notices(s).slice(noticesBefore).includes(outcome.title), 10_000);
      if (outcome.action)
        assert.ok(
          entriesOf(client.transcript()).some(
            (entry) => entry.kind === 'notice' && entry.title === outcome.title && entry.action === outcome.action,
          ),
          `the notice offers its ${outcome.action} button`,
        );
      assert.equal(client.shownConversation(), before, 'the same conversation');
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
    case 'answered':
      assert.ok(accepted(result), `the prompt is accepted: ${JSON.stringify(result)}`);
      await waitFor(client, (s) => agentText(s).includes(`You asked: **${SENT}**`) && turnEnded(s), 60_000);
      assert.equal(client.shownConversation(), before);
      break;
    case 'queued':
      assert.ok(accepted(result), `the prompt is accepted: ${JSON.stringify(result)}`);
      await waitFor(client, (s) => (s.queued ?? []).some((queued) => queued.text === SENT), 10_000);
      break;
    case 'refused':
      assert.deepEqual(result, { accepted: false, reason: outcome.reason });
      break;
    case 'mode_set':
      // What the header's mode picker shows (a mode config option, where the agent has one, stands for the modes).
      await waitFor(client, (s) => modePicker(s)?.current === outcome.mode, 10_000);
      break;
    case 'option_set':
      await waitFor(
        client,
        (s) => s.configOptions.some((option) => option.id === outcome.option && option.currentValue === outcome.value),
        10_000,
      );
      break;
    case 'switched':
      await eventually(() => client.shownConversation() !== before, 'another conversation is shown', 10_000);
      break;
    case 'in_editor':
      await eventually(
        () => editorTabs() === 1 && client.shownConversation() !== before,
        'the conversation is in an editor tab, the sidebar on another',
        10_000,
      );
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      break;
    case 'deleted':
      await eventually(
        () => !client.conversations().some((info) => info.id === before) && client.shownConversation() !== before,
        'the conversation is gone and another shown',
        10_000,
      );
      break;
    case 'renamed':
      await eventually(
        () => client.conversations().some((info) => info.id === before && info.title === RENAMED && info.prompted),
        `Sessions lists the conversation as "${RENAMED}": ${JSON.stringify(client.conversations().find((info) => info.id === before))}`,
        10_000,
      );
      assert.equal(client.shownConversation(), before, 'the same conversation');
      break;
    case 'reviewing':
      await eventually(
        () => tabLabels().some((label) => /^Agent changes \(1 file\)/.test(label)),
        'the multi-file diff editor shows the change',
        10_000,
      );
      assert.equal(client.shownConversation(), before, 'the same conversation');
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      break;
    case 'restored':
      await eventually(() => !existsSync(written()), 'the file the agent wrote after the message is gone again', 10_000);
      assert.equal(client.shownConversation(), before, 'the same conversation');
      break;
  }
  // The agent is left as the state had it where the command is not about the agent (a starting one goes on to Ready).
  const aside = cell.command === 'Rename' || cell.command === 'Review Changes' || cell.command === 'Restore to here';
  if (aside && cell.state !== 'starting') assert.equal(client.transcript().agent.phase, phaseBefore, 'the agent is as it was');
  if (cell.command === 'Restore to here' && outcome.kind === 'explained') assert.ok(existsSync(written()), 'no file was touched');
  await eventually(
    () => count('Alpha') === cell.processes.Alpha && count('Beta') === cell.processes.Beta,
    `processes: Alpha ${count('Alpha')} (want ${cell.processes.Alpha}), Beta ${count('Beta')} (want ${cell.processes.Beta})`,
    15_000,
  );
  // No draft lost: what was typed in the conversation before the command is still there (Delete removes it all).
  if (before && outcome.kind !== 'deleted' && cell.command !== 'Send') assert.equal(client.draftOf(before), DRAFT, 'the draft is kept');
}

describe('command matrix: every command from every state', function () {
  this.timeout(150_000);

  after(async () => {
    rmSync(written(), { force: true });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await configure({ Scripted: { command: process.execPath, args: [scriptedAgentPath()], env: { ACP_SCENARIO: 'echo' } } });
  });

  for (const cell of MATRIX) {
    it(`${cell.state} × ${cell.command}: ${cell.sees}`, async function () {
      if (cell.command === 'Rename' && vscode.env.appName !== 'code-server') this.skip(); // keys are typed through the browser
      const { client, conversation } = await enter(cell.state, needsChange(cell.command));
      if (conversation && cell.command !== 'Send')
        client.postFromChat({ type: 'draft_changed', conversationId: conversation, text: DRAFT });
      const noticesBefore = notices(client.transcript()).length;
      const phaseBefore = client.transcript().agent.phase;
      const result = await run(cell.command, client, conversation);
      await check(cell, client, conversation, noticesBefore, result, phaseBefore);
    });
  }
});
