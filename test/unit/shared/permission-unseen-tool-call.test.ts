/**
 * Gemini CLI asks permission for an edit before it sends any `tool_call` for it: the request alone must put a
 * card on screen (title, kind, locations, the options), and the updates that follow land on that same card.
 */
import * as assert from 'node:assert/strict';
import type { TranscriptAction } from '../../../src/shared/actions';
import { initialState, reduce } from '../../../src/shared/reducer';
import { entriesOf } from '../../../src/shared/selectors';

const run = (actions: TranscriptAction[]): ReturnType<typeof initialState> => actions.reduce(reduce, initialState());

describe('reducer: a permission request for a tool call not seen before', () => {
  it('creates the card from the request, awaiting the answer, and later updates patch that card', () => {
    const options = [
      { optionId: 'proceed_once', name: 'Allow', kind: 'allow_once' as const },
      { optionId: 'cancel', name: 'Reject', kind: 'reject_once' as const },
    ];
    const asked = run([
      {
        type: 'permission_requested',
        requestId: 'perm-1',
        toolCallId: 'replace__call_1',
        toolCall: { title: 'notes.txt: beta => BETA', kind: 'edit', locations: [{ path: '/w/notes.txt' }] },
        options,
      },
    ]);
    const [card] = entriesOf(asked);
    assert.ok(card?.kind === 'tool_call');
    assert.equal(card.toolCallId, 'replace__call_1');
    assert.equal(card.title, 'notes.txt: beta => BETA');
    assert.equal(card.toolKind, 'edit');
    assert.deepEqual(card.locations, [{ path: '/w/notes.txt' }]);
    assert.equal(card.status, 'awaiting_permission');
    assert.deepEqual(
      card.permission?.options.map((option) => option.name),
      ['Allow', 'Reject'],
    );

    const done = [
      { type: 'permission_resolved', requestId: 'perm-1', outcome: { optionId: 'proceed_once' } },
      { type: 'session_update', update: { sessionUpdate: 'tool_call_update', toolCallId: 'replace__call_1', status: 'completed' } },
    ] as const satisfies readonly TranscriptAction[];
    const after = done.reduce(reduce, asked);
    assert.equal(entriesOf(after).length, 1, 'one card, not two');
    const [finished] = entriesOf(after);
    assert.ok(finished?.kind === 'tool_call' && finished.status === 'completed');
    assert.deepEqual(finished.permissionOutcome, { optionId: 'proceed_once', name: 'Allow' });
  });
});
