/**
 * The baseline's walk of the workspace and the turns that start while it runs: a turn narrows the walk's reads in
 * flight, and a small file the agent names is read at once, so that its before is known when the agent writes it.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Baseline } from '../../../src/changes/baseline';
import { ABSENT } from '../../../src/changes/file-state';
import { ContentStore } from '../../../src/changes/content-store';
import { DiskChangeFiles } from '../../support/disk-change-ports';

/** A workspace of `count` files whose reads end only when the test lets them, counting how many are in flight. */
class HeldReads extends DiskChangeFiles {
  inFlight = 0;
  mostInFlight = 0;
  private readonly held: (() => void)[] = [];

  constructor(
    root: string,
    private readonly names: readonly string[],
  ) {
    super(root);
  }

  override list(): Promise<readonly string[]> {
    return Promise.resolve(this.names);
  }

  override async read(): Promise<Uint8Array> {
    this.inFlight++;
    this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
    await new Promise<void>((release) => this.held.push(release));
    this.inFlight--;
    return new TextEncoder().encode('text\n');
  }

  override modifiedAt(): Promise<number> {
    return Promise.resolve(0);
  }

  /** Ends the reads waiting now; resolves once the walk has reacted (started the next ones). */
  async release(): Promise<void> {
    for (const release of this.held.splice(0)) release();
    await new Promise((resolve) => setImmediate(resolve));
  }

  get waiting(): number {
    return this.held.length;
  }
}

describe('baseline walk', () => {
  let scratch: string;
  beforeEach(() => (scratch = mkdtempSync(path.join(tmpdir(), 'acp-baseline-'))));
  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  const baselineOf = (files: HeldReads): Baseline =>
    new Baseline(files, new ContentStore(path.join(scratch, 'blobs'), { maxTotalBytes: () => 1024 * 1024, maxFileBytes: 1024 }));

  it('reads 4 files at once while a turn runs, 16 otherwise, and finishes even while the turn goes on', async () => {
    const names = Array.from({ length: 100 }, (_, i) => path.join(scratch, `f${i}.txt`));
    const files = new HeldReads(scratch, names);
    const baseline = baselineOf(files);
    const turn = {};
    baseline.turnBegan(turn);
    const seeded = baseline.seed();
    await files.release();
    for (let i = 0; i < 5; i++) {
      assert.ok(files.waiting <= 4, `${files.waiting} reads in flight during the turn`);
      await files.release();
    }
    assert.ok(files.mostInFlight <= 4, `at most ${files.mostInFlight} at once`);
    baseline.turnEnded(turn);
    // The reads just released still store what they read (on disk) before their workers go on.
    for (let waited = 0; files.waiting < 16 && waited < 2_000; waited += 5) await new Promise((resolve) => setTimeout(resolve, 5));
    assert.equal(files.waiting, 16, 'with no turn running, the walk reads 16 at once again');
    // A turn begins again and outlasts the walk: the walk still ends, though most of its workers wait.
    baseline.turnBegan(turn);
    while (!baseline.isSeeded) await files.release();
    await seeded;
    assert.equal(baseline.size, 100);
  });

  it('reads a small named file at once: the agent writing it right after the tool call still leaves its before', async () => {
    const named = path.join(scratch, 'named.txt');
    const big = path.join(scratch, 'big.txt');
    writeFileSync(named, 'before\n');
    writeFileSync(big, 'x'.repeat(300 * 1024));
    // Last modified well before the turn.
    for (const file of [named, big]) utimesSync(file, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const baseline = new Baseline(
      new DiskChangeFiles(scratch),
      new ContentStore(path.join(scratch, 'blobs'), { maxTotalBytes: () => 8 * 1024 * 1024, maxFileBytes: 1024 * 1024 }),
    );
    baseline.turnBegan({});
    const primed = [baseline.prime(named), baseline.prime(big)];
    // The agent writes both before any read in the pool could have run.
    writeFileSync(named, 'after\n');
    writeFileSync(big, 'y');
    await Promise.all(primed);
    const before = baseline.stateOf(named);
    assert.equal(before.kind, 'file');
    assert.equal(before.kind === 'file' ? before.size : -1, 'before\n'.length, 'the before is the content before the write');
    // Its file time is asked for from the read's callback, which runs only after the write above.
    assert.equal(baseline.stateOf(big).kind, 'unknown', 'a large file is read the usual way: after the write, so unknown');
  });

  it("keeps a folder's deletion when a read of a file in it, begun before, ends after", async () => {
    // The watcher reports a folder made with a file in it, then the folder deleted (a build's scratch folder); the
    // file's read began before the deletion and ends after it, with the content the file had.
    const inside = path.join(scratch, 'made', 'z.txt');
    const files = new HeldReads(scratch, []);
    const baseline = baselineOf(files);
    await baseline.seed();
    const reading = baseline.refresh(inside);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(baseline.knownUnder(path.join(scratch, 'made')), [inside], 'a file being read counts as known in its folder');
    baseline.set(inside, ABSENT);
    await files.release();
    await reading;
    assert.equal(baseline.stateOf(inside).kind, 'absent', 'the read from before the deletion does not bring the file back');
    assert.deepEqual(baseline.knownUnder(path.join(scratch, 'made')), []);
  });
});
