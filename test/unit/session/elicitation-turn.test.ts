/**
 * Elicitations through the real host path against a real scripted agent (official SDK): the question shows where
 * it belongs, the user's answer is what reaches the agent, values the host's check refuses never reach it, and
 * a cancelled turn, a withdrawn request or a foreign session each end it the way the spec says.
 */
import * as assert from 'node:assert/strict';
import { scriptedAgent, type HostHarness } from '../../support/host-harness';
import { HarnessSuite } from '../../support/harness-suite';
import type { ElicitationView } from '../../../src/shared/elicitation-model';
import { entriesOf, toolCallEntry } from '../../../src/shared/selectors';
import type { TranscriptState } from '../../../src/shared/model';

const agentText = (state: TranscriptState): string =>
  entriesOf(state)
    .map((entry) =>
      entry.kind === 'message' && entry.role === 'agent' ? entry.content.map((b) => (b.type === 'text' ? b.text : '')).join('') : '',
    )
    .join('');
const ended = (state: TranscriptState): boolean =>
  state.turn.phase === 'idle' && entriesOf(state).some((entry) => entry.kind === 'turn_end');
const elicitations = (state: TranscriptState): ElicitationView[] =>
  entriesOf(state).flatMap((entry) =>
    (entry.kind === 'elicitation' || entry.kind === 'tool_call') && entry.elicitation ? [entry.elicitation] : [],
  );
const asked = (state: TranscriptState): boolean => elicitations(state).some((view) => view.outcome === undefined);

async function ask(harness: HostHarness, prompt: string): Promise<ElicitationView> {
  await harness.controller.start(scriptedAgent('elicit'));
  assert.deepEqual(await harness.controller.sendPrompt(prompt), { accepted: true });
  const state = await harness.waitFor(asked);
  const view = elicitations(state)[0];
  assert.ok(view);
  return view;
}

