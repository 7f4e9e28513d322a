import * as assert from 'node:assert/strict';
import { FRAME_WORK_MS } from '../../../webview/transcript/frame-budget';
import {
  BACK_TO_BACK_MS,
  FrameScheduler,
  LAID_OUT_FRAME_MS,
  REST_PER_LONG_FRAME,
  WHOLE_FRAME_MS,
  type FrameClock,
} from '../../../webview/transcript/frame-scheduler';

/** Frames and timers run only when the test says; `now` moves only when a drawing says it took time. */
class ManualClock implements FrameClock {
  readonly frames: (() => void)[] = [];
  readonly timers: (() => void)[] = [];
  /** Each timer's delay, as asked. */
  readonly delays: number[] = [];
  time = 0;

  requestFrame(callback: () => void): () => void {
    this.frames.push(callback);
    return () => {
      const at = this.frames.indexOf(callback);
      if (at !== -1) this.frames.splice(at, 1);
    };
  }

  afterTimers(callback: () => void, delayMs = 1): void {
    this.timers.push(callback);
    this.delays.push(delayMs);
  }

  now(): number {
    return this.time;
  }

  /** A scheduler of `draw` on this clock. */
  scheduler(draw: () => void, onRequest: () => void = () => undefined): FrameScheduler {
    return new FrameScheduler(draw, onRequest, this);
  }

  runFrame(): void {
    const frame = this.frames.shift();
    assert.ok(frame, 'a frame was asked for');
    frame();
  }

  runTimer(): void {
    this.delays.shift();
    const timer = this.timers.shift();
    assert.ok(timer, 'a timer was set');
    timer();
  }
}

