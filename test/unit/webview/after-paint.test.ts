import * as assert from 'node:assert/strict';
import { AfterPaint, HIDDEN_PAGE_MS, afterNextPaint, type PaintClock } from '../../../webview/host/after-paint';

/** Frames and timers run only when the test says. */
function manualClock(): { clock: PaintClock; paint: () => void; elapse: (ms: number) => void } {
  let frames: (() => void)[] = [];
  let timers: { at: number; run: () => void }[] = [];
  let now = 0;
  const elapse = (ms: number): void => {
    now += ms;
    const due = timers.filter((timer) => timer.at <= now);
    timers = timers.filter((timer) => timer.at > now);
    for (const timer of due) timer.run();
  };
  return {
    clock: {
      frame: (callback) => void frames.push(callback),
      timer: (run, ms) => {
        const timer = { at: now + ms, run };
        timers.push(timer);
        return () => (timers = timers.filter((other) => other !== timer));
      },
    },
    // A frame's callbacks, then the task after it.
    paint: () => {
      const due = frames;
      frames = [];
      for (const callback of due) callback();
      elapse(0);
    },
    elapse,
  };
}

describe('work after the next paint', () => {
  it('runs once, in the task after the next frame, not before it', () => {
    const { clock, paint, elapse } = manualClock();
    let runs = 0;
    afterNextPaint(() => runs++, clock);
    elapse(0);
    assert.equal(runs, 0, 'not before the frame');
    paint();
    assert.equal(runs, 1, 'after it');
    elapse(HIDDEN_PAGE_MS);
    assert.equal(runs, 1, 'and the fallback for a page without frames does not run it again');
  });

  it('runs on a page that gets no frames (hidden) after a while all the same', () => {
    const { clock, elapse } = manualClock();
    let runs = 0;
    afterNextPaint(() => runs++, clock);
    elapse(HIDDEN_PAGE_MS - 1);
    assert.equal(runs, 0);
    elapse(1);
    assert.equal(runs, 1);
  });

  it('coalesces requests into one call, and a flush (the page is going) runs a waiting one at once', () => {
    const { clock, paint } = manualClock();
    let calls = 0;
    const after = new AfterPaint(() => calls++, clock);
    after.request();
    after.request();
    paint();
    assert.equal(calls, 1, 'two requests before a paint: one call');
    after.request();
    after.flush();
    assert.equal(calls, 2, 'flushed at once');
    paint();
    assert.equal(calls, 2, 'and not again after the paint');
    after.flush();
    assert.equal(calls, 2, 'a flush with nothing waiting does nothing');
  });
});
