import * as assert from 'node:assert/strict';
import type { TranscriptAction } from '../../../src/shared/actions';
import type { TranscriptState } from '../../../src/shared/model';
import { applyActions, applySnapshot, initialSync, type Reducer } from '../../../webview/host/sync';
import { stateWith } from './support';

/** A stand-in reducer that records which notices were applied, so the test sees order and duplicates. */
const recordNotices: Reducer = (state: TranscriptState, action: TranscriptAction) =>
  action.type === 'notice_added' ? { ...state, title: `${state.title ?? ''}${action.title}` } : state;

const notice = (title: string): TranscriptAction => ({ type: 'notice_added', severity: 'info', title });

describe('webview sync with the host', () => {
  it('ignores actions before the first snapshot (the snapshot will include them)', () => {
    const step = applyActions(initialSync(), 1, [notice('a')], recordNotices);
    assert.equal(step.sync.state, undefined);
    assert.equal(step.resync, false);
  });

  it('applies actions that follow the snapshot, in order', () => {
    const sync = applySnapshot(initialSync(), 4, stateWith([]));
    const step = applyActions(sync, 5, [notice('a'), notice('b')], recordNotices);
    assert.equal(step.sync.state?.title, 'ab');
    assert.equal(step.sync.seq, 6);
    assert.equal(step.resync, false);
  });

  it('drops actions the snapshot already reflects, applying only the new tail', () => {
    const sync = applySnapshot(initialSync(), 6, stateWith([]));
    const step = applyActions(sync, 5, [notice('old5'), notice('old6'), notice('new7')], recordNotices);
    assert.equal(step.sync.state?.title, 'new7');
    assert.equal(step.sync.seq, 7);
  });

  it('asks for a resync once on a gap and ignores actions until the snapshot comes', () => {
    const sync = applySnapshot(initialSync(), 2, stateWith([]));
    const gap = applyActions(sync, 5, [notice('x')], recordNotices);
    assert.equal(gap.resync, true);
    assert.equal(gap.sync.state?.title, undefined);
    const more = applyActions(gap.sync, 6, [notice('y')], recordNotices);
    assert.equal(more.resync, false, 'no second resync while one is pending');
    assert.equal(more.sync.state?.title, undefined);
    const fresh = applySnapshot(more.sync, 6, { ...stateWith([]), title: 'snap' });
    assert.equal(applyActions(fresh, 7, [notice('!')], recordNotices).sync.state?.title, 'snap!');
  });
});
