/**
 * The storage folder after a fast reload: given `<id>-1` while the old window's host lets go of `<id>`, the
 * history's folder is `<id>` once it is free (bounded wait); a live holder keeps it; nothing is followed through a link.
 */
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { chooseStorageFolder, type StorageWait } from '../../../src/history/storage-folder';
import { suffixedFolder } from '../../../src/history/stand-in-folder';
import { tempRootPerTest } from './temp-root';

const EXTENSION = 'acp-client.acp-client';
const QUICK: StorageWait = { heldMs: 400, maxMs: 3_000 };

describe('history: storage folder after a fast reload', () => {
  const root = tempRootPerTest();
  let sleeper: ChildProcess | undefined;
  afterEach(() => {
    sleeper?.kill();
    sleeper = undefined;
  });

  /** workspaceStorage/<id> as VS Code leaves it (meta.json naming it), and the `<id>-1` folder we were given. */
  function storage(id = 'a1b2c3'): { base: string; given: string; lock: string } {
    const base = path.join(root(), id);
    mkdirSync(path.join(base, EXTENSION, 'history'), { recursive: true });
    writeFileSync(path.join(base, 'meta.json'), JSON.stringify({ id, configuration: 'file:///w', name: 'w' }));
    const given = path.join(root(), `${id}-1`, EXTENSION);
    mkdirSync(given, { recursive: true });
    return { base, given, lock: path.join(base, 'vscode.lock') };
  }

  /** A live process other than us, to hold a lock as another window's host would. */
  function livePid(): number {
    sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    return sleeper.pid ?? assert.fail('no pid');
  }

  it('knows the folders VS Code names after the first: <id>-1 to <id>-9', () => {
    assert.deepEqual(suffixedFolder('a1b2c3-1'), { base: 'a1b2c3', suffix: 1 });
    assert.deepEqual(suffixedFolder('-44510905-9'), { base: '-44510905', suffix: 9 });
    for (const name of ['a1b2c3', '-44510905', 'a1b2c3-0', 'a1b2c3-10', '-1']) assert.equal(suffixedFolder(name), undefined, name);
  });

  it('keeps the folder it was given when it is the first one', async () => {
    const { base } = storage();
    const chosen = await chooseStorageFolder(path.join(base, EXTENSION), QUICK);
    assert.equal(chosen.dir, path.join(base, EXTENSION));
    assert.equal(chosen.lock, undefined);
  });

  it('takes <id> when its lock is already gone, by the lock protocol', async () => {
    const { base, given, lock } = storage();
    const chosen = await chooseStorageFolder(given, QUICK);
    assert.equal(chosen.dir, path.join(base, EXTENSION));
    assert.deepEqual(JSON.parse(readFileSync(lock, 'utf8')), { pid: process.pid, willReleaseAt: 0 });
    chosen.lock?.release();
    assert.equal(existsSync(lock), false);
  });

  it('takes <id> without a meta.json (not always written), but stays when <id> holds nothing of ours', async () => {
    const { base, given } = storage();
    rmSync(path.join(base, 'meta.json'));
    const chosen = await chooseStorageFolder(given, QUICK);
    assert.equal(chosen.dir, path.join(base, EXTENSION), chosen.note);
    chosen.lock?.release();
    rmSync(path.join(base, EXTENSION), { recursive: true });
    assert.equal((await chooseStorageFolder(given, QUICK)).dir, given, 'nothing to restore there');
    assert.equal(existsSync(path.join(base, 'vscode.lock')), false, 'and no lock taken for it');
  });

  it('waits for a holder that is releasing <id>, then takes it', async () => {
    const { base, given, lock } = storage();
    writeFileSync(lock, JSON.stringify({ pid: livePid(), willReleaseAt: Date.now() + 6_000 }));
    setTimeout(() => unlinkSync(lock), 600);
    const started = Date.now();
    const chosen = await chooseStorageFolder(given, QUICK);
    assert.equal(chosen.dir, path.join(base, EXTENSION), chosen.note);
    assert.ok(Date.now() - started >= 500, 'not before the old host let go');
    chosen.lock?.release();
  });

  it('waits for a busy holder that starts releasing within the bound (its host got the reload late)', async () => {
    const { base, given, lock } = storage();
    const pid = livePid();
    writeFileSync(lock, JSON.stringify({ pid, willReleaseAt: 0 }));
    setTimeout(() => writeFileSync(lock, JSON.stringify({ pid, willReleaseAt: Date.now() + 6_000 })), 300);
    setTimeout(() => unlinkSync(lock), 700);
    const chosen = await chooseStorageFolder(given, QUICK);
    assert.equal(chosen.dir, path.join(base, EXTENSION), chosen.note);
    chosen.lock?.release();
  });

  it('leaves <id> to a live window that holds it (two windows never share a history)', async () => {
    const { given, lock } = storage();
    const pid = livePid();
    writeFileSync(lock, JSON.stringify({ pid, willReleaseAt: 0 }));
    const started = Date.now();
    const chosen = await chooseStorageFolder(given, QUICK);
    assert.equal(chosen.dir, given);
    assert.equal(chosen.lock, undefined);
    assert.ok(Date.now() - started < QUICK.maxMs, 'gave up after the held bound, not the whole wait');
    assert.deepEqual(JSON.parse(readFileSync(lock, 'utf8')), { pid, willReleaseAt: 0 }, 'its lock untouched');
  });

  it('gives up at the bound whatever a lock says of its release time', async () => {
    const { given, lock } = storage();
    writeFileSync(lock, JSON.stringify({ pid: livePid(), willReleaseAt: Date.now() + 3_600_000 }));
    const chosen = await chooseStorageFolder(given, { heldMs: 200, maxMs: 600 });
    assert.equal(chosen.dir, given);
  });

  it('takes a lock left unreadable only once it stays so (a holder rewriting it truncates it first)', async () => {
    const { base, given, lock } = storage();
    writeFileSync(lock, '');
    const started = Date.now();
    const chosen = await chooseStorageFolder(given, QUICK);
    assert.equal(chosen.dir, path.join(base, EXTENSION), chosen.note);
    assert.ok(Date.now() - started >= 450, 'judged after it stayed unreadable');
    chosen.lock?.release();
  });

  it('follows no link and trusts no folder that is not <id>', async () => {
    // <id> a symlink to a storage folder elsewhere.
    const elsewhere = storage('elsewhere');
    const given = path.join(root(), 'linked-1', EXTENSION);
    mkdirSync(given, { recursive: true });
    symlinkSync(elsewhere.base, path.join(root(), 'linked'));
    assert.equal((await chooseStorageFolder(given, QUICK)).dir, given, '<id> a symlink');
    assert.equal(existsSync(elsewhere.lock), false, 'nothing taken through the link');

    // meta.json naming another workspace, or a link to one.
    const other = storage('b2');
    writeFileSync(path.join(other.base, 'meta.json'), JSON.stringify({ id: 'someone-else' }));
    assert.equal((await chooseStorageFolder(other.given, QUICK)).dir, other.given, 'meta.json names another id');
    rmSync(path.join(other.base, 'meta.json'));
    symlinkSync(path.join(elsewhere.base, 'meta.json'), path.join(other.base, 'meta.json'));
    assert.equal((await chooseStorageFolder(other.given, QUICK)).dir, other.given, 'meta.json a symlink');

    // Our folder inside <id> a link out of the storage root.
    const third = storage('c3');
    rmSync(path.join(third.base, EXTENSION), { recursive: true });
    symlinkSync(elsewhere.base, path.join(third.base, EXTENSION));
    assert.equal((await chooseStorageFolder(third.given, QUICK)).dir, third.given, 'our folder a symlink');
    assert.equal(existsSync(third.lock), false, 'no lock taken for it');

    // The lock itself a link: never followed, never written through.
    const fourth = storage('d4');
    const target = path.join(root(), 'target.lock');
    writeFileSync(target, JSON.stringify({ pid: livePid(), willReleaseAt: 0 }));
    symlinkSync(target, fourth.lock);
    const chosen = await chooseStorageFolder(fourth.given, QUICK);
    assert.equal(readFileSync(target, 'utf8').includes(String(process.pid)), false, 'nothing written through the link');
    chosen.lock?.release();
  });
});
