/**
 * The fault matrix in the real VS Code: every fault of test/support/fault-cases.ts (the same list the unit suite
 * runs on the host path) through the installed extension, its settings, its commands and the chat's own messages.
 * Each fault gets a conversation with an earlier exchange and an unsent draft; the user's agent then turns faulty
 * (its settings changed, as when an agent is upgraded), the fault is driven as a user would, and afterwards: the
 * earlier transcript is intact, the draft is intact, a canary outside the workspace was neither read nor written,
 * the agent fixed and started again answers the next prompt, and no process of the faulty agent is left.
 */
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AcpClientTestApi } from '../../src/api';
import type { TranscriptState } from '../../src/shared/model';
import { entriesOf } from '../../src/shared/selectors';
import { agentText, FAULTS, turnEnds, type FaultChat } from '../support/fault-cases';
import { reportOf, runFault } from '../support/fault-run';
import { eventually, processesMarked } from '../support/processes';
import { scriptedAgentPath } from '../support/repo-root';
import { api, waitFor, workspaceRoot } from './helpers';

const AGENT = 'Raw';
const SECRET = 'CANARY-SECRET-do-not-read';
const DRAFT = 'a thought not sent yet: \u00e9\u00e8 \u{1F600}';
const OLD = new Date('2001-01-01T00:00:00Z');

/** The user's one agent, healthy (`none`) or with a fault; each configuration its own marker in its environment. */
async function configureAgent(fault: string, env: Record<string, string>): Promise<void> {
  const agent = {
    command: process.execPath,
    args: [path.join(path.dirname(scriptedAgentPath()), 'raw-agent.mjs')],
    env: { ACP_RAW_FAULT: fault, ...env },
  };
  await vscode.workspace.getConfiguration('acpClient').update('agents', { [AGENT]: agent }, vscode.ConfigurationTarget.Global);
}

const settledAfterStop = (state: TranscriptState): boolean =>
  state.turn.phase === 'idle' && ['stopped', 'exited', 'none'].includes(state.agent.phase);

/** The chat as a user drives it here: Select Agent, the prompt, Cancel Turn, and the chat's own buttons. */
function vscodeChat(client: AcpClientTestApi): FaultChat {
  return {
    state: () => client.transcript(),
    waitFor: (predicate, timeoutMs) => waitFor(client, predicate, timeoutMs),
    // Select Agent on the conversation's own agent starts it in place when it is not running.
    startAgent: async () => void (await vscode.commands.executeCommand('acpClient.selectAgent', AGENT)),
    sendPrompt: (text) => client.sendPrompt(text),
    cancelTurn: () => void vscode.commands.executeCommand('acpClient.cancelTurn'),
    stopAgent: async () => {
      client.postFromChat({ type: 'stop_agent' });
      await waitFor(client, settledAfterStop);
    },
    retryStart: () => client.postFromChat({ type: 'retry_start' }),
    answerPermission: async (optionId) => {
      // The card's button (the dialog is open too and closes with the answer); a refused request shows no card.
      const asking = (state: TranscriptState) =>
        entriesOf(state).flatMap((entry) => (entry.kind === 'tool_call' && entry.permission ? [entry.permission.requestId] : []));
      const state = await waitFor(client, (s) => asking(s).length > 0 || s.turn.phase === 'idle');
      const answered = new Set<string>();
      const answer = (ids: readonly string[]): void => {
        for (const requestId of ids.filter((id) => !answered.has(id))) {
          answered.add(requestId);
          client.postFromChat({ type: 'permission_answer', requestId, optionId });
        }
      };
      answer(asking(state));
      // An agent may ask again in the same turn (a second request, announced or not): each gets the same answer.
      const more = (s: TranscriptState) => asking(s).some((id) => !answered.has(id));
      while (answered.size > 0) {
        const next = await waitFor(client, (s) => more(s) || s.turn.phase === 'idle', 3_000).catch(() => undefined);
        if (next === undefined || !more(next)) return;
        answer(asking(next));
      }
    },
  };
}

