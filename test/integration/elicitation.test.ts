/**
 * An agent's form in a real VS Code: the scripted agent asks through `elicitation/create`, the extension shows
 * it on the tool call's card, and the answer goes the chat's way (intent -> controller -> broker's check) to the
 * agent, which says what it received. A value the host's check refuses never reaches the agent.
 */
import * as assert from 'node:assert/strict';
import { entriesOf } from '../../src/shared/selectors';
import { textOf, toolCall, useScriptedAgent, waitFor } from './helpers';

describe('elicitation in a real VS Code', function () {
  this.timeout(60_000);

  it('answers a form shown on its tool call card, after the host refused an invalid answer', async () => {
    const client = await useScriptedAgent('elicit');
    assert.deepEqual(await client.sendPrompt('card'), { accepted: true });
    const asked = await waitFor(
      client,
      (state) => toolCall(state, 'ask-1')?.elicitation?.outcome === undefined && !!toolCall(state, 'ask-1')?.elicitation,
    );
    const requestId = toolCall(asked, 'ask-1')?.elicitation?.requestId;
    assert.ok(requestId);
    client.answerElicitation({ requestId, action: 'accept', values: { name: 'A', region: 'eu' } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(toolCall(client.transcript(), 'ask-1')?.elicitation?.outcome, undefined, 'the refused answer left the form waiting');
    client.answerElicitation({ requestId, action: 'accept', values: { name: 'Ada', region: 'eu', replicas: '4' } });
    const done = await waitFor(
      client,
      (state) => state.turn.phase === 'idle' && entriesOf(state).some((entry) => entry.kind === 'turn_end'),
    );
    assert.equal(toolCall(done, 'ask-1')?.elicitation?.outcome, 'accepted');
    const said = entriesOf(done)
      .filter((entry) => entry.kind === 'message' && entry.role === 'agent')
      .map(textOf)
      .join('');
    assert.equal(said, 'answer: {"action":"accept","content":{"name":"Ada","replicas":4,"region":"eu"}}');
  });
});
