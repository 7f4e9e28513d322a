import * as assert from 'node:assert/strict';
import { DrawnAcks } from '../../../webview/drawn-acks';

/** Paints happen only when the test says. */
function harness(): { acks: DrawnAcks; told: number[]; paint(): void; waiting(): number } {
  const told: number[] = [];
  const afterPaint: (() => void)[] = [];
  const acks = new DrawnAcks(
    (seq) => told.push(seq),
    (callback) => afterPaint.push(callback),
  );
  return { acks, told, paint: () => afterPaint.splice(0).forEach((callback) => callback()), waiting: () => afterPaint.length };
}

describe('drawn acknowledgements (the webview side of the host flow control)', () => {
  it('tells the host a number only after the frame that drew it was painted', () => {
    const { acks, told, paint } = harness();
    acks.drew(5);
    assert.deepEqual(told, [], 'not while the frame is being drawn');
    paint();
    assert.deepEqual(told, [5]);
  });

  it('one acknowledgement per paint, the highest number drawn', () => {
    const { acks, told, paint, waiting } = harness();
    acks.drew(3);
    acks.drew(7);
    assert.equal(waiting(), 1, 'one wait for the paint');
    paint();
    assert.deepEqual(told, [7]);
    acks.drew(7);
    paint();
    assert.deepEqual(told, [7], 'a frame that drew nothing newer says nothing');
  });

  it('a number already shown (stale actions) is told at once, unless a paint is awaited', () => {
    const { acks, told, paint } = harness();
    acks.alreadyShown(4);
    assert.deepEqual(told, [4]);
    acks.drew(6);
    acks.alreadyShown(6);
    assert.deepEqual(told, [4]);
    paint();
    assert.deepEqual(told, [4, 6]);
  });

  it("a snapshot restarts the count: a new conversation's number 0 is told too", () => {
    const { acks, told, paint } = harness();
    acks.drew(0);
    paint();
    acks.drew(9);
    paint();
    acks.reset();
    acks.drew(0);
    paint();
    assert.deepEqual(told, [0, 9, 0]);
  });

  it('a view that draws no frames (hidden) tells nothing', () => {
    const { acks, told } = harness();
    acks.drew(2);
    assert.deepEqual(told, []);
  });
});
