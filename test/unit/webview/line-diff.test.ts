import * as assert from 'node:assert/strict';
import { classifyPatchLine, diffLines, hunkHeader, splitLines, type LineDiff } from '../../../webview/review/line-diff';

/** The diff as `diff -u` would print its body. */
function unified(diff: LineDiff): string[] {
  return diff.hunks.flatMap((hunk) => [
    hunkHeader(hunk),
    ...hunk.lines.map((line) => `${line.kind === 'add' ? '+' : line.kind === 'del' ? '-' : ' '}${line.text}`),
  ]);
}

/** Applying the diff's lines to the old text must give the new text: the diff is a correct edit script. */
function apply(oldText: string, diff: LineDiff): string[] {
  const old = splitLines(oldText);
  const result: string[] = [];
  let at = 0;
  for (const hunk of diff.hunks) {
    const start = hunk.oldLines === 0 ? hunk.oldStart : hunk.oldStart - 1;
    result.push(...old.slice(at, start));
    at = start;
    for (const line of hunk.lines) {
      if (line.kind === 'add') result.push(line.text);
      else {
        assert.equal(old[at], line.text, 'context and removed lines match the old text');
        if (line.kind === 'context') result.push(line.text);
        at++;
      }
    }
  }
  result.push(...old.slice(at));
  return result;
}

describe('line diff', () => {
  it('shows a one-line change with three lines of context, like diff -u', () => {
    const oldText = 'a\nb\nc\nd\ne\nf\ng\nh\n';
    const newText = 'a\nb\nc\nd\nE\nf\ng\nh\n';
    const diff = diffLines(oldText, newText);
    assert.deepEqual(unified(diff), ['@@ -2,7 +2,7 @@', ' b', ' c', ' d', '-e', '+E', ' f', ' g', ' h']);
    assert.equal(diff.added, 1);
    assert.equal(diff.removed, 1);
  });

  it('treats a new file (oldText null) as all added', () => {
    const diff = diffLines(null, 'one\ntwo');
    assert.deepEqual(unified(diff), ['@@ -0,0 +1,2 @@', '+one', '+two']);
  });

  it('treats emptying a file as all removed', () => {
    assert.deepEqual(unified(diffLines('x\ny\n', '')), ['@@ -1,2 +0,0 @@', '-x', '-y']);
  });

  it('has no hunks when nothing changed', () => {
    const diff = diffLines('same\ntext\n', 'same\ntext\n');
    assert.equal(diff.hunks.length, 0);
    assert.equal(diff.added + diff.removed, 0);
  });

  it('splits far-apart changes into separate hunks and merges close ones', () => {
    const old = Array.from({ length: 30 }, (_, i) => `line ${i}`);
    const far = [...old];
    far[2] = 'changed 2';
    far[25] = 'changed 25';
    assert.equal(diffLines(old.join('\n'), far.join('\n')).hunks.length, 2);
    const close = [...old];
    close[2] = 'changed 2';
    close[7] = 'changed 7';
    assert.equal(diffLines(old.join('\n'), close.join('\n')).hunks.length, 1);
  });

  it('finds a minimal edit for insertions in the middle', () => {
    const diff = diffLines('a\nb\nc\nd', 'a\nb\nX\nY\nc\nd');
    assert.equal(diff.added, 2);
    assert.equal(diff.removed, 0);
  });

  it('produces a correct edit script for mixed edits', () => {
    const oldText = 'alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\niota\nkappa\nlambda\nmu\n';
    const newText = 'alpha\nBETA\ngamma\nepsilon\nzeta\nnew\neta\ntheta\nkappa\nlambda\nmu\nnu\n';
    const diff = diffLines(oldText, newText, { context: 1 });
    assert.deepEqual(apply(oldText, diff), splitLines(newText));
  });

  it('falls back to replace-all beyond the edit budget, still correct', () => {
    const oldText = Array.from({ length: 50 }, (_, i) => `old ${i}`).join('\n');
    const newText = Array.from({ length: 50 }, (_, i) => `new ${i}`).join('\n');
    const diff = diffLines(oldText, newText, { maxEdits: 10 });
    assert.equal(diff.removed, 50);
    assert.equal(diff.added, 50);
    assert.deepEqual(apply(oldText, diff), splitLines(newText));
  });

  it('keeps the common head and tail as context when it falls back', () => {
    const head = ['h1', 'h2', 'h3', 'h4'];
    const tail = ['t1', 't2', 't3', 't4'];
    const middle = (prefix: string): string[] => [
      ...Array.from({ length: 10 }, (_, i) => `${prefix} ${i}`),
      'kept',
      ...Array.from({ length: 10 }, (_, i) => `${prefix} ${i + 10}`),
    ];
    const oldText = [...head, ...middle('old'), ...tail].join('\n');
    const newText = [...head, ...middle('new'), ...tail].join('\n');
    assert.deepEqual(
      [diffLines(oldText, newText).added, diffLines(oldText, newText).removed],
      [20, 20],
      'within budget the common middle line is kept',
    );
    const diff = diffLines(oldText, newText, { maxEdits: 10 });
    assert.deepEqual(unified(diff).slice(0, 5), ['@@ -2,27 +2,27 @@', ' h2', ' h3', ' h4', '-old 0']);
    assert.deepEqual(unified(diff).slice(-4), ['+new 19', ' t1', ' t2', ' t3']);
    assert.deepEqual([diff.added, diff.removed], [21, 21], 'over budget everything between head and tail is replaced');
    assert.deepEqual(apply(oldText, diff), splitLines(newText));
  });

  it('numbers a hunk that only inserts from the line before it, like diff -u', () => {
    assert.deepEqual(unified(diffLines('a\nb\n', 'a\nb\nc\n', { context: 0 })), ['@@ -2,0 +3,1 @@', '+c']);
  });

  it('ignores the difference between CRLF and LF line ends', () => {
    assert.equal(diffLines('a\r\nb\r\n', 'a\nb\n').hunks.length, 0);
  });

  it('classifies the lines of a ready-made patch', () => {
    assert.deepEqual(['--- a/x', '+++ b/x', '@@ -1 +1 @@', '-old', '+new', ' same'].map(classifyPatchLine), [
      'meta',
      'meta',
      'hunk',
      'del',
      'add',
      'context',
    ]);
  });
});
