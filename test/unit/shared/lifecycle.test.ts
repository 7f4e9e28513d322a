/**
 * The lifecycle table, row by row: every state against every event, the expected cell written out here as the spec
 * (a dash is an illegal transition, refused with a reason and leaving the state as it was).
 */
import * as assert from 'node:assert/strict';
import {
  advance,
  LIFECYCLE_EVENTS,
  LIFECYCLE_STATES,
  lifecycleOf,
  type LifecycleEvent,
  type LifecycleState,
} from '../../../src/shared/lifecycle';

// Columns: start stop session_opened auth_required start_refused start_failed prompt_sent cancel question_asked
//          questions_answered turn_ended stopped process_exited
const SPEC: Readonly<Record<LifecycleState, string>> = {
  no_agent: 'starting not_running - - - - - - - - - - -',
  starting: 'starting stopping ready sign_in_needed not_running exited - - - - - - exited',
  sign_in_needed: 'starting stopping ready sign_in_needed - exited - - - - - - exited',
  ready: 'starting stopping ready sign_in_needed - - turn_running - waiting_for_user - - - exited',
  turn_running: 'starting stopping - sign_in_needed - - - cancelling waiting_for_user - ready - exited',
  cancelling: 'starting stopping - sign_in_needed - - - - cancelling cancelling ready - exited',
  waiting_for_user: 'starting stopping - sign_in_needed - - - cancelling waiting_for_user turn_running ready - exited',
  stopping: 'starting stopping - - - - - - - - - not_running not_running',
  exited: 'starting not_running - - - exited - - - - - - -',
  not_running: 'starting not_running - - - - - - - - - - -',
};

describe('lifecycle table', () => {
  for (const state of LIFECYCLE_STATES) {
    const cells = SPEC[state].split(' ');
    it(`${state}: every event leads where the table says, or is refused`, () => {
      assert.equal(cells.length, LIFECYCLE_EVENTS.length);
      LIFECYCLE_EVENTS.forEach((event: LifecycleEvent, index) => {
        const expected = cells[index];
        const transition = advance(state, event);
        if (expected === '-') {
          assert.equal(transition.ok, false, `${state} × ${event} must be refused`);
          assert.equal(transition.state, state, 'a refused event changes nothing');
          if (!transition.ok) assert.match(transition.reason, new RegExp(`^${event} is not allowed`));
        } else assert.deepEqual(transition, { ok: true, state: expected }, `${state} × ${event}`);
      });
    });
  }

  it('reads the state a transcript shows from its agent, its turn and the open questions', () => {
    const ready = { phase: 'ready', agentName: 'A' } as const;
    assert.equal(lifecycleOf({ agent: { phase: 'none' }, turn: { phase: 'idle' } }), 'no_agent');
    assert.equal(lifecycleOf({ agent: { phase: 'starting', agentName: 'A' }, turn: { phase: 'idle' } }), 'starting');
    assert.equal(lifecycleOf({ agent: { phase: 'needs_auth', agentName: 'A', methods: [] }, turn: { phase: 'idle' } }), 'sign_in_needed');
    assert.equal(lifecycleOf({ agent: ready, turn: { phase: 'idle' } }), 'ready');
    assert.equal(lifecycleOf({ agent: ready, turn: { phase: 'running', turnId: 't' } }), 'turn_running');
    assert.equal(lifecycleOf({ agent: ready, turn: { phase: 'running', turnId: 't' } }, 1), 'waiting_for_user');
    assert.equal(lifecycleOf({ agent: ready, turn: { phase: 'cancelling', turnId: 't', since: 0 } }, 1), 'cancelling');
    assert.equal(lifecycleOf({ agent: { phase: 'exited', agentName: 'A', exitCode: 1 }, turn: { phase: 'idle' } }), 'exited');
    assert.equal(lifecycleOf({ agent: { phase: 'stopped', agentName: 'A' }, turn: { phase: 'idle' } }), 'not_running');
  });
});
