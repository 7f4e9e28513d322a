/** The terminal mirror's pacing: a flood reaches the VS Code terminal as a few bounded writes, a trickle whole. */
import * as assert from 'node:assert/strict';
import { MAX_WRITE_CHARS, SKIPPED_LINE, TerminalWritePacer, WRITE_WINDOW_MS, newestLines } from '../../../src/editor/terminal-write-pacer';

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
