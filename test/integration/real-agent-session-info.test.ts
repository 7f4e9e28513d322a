/**
 * Two opt-ins with the real Claude Code ACP agent, offline against the mock Messages API, behind the wire tap:
 * - `session_info_update`: after a turn the agent generates a title (the mock answers its structured title request
 *   with "Mock title") and sends it with the session file's time; the Sessions view labels and ages the
 *   conversation by them.
 * - `$/cancel_request`: the agent is stopped while it is still resuming the conversation's session (its CLI takes
 *   seconds to start); the client sends `$/cancel_request` naming that `session/resume`, the conversation says it
 *   stopped waiting and keeps its transcript.
 */
import * as assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AcpClientTestApi } from '../../src/api';
import { conversationDescription, conversationLabel } from '../../src/editor/sessions-tree-text';
import { entriesOf } from '../../src/shared/selectors';
import { startMockAnthropic, type MockAnthropic } from '../fixtures/mock-anthropic/server';
import { claudeAgentBin, claudeAgentEnv } from '../support/claude-agent';
import { turnEnded, useAgent, waitFor } from './helpers';
import { optInsUsed, readWire, wireTapPath, type WireMessage } from './wire-log';

const AGENT = 'Claude Code (session info)';
const DAY = 24 * 60 * 60 * 1000;

const infoUpdates = (wire: readonly WireMessage[]): Record<string, unknown>[] =>
  wire.flatMap((message) => {
    const update = message.direction === 'from_agent' && message.method === 'session/update' ? message.params?.['update'] : undefined;
    return typeof update === 'object' && update !== null && 'sessionUpdate' in update && update.sessionUpdate === 'session_info_update'
      ? [{ ...update }]
      : [];
  });

async function eventually<T>(probe: () => T | undefined, what: string, timeoutMs: number): Promise<T> {
  for (let waited = 0; waited < timeoutMs; waited += 10) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return assert.fail(`timed out waiting for ${what}`);
}

describe('real agent opt-ins: Claude Code sends session_info_update; a resume given up is cancelled', function () {
  this.timeout(180_000);
  let mock: MockAnthropic | undefined;
  let home: string | undefined;
  let wireLog = '';
  let client: AcpClientTestApi;
  const wire = (): WireMessage[] => readWire(wireLog);

  before(async () => {
    mock = await startMockAnthropic();
    const agentEnv = claudeAgentEnv(mock.url);
    home = agentEnv.home;
    wireLog = path.join(home, 'wire.ndjson');
    const args = [wireTapPath(), wireLog, process.execPath, claudeAgentBin()];
    client = await useAgent(AGENT, { command: process.execPath, args, env: agentEnv.env }, 60_000);
  });

  after(async () => {
    // The README's compatibility table is written from this line (as the other real agents' in real-agent-wire.ts).
    console.log(`      ${AGENT} opt-ins: ${JSON.stringify(optInsUsed(wire()))}`);
    await client.stopAgents();
    await mock?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it("session_info_update: the Sessions view shows the agent's title and ages the conversation by the agent's time", async () => {
    await client.sendPrompt('Explain how the mock kiwi grows');
    await waitFor(client, turnEnded, 90_000);
    const titled = await waitFor(client, (state) => state.title === 'Mock title' && state.agentUpdatedAt !== undefined, 60_000);
    const sent = infoUpdates(wire());
    assert.ok(
      sent.some((update) => update['title'] === 'Mock title' && typeof update['updatedAt'] === 'string'),
      `the agent sent session_info_update with a title and updatedAt: ${JSON.stringify(sent)}`,
    );
    const reported = Date.parse(titled.agentUpdatedAt ?? '');
    assert.ok(!Number.isNaN(reported));
    const info = client.conversations().find((candidate) => candidate.id === client.shownConversation());
    assert.ok(info);
    assert.equal(conversationLabel(info), 'Mock title', 'the Sessions view labels it with the title');
    // The agent's time (its session file), or the prompt if that is later: a few seconds apart at most.
    assert.ok(
      info.updatedAt >= reported && info.updatedAt - reported < 60_000,
      `aged by the agent's time: ${info.updatedAt} vs ${reported}`,
    );
    assert.equal(conversationDescription(info, 0, reported + 3 * DAY + 60_000), `${AGENT} · 3 d`);
  });

  it('$/cancel_request: stopped while the agent resumes the session, the resume is cancelled and the conversation says so', async () => {
    const sessionId = client.transcript().sessionId;
    assert.ok(sessionId);
    await client.stopAgents();
    await waitFor(client, (state) => state.agent.phase === 'stopped', 30_000);
    const before = wire().length;
    const resumes = (): WireMessage[] =>
      wire()
        .slice(before)
        .filter((message) => message.direction === 'to_agent' && message.method === 'session/resume');
    void vscode.commands.executeCommand('acpClient.restartAgent');
    const [resume] = await eventually(() => (resumes().length > 0 ? resumes() : undefined), 'session/resume on the wire', 60_000);
    await vscode.commands.executeCommand('acpClient.stopAgent');
    const answered = wire().find(
      (message) => message.direction === 'from_agent' && message.method === undefined && message.id === resume?.id,
    );
    const cancels = (): WireMessage[] =>
      wire().filter((message) => message.direction === 'to_agent' && message.method === '$/cancel_request');
    const [cancel] = await eventually(
      () => (cancels().length > 0 ? cancels() : undefined),
      `$/cancel_request (the resume ${answered ? 'was answered before the stop' : 'was unanswered at the stop'})`,
      10_000,
    );
    assert.deepEqual(cancel?.params, { requestId: resume?.id }, 'the cancel names the given-up session/resume');
    const state = await waitFor(client, (s) => s.agent.phase === 'stopped', 30_000);
    const notices = entriesOf(state).flatMap((entry) => (entry.kind === 'notice' ? [entry.title] : []));
    assert.ok(
      notices.includes(`Stopped waiting for ${AGENT} to resume the session`),
      `the conversation says so: ${JSON.stringify(notices)}`,
    );
    assert.equal(state.sessionId, sessionId, 'the conversation keeps its session');
    assert.ok(/mock kiwi/.test(JSON.stringify(entriesOf(state))), 'and its transcript');
  });
});
