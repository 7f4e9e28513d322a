/**
 * The attack on a snapshot's read: the agent (or anything else running as the user) swaps a workspace file for a
 * link to a secret outside it, over and over, while the change engine reads that file for its "before". A check of
 * the path followed by a read of the path (lstat, then readFile) loses that race now and then and copies the secret
 * into the extension's storage; a read of the opened file, opened without following a link, never does.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { SnapshotRead } from '../../../src/changes/change-ports';
import { openedInsideByFolder } from '../../../src/client/opened-inside';
import { readForSnapshot, readSmallNow } from '../../../src/changes/snapshot-read';
import { DiskChangeFiles } from '../../support/disk-change-ports';
import { whileFolderSwapped } from '../../support/folder-swapper';

/** Swaps `target` between a plain file and a link to `secret` (each by an atomic rename) until `stop[0]` is set. */
const SWAPPER = `
const { renameSync, symlinkSync, writeFileSync, rmSync } = require('node:fs');
const { workerData } = require('node:worker_threads');
const { target, secret, stop } = workerData;
const flag = new Int32Array(stop);
let swaps = 0;
while (Atomics.load(flag, 0) === 0) {
  writeFileSync(target + '.plain', 'plain text');
  renameSync(target + '.plain', target);
  rmSync(target + '.link', { force: true });
  symlinkSync(secret, target + '.link');
  renameSync(target + '.link', target);
  swaps += 1;
}
Atomics.store(flag, 1, swaps);
`;

const SECRET = 'the secret outside the workspace';

