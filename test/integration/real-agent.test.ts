/**
 * A prompt turn through the real Claude Code ACP agent (`@agentclientprotocol/claude-agent-acp`), offline: the
 * agent talks to a mock Anthropic Messages API started here, in the extension host, and the assertions are
 * about what the user sees in the chat. It never skips: an agent that cannot run fails the test with the reason.
 */
import * as assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { entriesOf } from '../../src/shared/selectors';
import { startMockAnthropic, type MockAnthropic } from '../fixtures/mock-anthropic/server';
import { claudeAgentBin, claudeAgentEnv } from '../support/claude-agent';
import { textOf, turnEnded, useAgent, waitFor } from './helpers';

// The agent needs Node 22+ (its engines field); the extension host's own Node runs it, as it runs the scripted agent.
const MIN_NODE_MAJOR = 22;

describe('a real agent: Claude Code over ACP against a mock Anthropic API', function () {
  // Start-up is about a second on a fast machine; a loaded CI machine with 2 cores can take many times that.
  this.timeout(120_000);
  let mock: MockAnthropic | undefined;
  let home: string | undefined;

  after(async () => {
    await mock?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('runs a whole turn: the prompt reaches the model and its streamed answer reaches the chat', async () => {
    const nodeMajor = Number(process.versions.node.split('.')[0]);
    assert.ok(nodeMajor >= MIN_NODE_MAJOR, `the extension host runs Node ${process.versions.node}; claude-agent-acp needs Node ${MIN_NODE_MAJOR}+`);
    mock = await startMockAnthropic();
    const agentEnv = claudeAgentEnv(mock.url);
    home = agentEnv.home;

    const client = await useAgent('Claude Code (mock API)', { command: process.execPath, args: [claudeAgentBin()], env: agentEnv.env }, 60_000);
    const prompt = 'Say hello to the mock banana';
    assert.deepEqual(await client.sendPrompt(prompt), { accepted: true });
    const state = await waitFor(client, turnEnded, 60_000);

    const entries = entriesOf(state);
    const end = entries.filter((entry) => entry.kind === 'turn_end').pop();
    assert.deepEqual(end?.kind === 'turn_end' && end.outcome, { type: 'stopped', stopReason: 'end_turn' });
    const answer = entries.filter((entry) => entry.kind === 'message' && entry.role === 'agent').map(textOf).join('\n');
    assert.ok(answer.includes(`Mock Claude heard: ${prompt}`), `the agent's message shows the mock's reply; got: ${answer.slice(0, 500)}`);
    const turnRequests = mock.requests.filter((request) => request.method === 'POST' && request.url.startsWith('/v1/messages'));
    assert.ok(turnRequests.some((request) => request.body.includes(prompt)), `the mock received the prompt; requests: ${mock.requests.map((r) => `${r.method} ${r.url}`).join(', ')}`);
  });
});
