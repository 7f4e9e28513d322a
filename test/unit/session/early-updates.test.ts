import * as assert from 'node:assert/strict';
import { EarlyUpdateBuffer } from '../../../src/session/update-buffer';

describe('early session updates', () => {
  it('replays updates held for a session in order, and only for it', () => {
    const buffer = new EarlyUpdateBuffer<string>();
    buffer.hold('s1', 'a', 0);
    buffer.hold('s2', 'x', 0);
    buffer.hold('s1', 'b', 1);
    assert.deepEqual(buffer.release('s1', 2), ['a', 'b']);
    assert.deepEqual(buffer.release('s1', 2), []);
    assert.deepEqual(buffer.release('s2', 2), ['x']);
  });

  it('is bounded in count and age', () => {
    const buffer = new EarlyUpdateBuffer<number>(3, 100);
    for (let i = 0; i < 5; i++) buffer.hold('s', i, 0);
    assert.deepEqual(buffer.release('s', 50), [2, 3, 4]);
    buffer.hold('s', 9, 0);
    assert.deepEqual(buffer.release('s', 500), []);
  });
});
