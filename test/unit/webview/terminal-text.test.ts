/** Terminal output as the chat shows it: escapes removed, carriage-return redraws collapsed; the status line. */
import * as assert from 'node:assert/strict';
import {
  plainTerminalText,
  TERMINAL_TAIL_CHARS,
  TERMINAL_TAIL_LINES,
  terminalParts,
  terminalShown,
  terminalStatus,
  terminalTail,
} from '../../../webview/transcript/terminal-text';

describe('webview: terminal text', () => {
  it('removes colour, cursor and title escape sequences', () => {
    assert.equal(plainTerminalText('\x1b[1;31mFAIL\x1b[0m test\x1b[2K\n\x1b]0;title\x07done'), 'FAIL test\ndone');
  });

  it("shows none of an image's or a link's control string: only the link's words", () => {
    const image = '\x1bPq#0;2;0;0;0#0~~\x1b\\';
    const link = 'see \x1b]8;;https://evil.example/\x1b\\the report\x1b]8;;\x1b\\';
    assert.equal(plainTerminalText(`${image}${link}\ndone`), 'see the report\ndone');
  });

  it('shows what a terminal finally shows for carriage-return progress lines', () => {
    assert.equal(plainTerminalText('progress 10%\rprogress 100%\nnext'), 'progress 100%\nnext');
    assert.equal(plainTerminalText('abcdef\rXY'), 'XYcdef');
    assert.equal(plainTerminalText('windows\r\nline'), 'windows\nline');
  });

  it('says running, the exit code, or the signal', () => {
    assert.deepEqual(terminalStatus(undefined, false), { label: 'Running', tone: 'running' });
    assert.deepEqual(terminalStatus({ exitCode: 0, signal: null }, true), { label: 'Exited with code 0', tone: 'ok' });
    assert.deepEqual(terminalStatus({ exitCode: 2, signal: null }, false), { label: 'Exited with code 2', tone: 'failed' });
    assert.deepEqual(terminalStatus({ exitCode: null, signal: 'SIGKILL' }, false), { label: 'Ended by SIGKILL', tone: 'failed' });
  });

  it('a terminal never created through terminal/create (no _meta either): "output not available" once the call is over, never an endless Running over an empty box', () => {
    // What the reducer keeps for a terminal id a tool call named and nothing else filled.
    const blank = { commandLine: '', output: '', trimmed: false, released: false };
    assert.deepEqual(terminalShown('ghost-1', blank, true), {
      commandLine: 'Terminal ghost-1',
      status: { label: 'Output not available', tone: 'unavailable' },
      output: 'Output not available: the agent ran this command itself and did not send its output.',
      controls: false,
    });
    assert.equal(terminalShown('ghost-1', undefined, true).status.label, 'Output not available');
    // While the call runs its output may still come (an agent-owned terminal's updates): Running, as before.
    assert.deepEqual(terminalShown('ghost-1', blank, false).status, { label: 'Running', tone: 'running' });
    // A terminal that ran through the editor keeps its output and controls after the call is over.
    const ran = { commandLine: 'npm test', output: '42 passed\n', trimmed: false, released: true, exit: { exitCode: 0, signal: null } };
    assert.deepEqual(terminalShown('t-1', ran, true), {
      commandLine: 'npm test',
      status: { label: 'Exited with code 0', tone: 'ok' },
      output: '42 passed\n',
      controls: true,
    });
  });
});

describe('terminal output in parts', () => {
  it('cuts a long output at line ends into parts that, joined with newlines, are the output', () => {
    const output = 'flood lines of terminal output!\n'.repeat(2_000) + 'flood-done\n';
    const parts = terminalParts(output, 4_000);
    assert.ok(parts.length > 10, `${parts.length} parts`);
    assert.equal(parts.join('\n'), output);
    for (const part of parts) assert.ok(part.length <= 4_000, `a part of ${part.length}`);
    assert.ok(
      parts.slice(0, -1).every((part) => part.endsWith('output!')),
      'cut at line ends',
    );
  });

  it('cuts a line longer than a part within it, and leaves a short output whole', () => {
    const line = 'x'.repeat(10_000);
    assert.deepEqual(terminalParts(line, 4_000), ['x'.repeat(4_000), 'x'.repeat(4_000), 'x'.repeat(2_000)]);
    assert.deepEqual(terminalParts('a\nb\n', 4_000), ['a\nb\n']);
    assert.deepEqual(terminalParts('', 4_000), ['']);
  });
});

describe('terminal output: the tail a running card draws', () => {
  it('is the newest lines of a flood, a few KB of the 64,000 characters kept', () => {
    const output = Array.from({ length: 2_000 }, (_, index) => `line ${index} of the flood`).join('\n') + '\n';
    const tail = terminalTail(output);
    assert.equal(tail.split('\n').length - 1, TERMINAL_TAIL_LINES, 'whole lines, as many as asked');
    assert.ok(output.endsWith(tail));
    assert.ok(tail.startsWith(`line ${2_000 - TERMINAL_TAIL_LINES} of`), tail.slice(0, 40));
    assert.ok(tail.length <= TERMINAL_TAIL_CHARS);
  });

  it('keeps long lines to the character cap, and leaves a short output whole', () => {
    const long = 'y'.repeat(64_000);
    assert.equal(terminalTail(long), 'y'.repeat(TERMINAL_TAIL_CHARS));
    assert.equal(terminalTail(`a\n${long}\nz`).length, TERMINAL_TAIL_CHARS);
    assert.equal(terminalTail('a\nb\nc\n', 2), 'b\nc\n');
    assert.equal(terminalTail('a\nb\nc', 2), 'b\nc');
    assert.equal(terminalTail('a\nb\n', 5), 'a\nb\n');
    assert.equal(terminalTail(''), '');
  });
});
