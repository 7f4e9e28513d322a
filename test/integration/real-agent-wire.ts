/**
 * Checks of a real agent's suite that need the wire itself (recorded by test/support/wire-tap.ts), run after the
 * suite's turns: every request the agent sent us was answered, requests outside ACP got "method not found" while
 * the turns went on, and every permission request (announced or not) has its card in the chat.
 */
import * as assert from 'node:assert/strict';
import { ErrorCodes } from 'vscode-jsonrpc';
import { toolCall } from './helpers';
import type { RealAgentContext, RealAgentProfile } from './real-agent-suite';
import { answerTo, optInsUsed, permissionRequests, requestsFromAgent } from './wire-log';

export function describeWireTests(profile: RealAgentProfile, context: RealAgentContext): void {
  it('answers every request the agent sent; requests outside ACP get "method not found" and the turns went on', () => {
    const wire = context.wire();
    const requests = requestsFromAgent(wire);
    assert.ok(requests.length > 0, 'the agent asked things of the client (reads, writes, permissions)');
    const unanswered = requests.filter((request) => request.id !== undefined && answerTo(wire, request.id) === undefined);
    assert.deepEqual(unanswered, [], 'no request of the agent is left without an answer');
    for (const vendor of profile.vendorRequests ?? []) {
      const sent = requests.filter((request) => request.method === vendor);
      assert.ok(sent.length > 0, `${profile.name} sent ${vendor} (its quirk this test pins)`);
      for (const request of sent)
        assert.equal(
          request.id !== undefined ? answerTo(wire, request.id)?.error?.code : undefined,
          ErrorCodes.MethodNotFound,
          `${vendor} is answered "method not found"`,
        );
    }
  });

  it('every permission request, for a tool call announced or not, shows its card with the answer', () => {
    const asked = permissionRequests(context.wire());
    assert.ok(asked.length > 0, 'the suite saw permission requests');
    if (profile.asksForUnannouncedToolCalls)
      assert.ok(
        asked.some((request) => !request.announced),
        `${profile.name} asked permission for a tool call it never announced (the quirk this test pins)`,
      );
    const state = context.client().transcript();
    for (const { toolCallId } of asked) {
      const card = toolCall(state, toolCallId);
      assert.ok(card, `a card for ${toolCallId}`);
      assert.ok(card.permissionOutcome !== undefined, `the card of ${toolCallId} shows how it was answered: ${JSON.stringify(card)}`);
    }
  });

  it('initialize carries clientInfo and the notices/compaction opt-ins; the opt-ins the agent used are reported', () => {
    const wire = context.wire();
    const initialize = wire.find((m) => m.direction === 'to_agent' && m.method === 'initialize');
    const clientInfo = initialize?.params?.['clientInfo'];
    assert.ok(
      typeof clientInfo === 'object' && clientInfo !== null && 'name' in clientInfo && 'version' in clientInfo,
      'clientInfo with name and version',
    );
    const capabilities = initialize?.params?.['clientCapabilities'];
    assert.ok(typeof capabilities === 'object' && capabilities !== null && 'session' in capabilities);
    assert.deepEqual(capabilities.session, { notices: {}, compaction: {} });
    // The README's compatibility table is written from these lines (one per agent in CI).
    console.log(`      ${profile.name} opt-ins: ${JSON.stringify(optInsUsed(wire))}`);
  });
}
