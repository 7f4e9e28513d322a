/** Terminal output as the chat shows it: escapes removed, carriage-return redraws collapsed; the status line. */
import * as assert from 'node:assert/strict';
import { plainTerminalText, terminalStatus } from '../../../webview/transcript/terminal-text';

describe('webview: terminal text', () => {
  it('removes colour, cursor and title escape sequences', () => {
    assert.equal(plainTerminalText('\x1b[1;31mFAIL\x1b[0m test\x1b[2K\n\x1b]0;title\x07done'), 'FAIL test\ndone');
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
});
