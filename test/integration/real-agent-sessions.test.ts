/**
 * The real Claude Code ACP agent's own sessions, offline against the mock Messages API: a conversation whose agent
 * stopped continues with session/resume (the model gets the earlier turn), the agent's sessions are listed
 * (session/list) and one is opened with its history replayed (session/load), a conversation is forked
 * (session/fork), and deleting it deletes the agent's copy (session/delete).
 */
import * as assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import * as vscode from 'vscode';
import type { AcpClientTestApi } from '../../src/api';
import { entriesOf } from '../../src/shared/selectors';
import type { TranscriptState } from '../../src/shared/model';
import { startMockAnthropic, type MockAnthropic } from '../fixtures/mock-anthropic/server';
import { claudeAgentBin, claudeAgentEnv } from '../support/claude-agent';
import { sleep, textOf, turnEnded, useAgent, waitFor } from './helpers';

const transcriptText = (state: TranscriptState | undefined): string => (state ? entriesOf(state).map(textOf).join('\n') : '');

describe("a real agent's own sessions: Claude Code over ACP (resume, list, load, fork, delete)", function () {
  this.timeout(180_000);
  let mock: MockAnthropic | undefined;
  let home: string | undefined;
  let client: AcpClientTestApi;
  const modelRequests = (): string[] =>
    mock?.requests
      .filter((request) => request.method === 'POST' && request.url.startsWith('/v1/messages'))
      .map((request) => request.body) ?? [];

  before(async () => {
    mock = await startMockAnthropic();
    const agentEnv = claudeAgentEnv(mock.url);
    home = agentEnv.home;
    client = await useAgent('Claude Code (sessions)', { command: process.execPath, args: [claudeAgentBin()], env: agentEnv.env }, 60_000);
  });

  after(async () => {
    await client.stopAgents();
    await mock?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('a conversation whose agent stopped continues its session: the next prompt resumes it and the model gets the earlier turn', async () => {
    // An agent idle this long (0.6 s) is stopped, as after a reload its conversation is "not running".
    const settings = vscode.workspace.getConfiguration('acpClient');
    await settings.update('idleTimeoutMinutes', 0.01, vscode.ConfigurationTarget.Global);
    try {
      await client.sendPrompt('Remember the word pineapple');
      await waitFor(client, turnEnded, 60_000);
      await waitFor(client, (state) => state.agent.phase === 'stopped', 30_000);
    } finally {
      await settings.update('idleTimeoutMinutes', undefined, vscode.ConfigurationTarget.Global);
    }
    const sessionId = client.transcript().sessionId;
    const before = modelRequests().length;
    assert.deepEqual(await client.sendPrompt('What word did I ask you to remember?'), { accepted: true, queued: true });
    await waitFor(
      client,
      (state) => state.turn.phase === 'idle' && entriesOf(state).filter((entry) => entry.kind === 'turn_end').length === 2,
      90_000,
    );
    assert.equal(client.transcript().sessionId, sessionId, 'the same ACP session continues');
    const asked = modelRequests().slice(before);
    assert.ok(
      asked.some((body) => body.includes('pineapple') && body.includes('What word did I ask you to remember?')),
      'the model received the earlier turn with the new prompt',
    );
    assert.ok(
      !entriesOf(client.transcript()).some((entry) => entry.kind === 'notice' && /cannot continue|could not continue/.test(entry.title)),
    );
    const userPrompts = entriesOf(client.transcript())
      .filter((entry) => entry.kind === 'message' && entry.role === 'user')
      .map(textOf);
    assert.deepEqual(userPrompts, ['Remember the word pineapple', 'What word did I ask you to remember?'], 'nothing doubled');
  });

  it("lists the agent's sessions this workspace does not hold, and opens one with its history replayed", async () => {
    // A second conversation, then forgotten here (its agent stopped first, so the agent keeps its copy).
    await vscode.commands.executeCommand('acpClient.newSession');
    await waitFor(client, (state) => state.agent.phase === 'ready', 60_000).catch((error: unknown) => {
      throw new Error(
        `${String(error)}\nagent: ${JSON.stringify(client.transcript().agent)} shown ${client.shownConversation()} all ${JSON.stringify(client.conversations())}`,
      );
    });
    await client.sendPrompt('Talk about the mock mango');
    await waitFor(client, turnEnded, 60_000);
    const forgotten = client.transcript().sessionId;
    const forgottenConversation = client.shownConversation();
    assert.ok(forgotten && forgottenConversation);
    await client.stopAgents();
    await client.removeConversation(forgottenConversation);
    // Listing needs a running agent: the first conversation's.
    await client.sendPrompt('Hello again');
    await waitFor(client, (state) => state.agent.phase === 'ready' && state.turn.phase === 'idle', 90_000);

    const listed = await client.agentSessions();
    assert.ok(
      listed.some((session) => session.sessionId === forgotten),
      `session/list offers the forgotten session; got ${JSON.stringify(listed)}`,
    );
    assert.ok(!listed.some((session) => session.sessionId === client.transcript().sessionId), 'a session held here is not listed again');
    await vscode.commands.executeCommand('acpClient.openAgentSession', 'Claude Code (sessions)', forgotten, 'The mango talk');
    const loaded = await waitFor(client, (state) => state.agent.phase === 'ready' && /mock mango/.test(transcriptText(state)), 90_000);
    assert.equal(loaded.sessionId, forgotten);
    assert.equal(loaded.title, 'The mango talk');
    assert.match(transcriptText(loaded), /Mock Claude heard: Talk about the mock mango/, "the agent's answer is replayed too");
  });

  it('forks a conversation into a new one on the forked session, and deleting it deletes the agent’s copy', async () => {
    const source = client.shownConversation();
    assert.ok(source);
    await vscode.commands.executeCommand('acpClient.forkSession', source);
    await waitFor(client, (state) => client.shownConversation() !== source && state.agent.phase === 'ready', 90_000);
    const fork = client.shownConversation();
    const forkSession = client.transcript().sessionId;
    assert.ok(fork && forkSession);
    assert.notEqual(forkSession, client.transcriptOf(source)?.sessionId, 'a new ACP session');
    assert.match(client.transcript().title ?? '', /\(fork\)$/);
    await sleep(500);
    assert.match(transcriptText(client.transcript()), /mock mango/, 'the fork carries the history');

    await client.removeConversation(fork);
    const listed = await client.agentSessions();
    assert.ok(!listed.some((session) => session.sessionId === forkSession), 'session/delete removed the agent’s copy');
    assert.ok(!client.conversations().some((info) => info.id === fork));
  });
});
