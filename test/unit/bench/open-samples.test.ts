import * as assert from 'node:assert/strict';
import {
  describePhases,
  interleaved,
  interleavedWithin,
  median,
  pairedDifferences,
  type Phases,
  type Sample,
} from '../../../bench/webview/open-samples';

function phases(typeable: number): Phases {
  return { icon: undefined, html: typeable - 100, fetched: undefined, script: undefined, painted: typeable, typeable, entry: undefined };
}

describe('open bench samples', () => {
  it('interleaves ours and the baseline A B B A …, one of each per pair', () => {
    assert.deepEqual(interleaved(3), ['ours', 'baseline', 'baseline', 'ours', 'ours', 'baseline']);
  });

  it('takes pairs beyond the least only while the pairs so far say one more ends in the time allowed', () => {
    let clock = 0;
    const taken: string[] = [];
    // Each sample takes 10 s: a pair 20 s. Allowed 70 s: a fourth pair would end at 80 s.
    for (const which of interleavedWithin({ least: 2, most: 7, allowedMs: 70_000 }, () => clock)) {
      taken.push(which);
      clock += 10_000;
    }
    assert.deepEqual(taken, interleaved(3));
  });

  it('takes the least pairs however long they take, and never more than the most', () => {
    let clock = 0;
    const slow = [...interleavedWithin({ least: 2, most: 7, allowedMs: 1_000 }, () => (clock += 60_000))];
    assert.deepEqual(slow, interleaved(2));
    const fast = [...interleavedWithin({ least: 2, most: 4, allowedMs: 1_000_000 }, () => 0)];
    assert.deepEqual(fast, interleaved(4));
  });

  it('takes the middle value, the mean of the two middle ones for an even count', () => {
    assert.equal(median([5, 1, 9]), 5);
    assert.equal(median([4, 1, 9, 2]), 3);
    assert.equal(median([]), undefined);
  });

  it("differences each pair's ours minus its baseline, whichever came first", () => {
    const samples: Sample[] = [
      { which: 'ours', phases: phases(1_500) },
      { which: 'baseline', phases: phases(1_000) },
      { which: 'baseline', phases: phases(9_000) },
      { which: 'ours', phases: phases(9_200) },
    ];
    // A slow pair (the workbench swung by 8 s) still says 200 ms of ours.
    assert.deepEqual(
      pairedDifferences(samples, (sample) => sample.phases.typeable),
      [500, 200],
    );
  });

  it('reports each measured phase as median (min–max), leaving out the unmeasured', () => {
    assert.equal(
      describePhases([phases(600), phases(400), phases(500)]),
      'html 400 (300–500) / painted 500 (400–600) / typeable 500 (400–600)',
    );
  });
});