describe('a snapshot read against a file swapped for a link', function () {
  this.timeout(30_000);
  if (process.platform === 'win32') return;

  let scratch: string;
  let target: string;
  let secret: string;
  beforeEach(() => {
    scratch = mkdtempSync(path.join(tmpdir(), 'acp-read-race-'));
    mkdirSync(path.join(scratch, 'workspace'));
    secret = path.join(scratch, 'secret.txt');
    writeFileSync(secret, SECRET);
    target = path.join(scratch, 'workspace', 'file.txt');
    writeFileSync(target, 'plain text');
  });
  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  /** Runs `readMany` while the swapper runs; how many swaps it made. */
  async function whileSwapping(readMany: () => Promise<void>): Promise<number> {
    const stop = new SharedArrayBuffer(8);
    const worker = new Worker(SWAPPER, { eval: true, workerData: { target, secret, stop } });
    const exited = new Promise<void>((resolve, reject) => {
      worker.once('exit', () => resolve());
      worker.once('error', reject);
    });
    try {
      await readMany();
    } finally {
      Atomics.store(new Int32Array(stop), 0, 1);
      await exited;
    }
    return new Int32Array(stop)[1] ?? 0;
  }

  it('never reads the link target on the event loop (readSmallNow)', async () => {
    const seen = new Map<string, number>();
    const swaps = await whileSwapping(async () => {
      const until = Date.now() + 2_000;
      while (Date.now() < until) {
        for (let i = 0; i < 200; i += 1) {
          const read = readSmallNow(target, 1_000)?.read;
          const text = read instanceof Uint8Array ? Buffer.from(read).toString() : read === undefined ? '(none)' : '(hashed)';
          seen.set(text, (seen.get(text) ?? 0) + 1);
        }
        // Lets the swapper's exit and the timers in between.
        await new Promise((resolve) => setImmediate(resolve));
      }
    });
    assert.ok(swaps > 100, `the swapper ran (${swaps} swaps)`);
    assert.ok((seen.get('plain text') ?? 0) > 0, `some reads found the plain file: ${JSON.stringify([...seen])}`);
    assert.equal(seen.get(SECRET), undefined, `the secret was read: ${JSON.stringify([...seen])}`);
  });

  it('never reads the link target in the usual read (readForSnapshot)', async () => {
    const seen = new Map<string, number>();
    const swaps = await whileSwapping(async () => {
      const until = Date.now() + 2_000;
      while (Date.now() < until) {
        const read = await readForSnapshot(target, 1_000);
        const text = read instanceof Uint8Array ? Buffer.from(read).toString() : read === undefined ? '(none)' : '(hashed)';
        seen.set(text, (seen.get(text) ?? 0) + 1);
      }
    });
    assert.ok(swaps > 100, `the swapper ran (${swaps} swaps)`);
    assert.ok((seen.get('plain text') ?? 0) > 0, `some reads found the plain file: ${JSON.stringify([...seen])}`);
    assert.equal(seen.get(SECRET), undefined, `the secret was read: ${JSON.stringify([...seen])}`);
  });

  it('opens a FIFO put at the path without waiting for a writer, and reads nothing from it', async () => {
    // A read of the path once it passed the check would block a pool thread (or, on the event loop, the extension
    // host) until something wrote to the FIFO.
    rmSync(target);
    execFileSync('mkfifo', [target]);
    const started = Date.now();
    assert.deepEqual(readSmallNow(target, 1_000), { read: undefined, modifiedAfter: undefined });
    assert.equal(await readForSnapshot(target, 1_000), undefined);
    assert.ok(Date.now() - started < 2_000, 'returned at once');
  });

  describe('a folder on the way that is a link', () => {
    let files: DiskChangeFiles;
    let outside: string;
    beforeEach(() => {
      outside = path.join(scratch, 'outside');
      mkdirSync(outside);
      writeFileSync(path.join(outside, 'id_rsa'), SECRET);
      files = new DiskChangeFiles(path.join(scratch, 'workspace'));
    });

    it('is not followed out of the workspace: a file named through it is not read, now or the usual way', async () => {
      // What a repository can hold: git checks a link out as a link.
      symlinkSync(outside, path.join(scratch, 'workspace', 'docs'));
      const named = path.join(scratch, 'workspace', 'docs', 'id_rsa');
      assert.equal(readFileSync(named, 'utf8'), SECRET, 'the path does lead to the secret');
      assert.deepEqual(files.readSmallNow(named, 1_000), { read: undefined, modifiedAfter: undefined });
      assert.equal(await files.read(named, 1_000), undefined);
      const stats = lstatSync(path.join(outside, 'id_rsa'));
      assert.equal(await openedInsideByFolder(named, stats, [realpathSync(path.join(scratch, 'workspace'))]), false, 'nor without /proc');
    });

    it('is followed when it leads to another place inside the workspace (a monorepo package link)', async () => {
      mkdirSync(path.join(scratch, 'workspace', 'packages'));
      writeFileSync(path.join(scratch, 'workspace', 'packages', 'index.ts'), 'export {};\n');
      symlinkSync(path.join(scratch, 'workspace', 'packages'), path.join(scratch, 'workspace', 'linked'));
      const named = path.join(scratch, 'workspace', 'linked', 'index.ts');
      assert.equal(Buffer.from((files.readSmallNow(named, 1_000)?.read as Uint8Array | undefined) ?? []).toString(), 'export {};\n');
      const read = await files.read(named, 1_000);
      assert.equal(read instanceof Uint8Array ? Buffer.from(read).toString() : read, 'export {};\n');
      const stats = lstatSync(path.join(scratch, 'workspace', 'packages', 'index.ts'));
      assert.equal(await openedInsideByFolder(named, stats, [realpathSync(path.join(scratch, 'workspace'))]), true, 'also without /proc');
    });

    it('never has the secret read while a folder is swapped for a link to it and back', async () => {
      const folder = path.join(scratch, 'workspace', 'dir');
      mkdirSync(folder);
      writeFileSync(path.join(folder, 'id_rsa'), 'plain text');
      const named = path.join(folder, 'id_rsa');
      const seen = new Map<string, number>();
      const note = (read: SnapshotRead): void => {
        const text = read instanceof Uint8Array ? Buffer.from(read).toString() : read === undefined ? '(none)' : '(hashed)';
        seen.set(text, (seen.get(text) ?? 0) + 1);
      };
      const swaps = await whileFolderSwapped(folder, outside, async () => {
        const until = Date.now() + 2_000;
        while (Date.now() < until) {
          for (let i = 0; i < 50; i += 1) note(files.readSmallNow(named, 1_000)?.read);
          note(await files.read(named, 1_000));
        }
      });
      assert.ok(swaps > 100, 'the swapper ran');
      assert.ok((seen.get('plain text') ?? 0) > 0, `some reads found the plain file: ${JSON.stringify([...seen])}`);
      assert.equal(seen.get(SECRET), undefined, `the secret was read: ${JSON.stringify([...seen])}`);
    });
  });
});