describe('frame scheduler', () => {
  it('asks for one frame however often it is asked before the frame comes, and counts it once', () => {
    const clock = new ManualClock();
    let draws = 0;
    let requests = 0;
    const frames = clock.scheduler(
      () => draws++,
      () => requests++,
    );
    frames.request();
    frames.request();
    assert.equal(clock.frames.length, 1);
    assert.equal(frames.pending, true);
    clock.runFrame();
    assert.equal(draws, 1);
    assert.equal(requests, 1);
    assert.equal(frames.pending, false);
  });

  it('after a short frame asks for the next one at once, whether the frame or a later message asks', () => {
    const clock = new ManualClock();
    let again = true;
    const frames = clock.scheduler(() => {
      if (again) frames.request();
      again = false;
    });
    frames.request();
    clock.runFrame();
    assert.equal(clock.frames.length, 1, 'the frame asked for another: it is asked for at once');
    clock.runFrame();
    frames.request();
    assert.equal(clock.frames.length, 1);
    assert.equal(clock.timers.length, 0);
  });

  it('after a frame that ran past the budget, asks for the next frame only from a timer, however it is asked', () => {
    const clock = new ManualClock();
    let longDraws = 2;
    const frames = clock.scheduler(() => {
      if (longDraws-- > 0) clock.time += 30;
    });
    frames.request();
    clock.runFrame();
    frames.request();
    assert.equal(clock.frames.length, 0, 'no frame asked for straight after a long one');
    assert.equal(clock.timers.length, 1);
    clock.runTimer();
    assert.equal(clock.frames.length, 1, 'the timer asks for the frame');
    clock.runFrame();
    // Asked from inside a long frame: the same.
    const inside = clock.scheduler(() => {
      clock.time += 30;
      inside.request();
    });
    inside.request();
    clock.runFrame();
    assert.equal(clock.frames.length, 0);
    assert.equal(clock.timers.length, 1);
  });

  it('counts the layout after the drawing: a frame whose layout ran past the budget defers the next one to a timer', () => {
    const clock = new ManualClock();
    let draws = 0;
    const frames = clock.scheduler(() => {
      draws++;
      clock.time += 2;
      // The drawing leaves more for the next frame (a long message drawn as the budget allows).
      frames.request();
    });
    frames.request();
    clock.runFrame();
    assert.equal(clock.frames.length, 1, 'the script alone was short: the next frame is asked for at once');
    // The browser lays out what was drawn (30 ms), then tells the scheduler.
    clock.time += 30;
    frames.laidOut();
    assert.equal(clock.frames.length, 0, 'the frame asked for at once is taken back');
    assert.equal(clock.timers.length, 1, "and asked for from a timer, after the page's own");
    // Once the rest as long as that frame is over.
    clock.time += 32 * REST_PER_LONG_FRAME;
    clock.runTimer();
    clock.runFrame();
    assert.equal(draws, 2);
    // A short layout changes nothing.
    clock.time += 1;
    frames.laidOut();
    assert.equal(clock.frames.length, 1);
    assert.equal(clock.timers.length, 0);
    // Told of a layout with no frame drawn since (the viewport resized): nothing to count.
    clock.runFrame();
    frames.laidOut();
    clock.time += 100;
    frames.laidOut();
    assert.equal(clock.frames.length, 1);
  });

  it('a frame whose drawing and layout together fit in one frame keeps the next frame at once, though past the drawing budget', () => {
    const clock = new ManualClock();
    let draws = 0;
    const frames = clock.scheduler(() => {
      draws++;
      clock.time += FRAME_WORK_MS - 1;
      frames.request();
    });
    frames.request();
    clock.runFrame();
    // A slow machine's layout of a budget's worth of drawing: the whole frame is past the budget, within the limit.
    clock.time = LAID_OUT_FRAME_MS - 1;
    frames.laidOut();
    assert.equal(clock.frames.length, 1, 'deferring here halved the frame rate and a long message fell behind the stream');
    assert.equal(clock.timers.length, 0);
    // It comes once the page's tasks have had their turn (straight after, see the back-to-back case below).
    clock.time += BACK_TO_BACK_MS;
    clock.runFrame();
    clock.time += LAID_OUT_FRAME_MS + 1;
    frames.laidOut();
    assert.equal(clock.frames.length, 0, 'past the limit the next frame waits for the timers');
    assert.equal(clock.timers.length, 1);
    assert.equal(draws, 2);
  });

  it('after a long frame, rests as long as it took before the next frame, so a shared main thread keeps half for others', () => {
    const clock = new ManualClock();
    let draws = 0;
    const frames = clock.scheduler(() => {
      draws++;
      clock.time += 4;
      frames.request();
    });
    frames.request();
    clock.runFrame();
    // Drawing and layout took 40 ms: the next frame comes no sooner than 40 ms after.
    clock.time += 36;
    frames.laidOut();
    const rest = 40 * REST_PER_LONG_FRAME;
    assert.equal(clock.frames.length, 0);
    clock.runTimer();
    assert.equal(clock.frames.length, 0, 'the timer came before the rest was over: no frame yet');
    assert.equal(clock.delays[0], rest, 'it waits out the rest');
    clock.time += rest - 1;
    clock.runTimer();
    assert.equal(clock.frames.length, 0, 'still 1 ms of rest left');
    clock.time += 1;
    clock.runTimer();
    assert.equal(clock.frames.length, 1, 'the rest is over: the frame is asked for');
    clock.runFrame();
    assert.equal(draws, 2);
    // A short frame after it rests not at all.
    clock.time += 5;
    frames.laidOut();
    assert.equal(clock.frames.length, 1, 'the next frame was asked for at once and stays');
    assert.equal(clock.timers.length, 0);
  });

  it('a frame straight after one that ran long once painted draws nothing and comes again after the timers', () => {
    const clock = new ManualClock();
    let draws = 0;
    const frames = clock.scheduler(() => {
      draws++;
      clock.time += 6;
      frames.request();
    });
    frames.request();
    clock.runFrame();
    // Drawing and layout 16 ms: under the limit, so the next frame stays asked for at once.
    clock.time += 10;
    frames.laidOut();
    assert.equal(clock.frames.length, 1);
    // Its paint takes the whole frame past the limit, and the next frame is due at once, before any task.
    clock.time += WHOLE_FRAME_MS - 16 + 1;
    clock.runFrame();
    assert.equal(draws, 1, 'the frame straight after it draws nothing');
    assert.equal(clock.frames.length, 0);
    assert.equal(clock.timers.length, 1, 'it asks for the next frame from a timer, after the tasks waiting');
    clock.time += 2;
    clock.runTimer();
    clock.runFrame();
    assert.equal(draws, 2, 'the frame after the timers draws');
    assert.equal(frames.pending, true, 'and what it left is asked for');
  });

  it('a frame after a long one draws when time passed between them (a task ran, or the page was idle)', () => {
    const clock = new ManualClock();
    let draws = 0;
    const frames = clock.scheduler(() => {
      draws++;
      clock.time += 6;
    });
    frames.request();
    clock.runFrame();
    clock.time += 10;
    frames.laidOut();
    // Painted, the frame ran past the limit, but the next one comes well after its layout.
    clock.time += BACK_TO_BACK_MS + WHOLE_FRAME_MS;
    frames.request();
    clock.runFrame();
    assert.equal(draws, 2);
    // A short frame followed at once by the next: both draw.
    frames.request();
    clock.runFrame();
    clock.time += 2;
    frames.laidOut();
    frames.request();
    clock.time += 3;
    clock.runFrame();
    assert.equal(draws, 4);
    assert.equal(clock.timers.length, 0);
  });

  it('draws nothing once disposed, even a frame already asked for', () => {
    const clock = new ManualClock();
    let draws = 0;
    const frames = clock.scheduler(() => draws++);
    frames.request();
    frames.dispose();
    clock.runFrame();
    frames.request();
    assert.equal(draws, 0);
    assert.equal(clock.frames.length, 0);
  });
});
