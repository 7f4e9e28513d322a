/**
 * Real-agent checks only some profiles take: a shell command run through the agent's own shell tool (asked,
 * run, its output on the card), and sign-out (ACP `logout` from "ACP: Sign Out", then a fresh start that works).
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ToolCallContent } from '../../src/shared/content';
import { waitFor } from './helpers';
import type { RealAgentContext, RealAgentProfile } from './real-agent-suite';
import { runTurn } from './real-agent-turns';

const textOfContent = (content: readonly ToolCallContent[]): string =>
  content.map((item) => (item.type === 'content' && item.content.type === 'text' ? item.content.text : '')).join('\n');

export function describeShellTest(profile: RealAgentProfile, context: RealAgentContext): void {
  const shell = profile.shell;
  if (!shell) return;
  it('runs a shell command once allowed: the card is an execute card that shows its output', async () => {
    context.script(shell('echo shell-said-$((6*7))'), { type: 'text', text: 'Mock ran it.' });
    const turn = await runTurn(context.client(), 'Run the echo', 'allow');
    context.timings.push(`shell ${turn.ms} ms`);
    assert.equal(turn.permissions.length, 1, 'it asked before running the command');
    const card = turn.toolCalls.at(-1);
    assert.equal(card?.toolKind, 'execute', JSON.stringify(turn.toolCalls));
    assert.equal(card?.status, 'completed');
    assert.match(textOfContent(card?.content ?? []), /shell-said-42/, `the command's output shows: ${JSON.stringify(card?.content)}`);
    assert.match(JSON.stringify(context.mock().turnRequests().at(-1)), /shell-said-42/, 'and reached the model');
  });
}

export function describeSignOutTest(profile: RealAgentProfile, context: RealAgentContext): void {
  if (!profile.signsOut) return;
  it('signs out with its ACP logout ("ACP: Sign Out"), then starts afresh and answers again', async () => {
    const client = context.client();
    const before = client.transcript().agent;
    assert.equal(before.phase, 'ready');
    await vscode.commands.executeCommand('acpClient.signOut');
    const wire = context.wire();
    const logout = wire.find((m) => m.direction === 'to_agent' && m.method === 'logout');
    assert.ok(logout?.id !== undefined, 'the client sent logout');
    const answer = wire.find((m) => m.direction === 'from_agent' && m.method === undefined && m.id === logout.id);
    assert.ok(answer, 'the agent answered it');
    assert.equal(answer.error, undefined, `logout succeeded: ${JSON.stringify(answer)}`);
    await waitFor(client, (state) => state.agent.phase === 'ready', 90_000);
    const initializes = context.wire().filter((m) => m.direction === 'to_agent' && m.method === 'initialize');
    assert.equal(initializes.length, 2, 'a fresh process was started after the sign-out');
    context.script({ type: 'text', text: 'Mock after sign-out.' });
    const turn = await runTurn(client, 'Still there?');
    assert.match(turn.agentText, /Mock after sign-out\./);
  });
}
