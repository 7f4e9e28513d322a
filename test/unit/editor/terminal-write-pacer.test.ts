/** The terminal mirror's pacing: a flood reaches the VS Code terminal as a few bounded writes, a trickle whole. */
import * as assert from 'node:assert/strict';
import {
  DEFAULT_ROWS,
  FLOOD_WINDOW_MS,
  FLOOD_WRITE_CHARS,
  SKIPPED_LINE,
  TerminalWritePacer,
  REPAINT,
  WRITE_WINDOW_MS,
  newestLines,
  newestScreen,
} from '../../../src/editor/terminal-write-pacer';

/** The rows a write fills after its repaint: at most the screen's height less one, or xterm would scroll. */
const rowsAfterRepaint = (text: string): number => (text.split(REPAINT)[1] ?? '').split('\r\n').length - 1;

const windows = (count: number) => new Promise((resolve) => setTimeout(resolve, count * WRITE_WINDOW_MS + 10));

describe('terminal mirror write pacing', () => {
  it('writes nothing before the terminal opens, then what waited', () => {
    const written: string[] = [];
    const pacer = new TerminalWritePacer((text) => written.push(text));
    pacer.output('one\n');
    pacer.output('two\n');
    assert.deepEqual(written, []);
    pacer.open();
    assert.deepEqual(written, ['one\r\ntwo\r\n']);
    assert.equal(pacer.skipped, false);
  });

  it('a command printing at a human pace is written whole, once per window', async () => {
    const written: string[] = [];
    const pacer = new TerminalWritePacer((text) => written.push(text));
    pacer.open();
    for (let i = 0; i < 5; i++) pacer.output(`line ${i}\n`);
    assert.deepEqual(written, [], 'held for the window');
    await windows(1);
    assert.deepEqual(written, ['line 0\r\nline 1\r\nline 2\r\nline 3\r\nline 4\r\n']);
    assert.equal(pacer.skipped, false);
  });

  it('a 50 MB flood becomes one repaint of the newest screenful, under a "skipped" line, scrolling nothing', async () => {
    const written: string[] = [];
    const pacer = new TerminalWritePacer((text) => written.push(text));
    pacer.open();
    pacer.output('before the flood\n');
    await windows(1);
    const line = 'flood lines of terminal output!\n';
    const chunk = line.repeat(2048);
    for (let sent = 0; sent < 50 * 1024 * 1024; sent += chunk.length) pacer.output(chunk);
    pacer.output('the last line\n');
    await windows(1);
    assert.equal(written.length, 2, 'the line before, then one write for the flood');
    const flood = written[1] ?? '';
    assert.ok(flood.length <= FLOOD_WRITE_CHARS + 200, `written ${flood.length} chars`);
    // What the screen showed goes into the scrollback first (the cursor to the last row, a screenful of line ends).
    assert.ok(
      flood.startsWith(`\x1b[${DEFAULT_ROWS};1H${'\r\n'.repeat(DEFAULT_ROWS)}${REPAINT}${SKIPPED_LINE}flood lines`),
      JSON.stringify(flood.slice(0, 80)),
    );
    assert.ok(flood.endsWith('flood lines of terminal output!\r\nthe last line\r\n'));
    assert.equal(rowsAfterRepaint(flood), DEFAULT_ROWS - 1, 'the skipped line and the newest lines fill the screen but the last row');
    assert.equal(pacer.skipped, true);
  });

  it("while a flood lasts, the screen is repainted four times a second at the terminal's height; a trickle after it is written whole", async () => {
    // xterm parses every line on the workbench's thread, which in code-server answers the user's commands too.
    const written: string[] = [];
    const pacer = new TerminalWritePacer((text) => written.push(text));
    pacer.open();
    pacer.resize(10);
    const chunk = 'flood lines of terminal output!\n'.repeat(2048);
    const started = performance.now();
    while (performance.now() - started < 1_000) {
      pacer.output(chunk);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await new Promise((resolve) => setTimeout(resolve, FLOOD_WINDOW_MS + 20));
    assert.ok(written.length >= 3 && written.length <= Math.ceil(1_300 / FLOOD_WINDOW_MS) + 1, `still live: ${written.length} writes`);
    for (const text of written) {
      assert.ok(text.length <= FLOOD_WRITE_CHARS + 200, `written ${text.length} chars in one go`);
      assert.equal(rowsAfterRepaint(text), 9, 'a screenful of 10 rows, scrolling nothing');
    }
    assert.ok(written.at(-1)?.endsWith('flood lines of terminal output!\r\n'));
    // A quiet spell, then a command printing a few lines.
    await new Promise((resolve) => setTimeout(resolve, 2 * FLOOD_WINDOW_MS));
    written.length = 0;
    for (let i = 0; i < 3; i++) pacer.output('a'.repeat(2_000) + '\n');
    await windows(3);
    assert.deepEqual(written, [`${'a'.repeat(2_000)}\r\n`.repeat(3)], 'written whole once the flood is over');
  });

  it('the newest screenful: the last rows lines, bounded in characters', () => {
    assert.equal(newestScreen('a\nb\nc\n', 2, 100), 'b\nc\n');
    assert.equal(newestScreen('a\nb\nc', 2, 100), 'b\nc');
    assert.equal(newestScreen('a\nb\n', 5, 100), 'a\nb\n');
    assert.equal(newestScreen(`${'x'.repeat(50)}\n${'y'.repeat(50)}\n`, 2, 60), `${'y'.repeat(50)}\n`);
  });

  it('the newest lines start on a line and never inside a character', () => {
    assert.equal(newestLines('aaaa\nbbbb\ncc', 6), 'cc');
    assert.equal(newestLines('aaaa\nbbbb\ncc', 7), 'bbbb\ncc'.slice(-7).replace(/^[^\n]*\n/, ''));
    assert.equal(newestLines('x\u{1F600}yz', 3), 'yz');
    assert.equal(newestLines('abcdef', 3), 'def');
  });

  it('discard forgets what waits', async () => {
    const written: string[] = [];
    const pacer = new TerminalWritePacer((text) => written.push(text));
    pacer.open();
    pacer.output('gone\n');
    pacer.discard();
    await windows(1);
    assert.deepEqual(written, []);
  });
});
