/**
 * Prompt turns through the real Claude Code ACP agent (`@agentclientprotocol/claude-agent-acp`), offline: the
 * agent talks to a mock Anthropic Messages API started here, in the extension host, and the assertions are
 * about what the user sees in the chat. It never skips: an agent that cannot run fails the suite with the reason.
 * The two turns share one session, as a user's conversation would.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AcpClientTestApi } from '../../src/api';
import type { ElicitationView } from '../../src/shared/elicitation-model';
import type { TranscriptState } from '../../src/shared/model';
import { entriesOf } from '../../src/shared/selectors';
import { startMockAnthropic, type MockAnthropic } from '../fixtures/mock-anthropic/server';
import { claudeAgentBin, claudeAgentEnv } from '../support/claude-agent';
import { latestToolCall, sleep, textOf, turnEnded, useAgent, waitFor, workspaceRoot } from './helpers';

// The agent needs Node 22+ (its engines field); the extension host's own Node runs it, as it runs the scripted agent.
const MIN_NODE_MAJOR = 22;
// The tool_use id the mock gives its Write call (see test/fixtures/mock-anthropic/reply.ts).
const WRITE_ID = 'toolu_mock_write';

const agentText = (client: AcpClientTestApi): string =>
  entriesOf(client.transcript())
    .filter((entry) => entry.kind === 'message' && entry.role === 'agent')
    .map(textOf)
    .join('\n');

function lastStop(client: AcpClientTestApi): unknown {
  const end = entriesOf(client.transcript())
    .filter((entry) => entry.kind === 'turn_end')
    .pop();
  return end?.kind === 'turn_end' ? end.outcome : undefined;
}

describe('a real agent: Claude Code over ACP against a mock Anthropic API', function () {
  // Start-up is about a second on a fast machine; a loaded CI machine with 2 cores can take many times that.
  this.timeout(120_000);
  let mock: MockAnthropic | undefined;
  let home: string | undefined;
  let client: AcpClientTestApi;

  before(async () => {
    const nodeMajor = Number(process.versions.node.split('.')[0]);
    assert.ok(
      nodeMajor >= MIN_NODE_MAJOR,
      `the extension host runs Node ${process.versions.node}; claude-agent-acp needs Node ${MIN_NODE_MAJOR}+`,
    );
    mock = await startMockAnthropic();
    const agentEnv = claudeAgentEnv(mock.url);
    home = agentEnv.home;
    client = await useAgent('Claude Code (mock API)', { command: process.execPath, args: [claudeAgentBin()], env: agentEnv.env }, 60_000);
  });

  after(async () => {
    await mock?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('runs a whole turn: the prompt reaches the model and its streamed answer reaches the chat', async () => {
    const prompt = 'Say hello to the mock banana';
    assert.deepEqual(await client.sendPrompt(prompt), { accepted: true });
    await waitFor(client, turnEnded, 60_000);

    assert.deepEqual(lastStop(client), { type: 'stopped', stopReason: 'end_turn' });
    const answer = agentText(client);
    assert.ok(answer.includes(`Mock Claude heard: ${prompt}`), `the agent's message shows the mock's reply; got: ${answer.slice(0, 500)}`);
    const received = mock?.requests.filter((request) => request.method === 'POST' && request.url.startsWith('/v1/messages')) ?? [];
    assert.ok(
      received.some((request) => request.body.includes(prompt)),
      `the mock received the prompt; requests: ${mock?.requests.map((r) => `${r.method} ${r.url}`).join(', ')}`,
    );
  });

  it('shows its Write tool call, asks permission in VS Code and writes the file once allowed', async () => {
    const file = path.join(workspaceRoot(), 'claude-mock-note.txt');
    try {
      assert.deepEqual(await client.sendPrompt(`write ${file} with hello from the mock`), { accepted: true });
      await waitFor(client, (state) => latestToolCall(state, WRITE_ID)?.status === 'awaiting_permission', 60_000);
      const card = latestToolCall(client.transcript(), WRITE_ID);
      assert.equal(card?.toolKind, 'edit');
      assert.match(card?.title ?? '', /claude-mock-note\.txt/);
      assert.equal(card?.permission?.options[0]?.name, 'Yes', 'Claude Code offers "Yes" first');
      assert.equal(existsSync(file), false, 'nothing is written before the user allows it');
      // The quick pick lists the agent's options in order: accepting the first is "Yes".
      await sleep(500);
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');

      await waitFor(client, turnEnded, 60_000);
      assert.equal(latestToolCall(client.transcript(), WRITE_ID)?.status, 'completed');
      assert.deepEqual(latestToolCall(client.transcript(), WRITE_ID)?.permissionOutcome, { optionId: 'allow-once', name: 'Yes' });
      assert.deepEqual(lastStop(client), { type: 'stopped', stopReason: 'end_turn' });
      // Claude Code writes the file itself rather than through the client's fs/write_text_file.
      assert.equal(readFileSync(file, 'utf8'), 'hello from the mock');
      assert.match(agentText(client), /Mock Claude saw the tool result: File created successfully/);
    } finally {
      rmSync(file, { force: true });
    }
  });

  it('turns its AskUserQuestion tool into a form in the chat, and the answer reaches the model', async () => {
    assert.deepEqual(await client.sendPrompt('ask Which colour?'), { accepted: true });
    const asked = await waitFor(client, (state) => pendingQuestion(state) !== undefined, 60_000);
    const question = pendingQuestion(asked);
    assert.ok(question?.request.mode === 'form');
    assert.equal(question.message, 'Which colour?');
    const choice = question.request.form.fields.find((field) => field.kind === 'choice');
    assert.ok(choice?.kind === 'choice', 'a single choice for the question');
    assert.deepEqual(
      choice.options.map((option) => option.label),
      ['Red', 'Blue'],
    );
    client.answerElicitation({ requestId: question.requestId, action: 'accept', values: { [choice.name]: 'Blue' } });
    await waitFor(client, turnEnded, 60_000);
    assert.match(agentText(client), /Mock Claude saw the tool result: .*Blue/s);
  });
});

function pendingQuestion(state: TranscriptState): ElicitationView | undefined {
  for (const entry of entriesOf(state)) {
    const view = entry.kind === 'elicitation' || entry.kind === 'tool_call' ? entry.elicitation : undefined;
    if (view && view.outcome === undefined) return view;
  }
  return undefined;
}
