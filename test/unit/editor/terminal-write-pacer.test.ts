/** The terminal mirror's pacing: a flood reaches the VS Code terminal as a few bounded writes, a trickle whole. */
import * as assert from 'node:assert/strict';
import {
  FLOOD_WINDOW_MS,
  FLOOD_WRITE_CHARS,
  MAX_WRITE_CHARS,
  SKIPPED_LINE,
  TerminalWritePacer,
  WRITE_WINDOW_MS,
  newestLines,
} from '../../../src/editor/terminal-write-pacer';

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

  it('a 50 MB flood becomes bounded writes that end with the newest lines, after a "skipped" line', async () => {
    const written: string[] = [];
    const pacer = new TerminalWritePacer((text) => written.push(text));
    pacer.open();
    const line = 'flood lines of terminal output!\n';
    const chunk = line.repeat(2048);
    for (let sent = 0; sent < 50 * 1024 * 1024; sent += chunk.length) pacer.output(chunk);
    pacer.output('the last line\n');
    await windows(1);
    const total = written.reduce((sum, text) => sum + text.length, 0);
    assert.ok(total <= MAX_WRITE_CHARS * 1.1 + SKIPPED_LINE.length, `written ${total} chars`);
    const last = written.at(-1) ?? '';
    assert.ok(last.startsWith(`${SKIPPED_LINE}flood lines`), 'says it skipped, then starts on a line');
    assert.ok(last.endsWith('flood lines of terminal output!\r\nthe last line\r\n'));
    assert.equal(pacer.skipped, true);
  });

  it('while a flood lasts, writes shrink to a few screens ten times a second; a trickle after it is written whole', async () => {
    // xterm parses every line on the workbench's thread, which in code-server answers the user's commands too.
    const written: string[] = [];
    const pacer = new TerminalWritePacer((text) => written.push(text));
    pacer.open();
    const chunk = 'flood lines of terminal output!\n'.repeat(2048);
    const started = performance.now();
    while (performance.now() - started < 1_000) {
      pacer.output(chunk);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await new Promise((resolve) => setTimeout(resolve, FLOOD_WINDOW_MS + 20));
    const total = written.reduce((sum, text) => sum + text.length, 0);
    // The first window writes up to MAX_WRITE_CHARS; then at most one flood-sized write per FLOOD_WINDOW_MS.
    const bound = MAX_WRITE_CHARS + Math.ceil(1_200 / FLOOD_WINDOW_MS) * (FLOOD_WRITE_CHARS * 1.1 + SKIPPED_LINE.length);
    assert.ok(total <= bound, `written ${total} chars in ${written.length} writes over a second (at most ${Math.round(bound)})`);
    assert.ok(written.length >= 5, 'still live: several writes a second');
    assert.ok(written.at(-1)?.endsWith('flood lines of terminal output!\r\n'));
    // A quiet spell, then a command printing a few lines.
    await new Promise((resolve) => setTimeout(resolve, 2 * FLOOD_WINDOW_MS));
    written.length = 0;
    for (let i = 0; i < 3; i++) pacer.output('a'.repeat(2_000) + '\n');
    await windows(3);
    assert.deepEqual(written, [`${'a'.repeat(2_000)}\r\n`.repeat(3)], 'written whole once the flood is over');
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
