import * as assert from 'node:assert/strict';
import type { NoticeEntry, TranscriptState } from '../../../src/shared/model';
import { liveNoticeKey } from '../../../webview/transcript/live-notice';
import { agentMessage, stateWith } from './support';

function notice(key: string, action: NoticeEntry['action']): NoticeEntry {
  return { kind: 'notice', key, severity: 'error', title: key, ...(action ? { action } : {}) };
}

function withAgent(
  state: TranscriptState,
  agent: TranscriptState['agent'],
  turn: TranscriptState['turn'] = { phase: 'idle' },
): TranscriptState {
  return { ...state, agent, turn };
}

const exited: TranscriptState['agent'] = { phase: 'exited', agentName: 'A', exitCode: 1 };
const ready: TranscriptState['agent'] = { phase: 'ready', agentName: 'A' };

describe('which notice button still applies', () => {
  it('Restart agent applies while the agent is exited, and no longer once it runs again', () => {
    const state = stateWith([notice('n1', 'restart_agent'), agentMessage('m', 'after')]);
    assert.equal(liveNoticeKey(withAgent(state, exited)), 'n1');
    assert.equal(liveNoticeKey(withAgent(state, ready)), undefined);
    assert.equal(liveNoticeKey(withAgent(state, { phase: 'starting', agentName: 'A' })), undefined);
  });

  it('only the newest notice with an action can apply: an older crash notice stays disabled', () => {
    const state = stateWith([notice('old', 'restart_agent'), notice('plain', undefined), notice('new', 'restart_agent')]);
    assert.equal(liveNoticeKey(withAgent(state, exited)), 'new');
  });

  it('Stop agent applies while the agent starts or ignores a cancel, not once the turn is over', () => {
    const state = stateWith([notice('stop', 'stop_agent')]);
    assert.equal(liveNoticeKey(withAgent(state, { phase: 'starting', agentName: 'A' })), 'stop');
    assert.equal(liveNoticeKey(withAgent(state, ready, { phase: 'cancelling', turnId: 't', since: 0 })), 'stop');
    assert.equal(liveNoticeKey(withAgent(state, ready)), undefined);
  });
});
