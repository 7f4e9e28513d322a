/** VS Code's workspace storage lock, read and taken by its protocol: the verdict table, and the file work on real files. */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { lockVerdict, parseLock, readLock, takeLock, type LockState } from '../../../src/history/storage-lock';
import { tempRootPerTest } from './temp-root';

const NOW = 1_000_000_000_000;
const held = (pid: number, willReleaseAt: number, mtimeMs = NOW - 500): LockState => ({
  kind: 'held',
  contents: { pid, willReleaseAt },
  mtimeMs,
});

describe('history: storage lock', () => {
  const root = tempRootPerTest();

  it('parses what VS Code writes, and nothing else as a lock', () => {
    assert.deepEqual(parseLock('{"pid":42,"willReleaseAt":0}'), { pid: 42, willReleaseAt: 0 });
    assert.deepEqual(parseLock('{"pid":42,"willReleaseAt":1700000000000}'), { pid: 42, willReleaseAt: 1700000000000 });
    assert.deepEqual(parseLock('{"pid":42}'), { pid: 42, willReleaseAt: 0 });
    for (const text of ['', '{"pid":', 'null', '[]', '{"pid":"42"}', '{"pid":-1}', '{"pid":1.5}', '{"pid":0}'])
      assert.equal(parseLock(text), undefined, text);
  });

  it('judges a lock by VS Code rules: free, releasing until a time, or held by a live window', () => {
    const alive = (pid: number): boolean => pid === 7;
    const cases: [string, LockState, ReturnType<typeof lockVerdict>][] = [
      ['absent', { kind: 'absent' }, { kind: 'free' }],
      ['unreadable', { kind: 'unreadable' }, { kind: 'free' }],
      ['live, no release scheduled', held(7, 0), { kind: 'held' }],
      ['live, release scheduled', held(7, NOW + 6_000), { kind: 'releasing', until: NOW + 6_000 }],
      ['live, release time passed', held(7, NOW - 1), { kind: 'free' }],
      ['holder gone', held(8, 0), { kind: 'free' }],
      ['holder gone, release scheduled', held(8, NOW + 6_000), { kind: 'releasing', until: NOW + 6_000 }],
      ['live, not refreshed for 11 minutes', held(7, 0, NOW - 11 * 60_000), { kind: 'free' }],
    ];
    for (const [name, state, verdict] of cases) assert.deepEqual(lockVerdict(state, NOW, alive), verdict, name);
  });

  it('reads a lock without following a link, and only a small regular file', async () => {
    const lock = path.join(root(), 'vscode.lock');
    assert.deepEqual(await readLock(lock), { kind: 'absent' });
    writeFileSync(lock, '{"pid":42,"willReleaseAt":0}');
    const state = await readLock(lock);
    assert.equal(state.kind, 'held');
    const link = path.join(root(), 'link.lock');
    symlinkSync(lock, link);
    assert.deepEqual(await readLock(link), { kind: 'unreadable' }, 'a symlink is not followed');
    const big = path.join(root(), 'big.lock');
    writeFileSync(big, `{"pid":42,"pad":"${'x'.repeat(4096)}"}`);
    assert.deepEqual(await readLock(big), { kind: 'unreadable' }, 'an oversized file is not a lock');
    assert.deepEqual(await readLock(root()), { kind: 'unreadable' }, 'a directory is not a lock');
  });

  it('takes a free lock with our pid and lets go of it, but never of one another host has taken since', async () => {
    const lock = path.join(root(), 'vscode.lock');
    const taken = await takeLock(lock, false);
    assert.ok(taken, 'taken');
    assert.deepEqual(JSON.parse(readFileSync(lock, 'utf8')), { pid: process.pid, willReleaseAt: 0 });
    assert.equal(await takeLock(lock, false), undefined, 'an existing lock is not taken without being judged stale');
    taken.release();
    assert.equal(existsSync(lock), false, 'released');

    const again = await takeLock(lock, false);
    assert.ok(again);
    writeFileSync(lock, '{"pid":1,"willReleaseAt":0}');
    again.release();
    assert.equal(readFileSync(lock, 'utf8'), '{"pid":1,"willReleaseAt":0}', "another host's lock is left alone");
  });

  it('takes a stale lock by removing it first, and keeps the one it holds fresh', async () => {
    const lock = path.join(root(), 'vscode.lock');
    writeFileSync(lock, '{"pid":999999999,"willReleaseAt":0}');
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    const taken = await takeLock(lock, true);
    assert.ok(taken);
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    const state = await readLock(lock);
    assert.ok(state.kind === 'held' && Date.now() - state.mtimeMs < 1_500, 'refreshed every second, as VS Code does');
    taken.release();
  });
});
