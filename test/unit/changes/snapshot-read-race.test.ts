/**
 * The attack on a snapshot's read: the agent (or anything else running as the user) swaps a workspace file for a
 * link to a secret outside it, over and over, while the change engine reads that file for its "before". A check of
 * the path followed by a read of the path (lstat, then readFile) loses that race now and then and copies the secret
 * into the extension's storage; a read of the opened file, opened without following a link, never does.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { readForSnapshot, readSmallNow } from '../../../src/changes/snapshot-read';

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
});