describe('elicitations against a real agent process', function () {
  this.timeout(20_000);
  const suite = new HarnessSuite('acp-elicit-');

  it('shows a tool-scoped form on its card, and the accepted values reach the agent typed', async () => {
    const harness = suite.start();
    const view = await ask(harness, 'card');
    const card = toolCallEntry(harness.store.state, 'ask-1');
    assert.equal(card?.elicitation?.requestId, view.requestId, 'the form is on the tool call card');
    assert.ok(!entriesOf(harness.store.state).some((entry) => entry.kind === 'elicitation'), 'not also an entry of its own');
    assert.ok(view.request.mode === 'form');
    assert.deepEqual(
      view.request.form.fields.map((field) => `${field.kind}:${field.name}${field.required ? '*' : ''}`),
      ['text:name*', 'text:email', 'number:replicas', 'choice:region*', 'multi:features', 'boolean:confirm'],
    );
    const result = await harness.controller.answerElicitation(view.requestId, 'accept', {
      name: 'Ada',
      replicas: '3',
      region: 'eu',
      features: ['logs', 'traces'],
      confirm: true,
    });
    assert.deepEqual(result, { ok: true });
    const state = await harness.waitFor(ended);
    assert.equal(
      agentText(state),
      'answer: {"action":"accept","content":{"name":"Ada","replicas":3,"region":"eu","features":["logs","traces"],"confirm":true}}',
    );
    assert.equal(toolCallEntry(state, 'ask-1')?.elicitation?.outcome, 'accepted');
    assert.equal(harness.elicitationPorts.announced.length, 1);
    assert.equal(harness.elicitationPorts.announced[0]?.withdrawn, true, 'the notification is withdrawn once answered');
  });

  it('refuses values that fail the form, sends nothing, and still takes a corrected answer; a second answer is refused', async () => {
    const harness = suite.start();
    const view = await ask(harness, 'alone');
    assert.ok(
      entriesOf(harness.store.state).some((entry) => entry.kind === 'elicitation'),
      'an unscoped form is its own entry',
    );
    const refused = await harness.controller.answerElicitation(view.requestId, 'accept', {
      name: 'A',
      email: 'not-an-email',
      replicas: '9',
      region: 'mars',
      features: ['logs', 'metrics', 'traces'],
    });
    assert.deepEqual(refused, {
      ok: false,
      reason: 'invalid',
      errors: {
        name: 'At least 2 characters.',
        email: 'Not an email address.',
        replicas: 'At most 5.',
        region: 'Choose one of the options.',
        features: 'Choose at most 2.',
      },
    });
    assert.ok(asked(harness.store.state), 'the form still waits');
    assert.deepEqual(await harness.controller.answerElicitation(view.requestId, 'accept', { name: 'Al', region: 'us' }), { ok: true });
    assert.deepEqual(await harness.controller.answerElicitation(view.requestId, 'decline'), { ok: false, reason: 'not_pending' });
    const state = await harness.waitFor(ended);
    assert.equal(agentText(state), 'answer: {"action":"accept","content":{"name":"Al","region":"us"}}');
  });

  it('declines and cancels as the user says', async () => {
    for (const action of ['decline', 'cancel'] as const) {
      const harness = suite.start();
      const view = await ask(harness, 'alone');
      await harness.controller.answerElicitation(view.requestId, action);
      const state = await harness.waitFor(ended);
      assert.equal(agentText(state), `answer: {"action":"${action}"}`);
      assert.equal(elicitations(state)[0]?.outcome, action === 'decline' ? 'declined' : 'cancelled');
      await harness.controller.stop();
    }
  });

  it('URL mode: shows the host, opens only http(s) on the click, and the agent completes it', async () => {
    const harness = suite.start();
    const view = await ask(harness, 'url');
    assert.deepEqual(view.request, {
      mode: 'url',
      url: 'https://login.example.com/device?code=42',
      host: 'login.example.com',
      elicitationId: 'e-1',
    });
    assert.deepEqual(harness.elicitationPorts.opened, [], 'nothing opens before the click');
    assert.deepEqual(await harness.controller.answerElicitation(view.requestId, 'accept'), { ok: true });
    assert.deepEqual(harness.elicitationPorts.opened, ['https://login.example.com/device?code=42']);
    const state = await harness.waitFor(ended);
    assert.equal(agentText(state), 'answer: {"action":"accept"}');
    await harness.waitFor((s) => elicitations(s)[0]?.outcome === 'completed');
  });

  it('cancelling the turn mid-form removes the form and answers cancel', async () => {
    const harness = suite.start();
    await ask(harness, 'alone');
    harness.controller.cancelTurn();
    const state = await harness.waitFor(ended);
    assert.equal(agentText(state), 'answer: {"action":"cancel"}');
    assert.equal(elicitations(state)[0]?.outcome, 'cancelled');
  });

  it("the agent's $/cancel_request withdraws the form and is answered cancel", async () => {
    const harness = suite.start();
    await ask(harness, 'withdraw');
    const state = await harness.waitFor(ended);
    assert.equal(agentText(state), 'answer: {"action":"cancel"}');
    assert.equal(elicitations(state)[0]?.outcome, 'cancelled');
  });

  it('the agent exiting mid-form removes the form (nothing is left to answer)', async () => {
    const harness = suite.start();
    const view = await ask(harness, 'exit');
    const state = await harness.waitFor((s) => s.agent.phase === 'exited' && elicitations(s)[0]?.outcome !== undefined);
    assert.equal(elicitations(state)[0]?.outcome, 'cancelled');
    assert.deepEqual(await harness.controller.answerElicitation(view.requestId, 'accept', { name: 'Ada', region: 'eu' }), {
      ok: false,
      reason: 'not_pending',
    });
  });

  it('a request for a session this client never opened is refused and shows nothing', async () => {
    const harness = suite.start();
    await harness.controller.start(scriptedAgent('elicit'));
    await harness.controller.sendPrompt('foreign');
    const state = await harness.waitFor(ended);
    assert.match(agentText(state), /answer: refused: .*Unknown session not-yours/);
    assert.deepEqual(elicitations(state), []);
    assert.equal(harness.elicitationPorts.announced.length, 0);
  });
});
