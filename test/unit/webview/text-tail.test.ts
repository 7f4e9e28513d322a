import * as assert from 'node:assert/strict';
import { TextTail } from '../../../webview/markdown/text-tail';

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

describe('TextTail', () => {
  it('reads what a string built by the same appends would give, across the pieces appended', () => {
    const next = random(7);
    const tail = new TextTail();
    let whole = '';
    tail.reset('');
    for (let step = 0; step < 2_000; step++) {
      const piece = 'ab\ncd\r\0é🚀 '.slice(Math.floor(next() * 5), 5 + Math.floor(next() * 8)).repeat(1 + Math.floor(next() * 3));
      tail.append(piece);
      whole += piece;
      assert.equal(tail.length, whole.length);
      const from = tail.start + Math.floor(next() * (whole.length - tail.start + 1));
      const to = from + Math.floor(next() * (whole.length - from + 1));
      assert.equal(tail.slice(from, to), whole.slice(from, to), `slice(${from}, ${to})`);
      assert.equal(tail.slice(from), whole.slice(from));
      for (const search of ['\n', '\r', '\0'])
        assert.equal(tail.indexOf(search, from), whole.indexOf(search, from), `indexOf ${JSON.stringify(search)} from ${from}`);
      if (next() < 0.3) tail.dropBefore(tail.start + Math.floor(next() * (whole.length - tail.start + 1)));
    }
  });

  it('refuses a read before the text it let go of, and starts over whole on reset', () => {
    const tail = new TextTail();
    tail.reset('first line\n');
    tail.append('second line\n');
    tail.dropBefore(11);
    assert.equal(tail.start, 11);
    assert.equal(tail.slice(11), 'second line\n');
    assert.throws(() => tail.slice(5), RangeError);
    tail.reset('again\n');
    assert.equal(tail.start, 0);
    assert.equal(tail.slice(0), 'again\n');
    assert.equal(tail.indexOf('\n', 0), 5);
  });
});
