import * as assert from 'node:assert/strict';
import { IdleReveal, LONG_IDLE_MS } from '../../../webview/markdown/idle-reveal';

interface FakeGroup {
  readonly name: string;
  isConnected: boolean;
  readonly textContent: string;
  hidden: boolean;
}

function group(name: string, chars: number): FakeGroup {
  return { name, isConnected: true, textContent: 'x'.repeat(chars), hidden: true };
}

/** Idle periods run by hand: each call to `idle(ms)` runs what was waiting for the next one. */
function idlePeriods(): {
  request: (run: (remainingMs: number) => void) => void;
  idle: (remainingMs: number) => void;
  pending: () => number;
} {
  let waiting: ((remainingMs: number) => void)[] = [];
  return {
    request: (run) => waiting.push(run),
    idle: (remainingMs) => {
      const now = waiting;
      waiting = [];
      for (const run of now) run(remainingMs);
    },
    pending: () => waiting.length,
  };
}

describe('IdleReveal (what a stream drew behind, shown while the page idles)', () => {
  function setUp(groups: FakeGroup[]): { shown: string[]; periods: ReturnType<typeof idlePeriods> } {
    const shown: string[] = [];
    const periods = idlePeriods();
    const reveal = new IdleReveal<FakeGroup>(
      (shownGroup) => {
        shownGroup.hidden = false;
        shown.push(shownGroup.name);
      },
      (waitingGroup) => waitingGroup.hidden,
      16_000,
      periods.request,
    );
    reveal.add(groups);
    return { shown, periods };
  }

  it('shows the newest first, about one frame of text per long idle period, until none waits', () => {
    const groups = [group('a', 16_000), group('b', 4_000), group('c', 4_000), group('d', 4_000), group('e', 4_000), group('f', 16_000)];
    const { shown, periods } = setUp(groups);
    assert.deepEqual(shown, [], 'nothing is shown before the page idles');
    periods.idle(50);
    assert.deepEqual(shown, ['f']);
    periods.idle(50);
    assert.deepEqual(shown, ['f', 'e', 'd', 'c', 'b']);
    periods.idle(50);
    assert.deepEqual(shown, ['f', 'e', 'd', 'c', 'b', 'a']);
    assert.equal(groups.filter((each) => each.hidden).length, 0);
    assert.equal(periods.pending(), 0, 'no idle period is asked for once none waits');
  });

  it("waits through the short idle periods between a stream's frames", () => {
    const { shown, periods } = setUp([group('a', 100), group('b', 100)]);
    for (let frame = 0; frame < 10; frame++) periods.idle(LONG_IDLE_MS - 1);
    assert.deepEqual(shown, []);
    assert.equal(periods.pending(), 1, 'still asking');
    periods.idle(LONG_IDLE_MS);
    assert.deepEqual(shown, ['b', 'a']);
  });

  it('skips a group a scroll showed first, and one no longer on the page', () => {
    const scrolled = group('scrolled', 100);
    const gone = group('gone', 100);
    const { shown, periods } = setUp([group('a', 100), gone, scrolled]);
    scrolled.hidden = false;
    gone.isConnected = false;
    periods.idle(50);
    assert.deepEqual(shown, ['a']);
  });
});
