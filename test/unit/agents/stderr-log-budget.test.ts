import * as assert from 'node:assert/strict';
import { STDERR_LOG_LIMITS, StderrLogBudget } from '../../../src/agents/stderr-log-budget';

const small = (): StderrLogBudget => new StderrLogBudget({ lineChars: 10, totalChars: 30 });

describe('stderr log budget', () => {
  it('logs complete lines, across chunks, without \\r and empty lines', () => {
    const budget = small();
    assert.deepEqual(budget.push('one\r\ntw'), ['one']);
    assert.deepEqual(budget.push('o\r'), []);
    assert.deepEqual(budget.push('\n\n\r\nthree\n'), ['two', 'three']);
  });

  it('keeps an unterminated line until its end comes', () => {
    const budget = small();
    assert.deepEqual(budget.push('abc'), []);
    assert.deepEqual(budget.push('def'), []);
    assert.deepEqual(budget.push('\n'), ['abcdef']);
  });

  it('cuts a long line to its start, with its whole length', () => {
    const budget = small();
    assert.deepEqual(budget.push('0123456789abc'), []);
    assert.deepEqual(budget.push('defg\n'), ['0123456789… [line cut: 17 characters]']);
  });

  it('does not cut a line whose only extra character is the \\r of a CRLF', () => {
    assert.deepEqual(small().push('0123456789\r\n'), ['0123456789']);
  });

  it('does not cut a character in half', () => {
    const [line] = small().push(`012345678${'😀'}xxxxx\n`);
    assert.equal(line, '012345678… [line cut: 16 characters]');
  });

  it('says once that the budget is spent, then logs nothing more', () => {
    const budget = small();
    assert.deepEqual(budget.push('aaaaaaaaaa\nbbbbbbbbbb\ncccccccc'), ['aaaaaaaaaa', 'bbbbbbbbbb']);
    assert.deepEqual(budget.push('cc\n'), ['cccccccccc']);
    const [notice, ...rest] = budget.push('eeee\nffff\n');
    assert.match(notice ?? '', /^\[stderr log limit reached \(30 characters\): the rest .* is not logged;/);
    assert.deepEqual(rest, []);
    assert.deepEqual(budget.push('gggg\n'.repeat(1000)), []);
  });

  it('logs a flood within its budget: 50 MB of lines and one long line come to about 1 MB', () => {
    const budget = new StderrLogBudget();
    let logged = 0;
    const count = (lines: string[]): void => lines.forEach((line) => (logged += line.length));
    const block = ('x'.repeat(99) + '\n').repeat(10_000);
    count(budget.push('y'.repeat(10_000_000) + '\n'));
    for (let i = 0; i < 40; i++) count(budget.push(block));
    assert.ok(logged > STDERR_LOG_LIMITS.totalChars - 100, `${logged}`);
    assert.ok(logged <= STDERR_LOG_LIMITS.totalChars + STDERR_LOG_LIMITS.lineChars + 300, `${logged}`);
  });
});