describe('fault matrix in VS Code: nothing wedges, nothing leaks, nothing spoofs', function () {
  this.timeout(90_000);
  let canaryDir = '';
  let canary = '';
  let conversation: string | undefined;
  let workspaceBefore: ReadonlySet<string> = new Set();

  before(async () => {
    const config = vscode.workspace.getConfiguration('acpClient');
    await config.update('defaultAgent', AGENT, vscode.ConfigurationTarget.Global);
    await config.update('startupTimeoutSeconds', 2, vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    const client = await api();
    await client.stopAgents();
    await vscode.workspace.getConfiguration('acpClient').update('startupTimeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
  });

  beforeEach(() => {
    canaryDir = realpathSync(mkdtempSync(path.join(tmpdir(), 'acp-canary-')));
    canary = path.join(canaryDir, 'canary.txt');
    writeFileSync(canary, SECRET);
    // atime and mtime in the past: under relatime any read moves the atime.
    utimesSync(canary, OLD, OLD);
    workspaceBefore = new Set(readdirSync(workspaceRoot()));
  });
  afterEach(async () => {
    const client = await api();
    await client.stopAgents();
    if (conversation) await client.removeConversation(conversation);
    conversation = undefined;
    rmSync(canaryDir, { recursive: true, force: true });
    // What a fault left in the workspace (a symlink to the canary, a sparse 200 MB file) goes with it.
    for (const name of readdirSync(workspaceRoot()))
      if (!workspaceBefore.has(name)) rmSync(path.join(workspaceRoot(), name), { recursive: true, force: true });
  });

  for (const fault of FAULTS) {
    it(`${fault.fault}: ${fault.sees}`, async () => {
      const client = await api();
      await client.stopAgents();
      await configureAgent('none', { ACP_TEST_MARK: randomUUID() });
      await vscode.commands.executeCommand('acpClient.newSession');
      const id = client.shownConversation();
      assert.ok(id);
      conversation = id;
      await waitFor(client, (s) => s.agent.phase === 'ready');
      assert.deepEqual(await client.sendPrompt('earlier words'), { accepted: true });
      const before = await waitFor(client, (s) => s.turn.phase === 'idle' && /echo: earlier words/.test(agentText(s)));
      const earlier = JSON.stringify(entriesOf(before));
      // Typed in the composer: the webview reports the draft as it does while the user types.
      client.postFromChat({ type: 'draft_changed', conversationId: id, text: DRAFT });
      assert.equal(client.draftOf(id), DRAFT);

      // The agent turns faulty (its settings changed) and is started again in the same conversation.
      await client.stopAgents();
      const marker = randomUUID();
      await configureAgent(fault.fault, { ACP_TEST_MARK: marker, ACP_RAW_OUTSIDE: canary });
      const chat = vscodeChat(client);
      const state = await runFault(chat, fault);
      await fault.check({ chat, state, report: reportOf(state) });

      assert.equal(client.shownConversation(), id, 'the chat still shows the conversation');
      const entriesNow = JSON.stringify(entriesOf(client.transcript()));
      assert.ok(entriesNow.startsWith(earlier.slice(0, -1)), 'the earlier exchange is unchanged at the head of the transcript');
      assert.equal(client.draftOf(id), DRAFT, 'the unsent draft is intact');
      // stat before reading it ourselves: our own read would move its atime.
      const seen = statSync(canary);
      assert.equal(seen.mtimeMs, OLD.getTime(), 'canary not written');
      assert.equal(seen.atimeMs, OLD.getTime(), 'canary not read');
      assert.equal(readFileSync(canary, 'utf8'), SECRET);
      assert.ok(!entriesNow.includes(SECRET), 'the canary text is nowhere in the transcript');

      // The agent fixed and started again answers the next prompt in the same conversation.
      await client.stopAgents();
      await configureAgent('none', { ACP_TEST_MARK: randomUUID() });
      await chat.startAgent();
      const ends = turnEnds(client.transcript()).length;
      assert.deepEqual(await client.sendPrompt('after the fault'), { accepted: true });
      const after = await waitFor(client, (s) => s.turn.phase === 'idle' && turnEnds(s).length === ends + 1);
      assert.match(agentText(after), /echo: after the fault/);
      assert.equal(client.draftOf(id), DRAFT, 'the draft is still there after the restart');
      // No process of the faulty agent, nor anything it started, is left.
      await eventually(
        () => processesMarked(marker).length === 0,
        `faulty agent processes left: ${processesMarked(marker).join(',')}`,
        5000,
      );
    });
  }
});
