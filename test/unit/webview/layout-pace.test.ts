/**
 * A frame's character allowance follows what its text's layout costs on this machine (webview/transcript/layout-pace.ts):
 * a slow machine's frames stay short, a fast one keeps the full allowance.
 */
import * as assert from 'node:assert/strict';
import { FRAME_CHARS } from '../../../webview/transcript/frame-budget';
import { LAYOUT_MS, LayoutPace, MIN_FRAME_CHARS } from '../../../webview/transcript/layout-pace';

/** Frames that each put in what the pace allows, whose layout costs `msPerChar` a character. */
function frames(pace: LayoutPace, msPerChar: number, count: number): number[] {
  const layouts: number[] = [];
  let now = 0;
  for (let frame = 0; frame < count; frame++) {
    const chars = pace.charsPerFrame;
    now += 8;
    pace.frameDrawn(chars, now);
    now += chars * msPerChar;
    layouts.push(chars * msPerChar);
    pace.laidOut(now);
  }
  return layouts;
}

describe('the layout pace of new text', () => {
  it('keeps the full allowance where layout is cheap', () => {
    const pace = new LayoutPace();
    frames(pace, 0.0002, 20);
    assert.equal(pace.charsPerFrame, FRAME_CHARS);
  });

  it('cuts the next frame at once where a frame laid out slowly, so the following layouts take about LAYOUT_MS', () => {
    const pace = new LayoutPace();
    // The slow machine's flood: 32,000 characters laid out in 40 ms.
    const layouts = frames(pace, 40 / 32_000, 10);
    assert.ok(Math.abs((layouts[0] ?? 0) - 40) < 0.5, 'the first frame is the fixed allowance');
    for (const ms of layouts.slice(1)) assert.ok(Math.abs(ms - LAYOUT_MS) < 0.5, `then about ${LAYOUT_MS} ms: ${layouts.join(', ')}`);
  });

  it('grows back by a quarter a frame once layout is cheap again, and never goes under one paragraph', () => {
    const pace = new LayoutPace();
    frames(pace, 1, 3);
    assert.equal(pace.charsPerFrame, MIN_FRAME_CHARS, 'at least a paragraph, however slow');
    frames(pace, 0.0001, 1);
    assert.equal(pace.charsPerFrame, MIN_FRAME_CHARS * 1.25);
    frames(pace, 0.0001, 20);
    assert.equal(pace.charsPerFrame, FRAME_CHARS);
  });

  it('learns nothing from a frame with little text, nor from a layout without a frame drawn before it', () => {
    const pace = new LayoutPace();
    pace.frameDrawn(500, 0);
    pace.laidOut(1_000);
    assert.equal(pace.charsPerFrame, FRAME_CHARS, 'a few hundred characters: the fixed costs, not the text');
    pace.laidOut(5_000);
    assert.equal(pace.charsPerFrame, FRAME_CHARS);
  });
});
