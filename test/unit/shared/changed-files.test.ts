/** The Sessions view's "N files changed" (issue 29): from a conversation's change cards. */
import * as assert from 'node:assert/strict';
import { changedFileCount } from '../../../src/shared/changed-files';
import type { ChangedFileView } from '../../../src/shared/model';
import { initialState, reduce } from '../../../src/shared/reducer';
import type { TranscriptAction } from '../../../src/shared/actions';

const file = (path: string, review: ChangedFileView['review'] = 'pending'): ChangedFileView => ({ path, change: 'modified', review });
const stateOf = (...actions: TranscriptAction[]) => actions.reduce(reduce, initialState());

describe('changed files of a conversation', () => {
  it('counts each file once across turns, leaving out undone ones', () => {
    const state = stateOf(
      { type: 'change_set_recorded', turnId: 't1', origin: 'turn', files: [file('/w/a'), file('/w/b', 'kept')] },
      { type: 'change_set_recorded', turnId: 't2', origin: 'turn', files: [file('/w/a'), file('/w/c', 'undone')] },
    );
    assert.equal(changedFileCount(state), 2);
  });

  it('a restore takes its files off the count', () => {
    const state = stateOf(
      { type: 'change_set_recorded', turnId: 't1', origin: 'turn', files: [file('/w/a', 'undone'), file('/w/b')] },
      { type: 'change_set_recorded', turnId: 'restore-1', origin: 'restore', files: [file('/w/a')] },
    );
    assert.equal(changedFileCount(state), 1);
    assert.equal(changedFileCount(initialState()), 0);
  });
});
