/** A terminal flood through the transcript: what the chat keeps and what one post to the webview carries. */
import * as assert from 'node:assert/strict';
import type { TranscriptAction } from '../../../src/shared/actions';
import { ChunkRun, mergeChunkActions } from '../../../src/shared/coalesce';
import { TERMINAL_DISPLAY_CHARS } from '../../../src/shared/model';
import { initialState, reduce } from '../../../src/shared/reducer';

const output = (text: string): TranscriptAction => ({ type: 'terminal_output', terminalId: 't1', text });
const started = reduce(initialState(), { type: 'terminal_started', terminalId: 't1', commandLine: 'yes' });

describe('terminal flood in the transcript', () => {
  const chunks = Array.from({ length: 40 }, (_, index) => output(`${String(index).padStart(2, '0')}${'y'.repeat(8_190)}\n`));

  it('keeps the newest output, marked trimmed, however much arrives', () => {
    const state = chunks.reduce(reduce, started);
    const record = state.terminals['t1'];
    assert.equal(record?.output.length, TERMINAL_DISPLAY_CHARS);
    assert.equal(record?.trimmed, true);
    assert.ok(record?.output.endsWith(`39${'y'.repeat(8_190)}\n`));
  });

  it('chunks merged for one post carry at most the display size and show exactly what applying each would', () => {
    let merged: TranscriptAction | undefined;
    for (const chunk of chunks) merged = merged === undefined ? chunk : mergeChunkActions(merged, chunk);
    assert.ok(merged?.type === 'terminal_output');
    assert.equal(merged.text.length, TERMINAL_DISPLAY_CHARS);
    const prefix = reduce(started, output('earlier output\n'));
    assert.deepEqual(reduce(prefix, merged).terminals['t1'], chunks.reduce(reduce, prefix).terminals['t1']);
  });

  it('a run of chunks held together joins only the newest display-sized part, and shows exactly what applying each would', () => {
    for (const sizes of [[10, 20], [70_000], [30_000, 30_000, 30_000], Array.from({ length: 500 }, () => 1_000)]) {
      const run = new ChunkRun();
      const pieces = sizes.map((size, index) => output(String(index % 10).repeat(size)));
      const [head, ...rest] = pieces;
      assert.ok(head && run.start(head));
      for (const piece of rest) assert.ok(run.extend(piece));
      const taken = run.take();
      assert.ok(taken?.type === 'terminal_output');
      if (sizes.length > 1) assert.ok(taken.text.length <= TERMINAL_DISPLAY_CHARS, `merged: ${taken.text.length} chars`);
      const prefix = reduce(started, output('earlier output\n'));
      assert.deepEqual(reduce(prefix, taken).terminals['t1'], pieces.reduce(reduce, prefix).terminals['t1'], `sizes ${sizes.length}`);
    }
  });
});
