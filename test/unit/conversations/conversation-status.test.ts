/** The status the Sessions view shows for a conversation, derived from its transcript and its open questions. */
import * as assert from 'node:assert/strict';
import { conversationStatus } from '../../../src/conversations/conversation-status';
import type { TranscriptAction } from '../../../src/shared/actions';
import { initialState, reduce } from '../../../src/shared/reducer';

const ready: TranscriptAction = { type: 'agent_status', status: { phase: 'ready', agentName: 'A' } };
const prompt = (turnId: string): TranscriptAction => ({ type: 'prompt_sent', turnId, content: [{ type: 'text', text: 'hi' }] });
const stateAfter = (...actions: TranscriptAction[]) => actions.reduce(reduce, initialState());

describe('conversation status', () => {
  it('reads running, waiting for the user, idle and "last turn failed" from the transcript', () => {
    assert.equal(conversationStatus(stateAfter(ready, prompt('t1')), 0), 'running');
    assert.equal(conversationStatus(stateAfter(ready, prompt('t1')), 1), 'waiting');
    assert.equal(
      conversationStatus(stateAfter(ready, prompt('t1'), { type: 'turn_ended', turnId: 't1', stopReason: 'end_turn' }), 0),
      'idle',
    );
    const failed = stateAfter(ready, prompt('t1'), { type: 'turn_failed', turnId: 't1', message: 'boom' });
    assert.equal(conversationStatus(failed, 0), 'error');
    // A later turn that went well clears it.
    const recovered = [prompt('t2'), { type: 'turn_ended', turnId: 't2', stopReason: 'end_turn' } as const].reduce(reduce, failed);
    assert.equal(conversationStatus(recovered, 0), 'idle');
  });

  it('says exited, not running, sign-in needed and starting from the agent', () => {
    assert.equal(
      conversationStatus(stateAfter({ type: 'agent_status', status: { phase: 'exited', agentName: 'A', exitCode: 1 } }), 0),
      'exited',
    );
    assert.equal(conversationStatus(stateAfter({ type: 'agent_status', status: { phase: 'stopped', agentName: 'A' } }), 0), 'stopped');
    assert.equal(
      conversationStatus(stateAfter({ type: 'agent_status', status: { phase: 'needs_auth', agentName: 'A', methods: [] } }), 0),
      'sign_in',
    );
    assert.equal(conversationStatus(stateAfter({ type: 'agent_status', status: { phase: 'starting', agentName: 'A' } }), 0), 'starting');
  });
});
