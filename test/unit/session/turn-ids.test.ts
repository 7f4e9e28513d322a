/** Turn ids never repeat within a conversation, also one restored from history with turns of its own. */
import * as assert from 'node:assert/strict';
import { TurnIds } from '../../../src/session/turn-ids';

describe('turn ids', () => {
  it('skip the ids a restored conversation already used', () => {
    const used = new Set(['turn-1', 'turn-2']);
    const ids = new TurnIds();
    assert.equal(
      ids.take((id) => used.has(id)),
      'turn-3',
    );
    assert.equal(ids.take(), 'turn-4');
  });
});
