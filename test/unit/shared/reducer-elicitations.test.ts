/** Elicitations in the transcript: where the question shows, and that its answer is final. */
import * as assert from 'node:assert/strict';
import type { TranscriptAction } from '../../../src/shared/actions';
import type { ElicitationRequest } from '../../../src/shared/elicitation-model';
import { initialState, reduce } from '../../../src/shared/reducer';
import { entriesOf, toolCallEntry } from '../../../src/shared/selectors';

const form: ElicitationRequest = { mode: 'form', form: { fields: [], unsupported: [] } };
const url: ElicitationRequest = { mode: 'url', url: 'https://a.example/x', host: 'a.example', elicitationId: 'e1' };
const run = (actions: TranscriptAction[]): ReturnType<typeof initialState> => actions.reduce(reduce, initialState());
const toolCall: TranscriptAction = {
  type: 'session_update',
  update: { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Ask', status: 'in_progress' },
};

describe('reducer: elicitations', () => {
  it('puts a question scoped to a shown tool call on its card', () => {
    const state = run([toolCall, { type: 'elicitation_requested', requestId: 'r1', toolCallId: 't1', message: 'Which?', request: form }]);
    assert.deepEqual(toolCallEntry(state, 't1')?.elicitation, { requestId: 'r1', message: 'Which?', request: form });
    assert.equal(entriesOf(state).length, 1, 'no entry of its own');
  });

  it('shows an unscoped question, or one for a tool call never shown, as its own entry (no card is invented)', () => {
    const state = run([
      { type: 'elicitation_requested', requestId: 'r1', message: 'Alone', request: form },
      { type: 'elicitation_requested', requestId: 'r2', toolCallId: 'unseen', message: 'Orphan', request: url },
    ]);
    assert.deepEqual(
      entriesOf(state).map((entry) => (entry.kind === 'elicitation' ? `${entry.key}:${entry.elicitation.message}` : entry.kind)),
      ['elicitation:r1:Alone', 'elicitation:r2:Orphan'],
    );
  });

  it('an answer is final: a later resolution does not change it', () => {
    const asked = run([toolCall, { type: 'elicitation_requested', requestId: 'r1', toolCallId: 't1', message: 'Q', request: form }]);
    const declined = reduce(asked, { type: 'elicitation_resolved', requestId: 'r1', outcome: 'declined' });
    assert.equal(toolCallEntry(declined, 't1')?.elicitation?.outcome, 'declined');
    const again = reduce(declined, { type: 'elicitation_resolved', requestId: 'r1', outcome: 'accepted' });
    assert.equal(again, declined, 'same state object: nothing changed');
  });

  it('a URL opened by the user can still be completed by the agent, and then no more', () => {
    const asked = run([{ type: 'elicitation_requested', requestId: 'r1', message: 'Sign in', request: url }]);
    const opened = reduce(asked, { type: 'elicitation_resolved', requestId: 'r1', outcome: 'accepted' });
    const completed = reduce(opened, { type: 'elicitation_resolved', requestId: 'r1', outcome: 'completed' });
    const [entry] = entriesOf(completed);
    assert.ok(entry?.kind === 'elicitation');
    assert.equal(entry.elicitation.outcome, 'completed');
    assert.equal(reduce(completed, { type: 'elicitation_resolved', requestId: 'r1', outcome: 'cancelled' }), completed);
  });

  it('a resolution for an unknown request changes nothing', () => {
    const state = run([toolCall]);
    assert.equal(reduce(state, { type: 'elicitation_resolved', requestId: 'nope', outcome: 'cancelled' }), state);
  });
});
