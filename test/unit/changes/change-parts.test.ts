/** The change engine's smaller parts: exclusion globs, bounded snapshot reads, the content store, the reducer. */
import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ContentStore } from '../../../src/changes/content-store';
import { globToRegExp, isExcluded } from '../../../src/changes/exclude-globs';
import type { FileState } from '../../../src/changes/file-state';
import { readForSnapshot } from '../../../src/changes/snapshot-read';
import { initialState, reduce } from '../../../src/shared/reducer';
import { entriesOf } from '../../../src/shared/selectors';
import { parseWebviewMessage } from '../../../src/views/webview-messages';

describe('change engine parts', () => {
  let scratch: string;
  beforeEach(() => {
    scratch = mkdtempSync(path.join(tmpdir(), 'acp-change-parts-'));
  });
  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  it('matches files.watcherExclude globs against a path and its folders, and always excludes .git', () => {
    const patterns = ['**/node_modules/*/**', '**/.hg/store/**', 'build/*.{js,map}', 'tmp?/**'].map(globToRegExp);
    assert.equal(isExcluded('node_modules/pkg/index.js', patterns), true);
    assert.equal(isExcluded('a/b/node_modules/pkg/lib/x.js', patterns), true);
    assert.equal(isExcluded('.hg/store/data', patterns), true);
    assert.equal(isExcluded('build/app.js', patterns), true);
    assert.equal(isExcluded('build/app.ts', patterns), false);
    assert.equal(isExcluded('tmp1/x', patterns), true);
    assert.equal(isExcluded('src/.git/config', []), true);
    assert.equal(isExcluded('src/main.ts', patterns), false);
  });

  it('matches the character classes files.watcherExclude allows ([abc], [a-z], [!x])', () => {
    const patterns = ['**/[Bb]uild/**', 'logs/run[0-9].txt', 'cache[!s]/**'].map(globToRegExp);
    assert.equal(isExcluded('Build/app.js', patterns), true);
    assert.equal(isExcluded('pkg/build/app.js', patterns), true);
    assert.equal(isExcluded('logs/run7.txt', patterns), true);
    assert.equal(isExcluded('logs/runx.txt', patterns), false);
    assert.equal(isExcluded('cache1/data', patterns), true);
    assert.equal(isExcluded('caches/data', patterns), false);
    assert.equal(isExcluded('[Bb]uild/app.js', patterns), false);
  });

  it('reads a file up to the cap whole, and only hashes a larger one', async () => {
    const small = path.join(scratch, 'small.txt');
    const large = path.join(scratch, 'large.txt');
    writeFileSync(small, 'tiny');
    writeFileSync(large, 'x'.repeat(5000));
    const read = await readForSnapshot(small, 100);
    assert.ok(read instanceof Uint8Array);
    assert.equal(Buffer.from(read).toString(), 'tiny');
    const hashed = await readForSnapshot(large, 100);
    assert.ok(hashed !== undefined && !(hashed instanceof Uint8Array));
    assert.equal(hashed.size, 5000);
    assert.match(hashed.hash, /^[0-9a-f]{64}$/);
    assert.equal(await readForSnapshot(path.join(scratch, 'missing'), 100), undefined);
    assert.equal(await readForSnapshot(scratch, 100), undefined, 'a folder is not a file');
  });

  it('stores each content once, counts what earlier windows stored, and evicts least recently used, pinned last', async () => {
    const dir = path.join(scratch, 'blobs');
    const store = new ContentStore(dir, { maxTotalBytes: () => 10, maxFileBytes: 8 });
    const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
    const hashOf = (state: FileState): string => (state.kind === 'file' ? state.hash : '');
    const evicted: string[] = [];
    let pinned: string[] = [];
    store.use({ pinned: () => pinned, evicted: (hashes) => evicted.push(...hashes) });
    const first = await store.put(bytes('abcd'));
    const again = await store.put(bytes('abcd'));
    assert.deepEqual(first, again);
    assert.equal(first.kind === 'file' && first.stored, true);
    assert.equal(store.totalBytes, 4);
    const tooBig = await store.put(bytes('123456789'));
    assert.equal(tooBig.kind === 'file' && tooBig.stored, false, 'over the per-file cap');
    const second = await store.put(bytes('efgh'));
    assert.equal(readdirSync(dir).length, 2, 'two blobs, in sha256-prefix folders');
    // abcd is used again: efgh is now the least recently used, and goes when the budget is full.
    assert.deepEqual(await store.get(hashOf(first)), Buffer.from('abcd'));
    const third = await store.put(bytes('ijkl'));
    assert.equal(third.kind === 'file' && third.stored, true, 'new content is kept: the oldest makes room');
    assert.deepEqual(evicted, [hashOf(second)]);
    assert.equal(store.has(hashOf(second)), false);
    assert.equal(await store.get(hashOf(second)), undefined);
    assert.ok(store.totalBytes <= 10);
    // Pinned content (a change record's) goes only after everything else, however old it is.
    pinned = [hashOf(first)];
    await store.put(bytes('mnop'));
    assert.deepEqual(evicted, [hashOf(second), hashOf(third)]);
    assert.equal(store.has(hashOf(first)), true);
    assert.equal(await store.get('../../etc/passwd'), undefined, 'only hashes name blobs');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const reopened = new ContentStore(dir, { maxTotalBytes: () => 10, maxFileBytes: 8 });
    await reopened.put(bytes('abcd'));
    assert.equal(reopened.totalBytes, 8, 'what is on disk counts after a reload');
  });

  it('shows a change set as one entry per turn, replaced whole, removed when empty', () => {
    const file = { path: '/w/a.ts', change: 'modified' as const, added: 2, removed: 1, review: 'pending' as const };
    let state = reduce(initialState(), { type: 'change_set_recorded', turnId: 't1', origin: 'turn', files: [file] });
    assert.equal(entriesOf(state).length, 1);
    state = reduce(state, { type: 'change_set_recorded', turnId: 't1', origin: 'turn', files: [{ ...file, review: 'kept' }] });
    const entries = entriesOf(state);
    assert.equal(entries.length, 1);
    assert.equal(entries[0]?.kind === 'changes' && entries[0].files[0]?.review, 'kept');
    state = reduce(state, { type: 'change_set_recorded', turnId: 't1', origin: 'turn', files: [] });
    assert.equal(entriesOf(state).length, 0);
  });

  it("validates the change card's intents from the webview", () => {
    assert.deepEqual(parseWebviewMessage({ type: 'undo_changes', turnId: 't1', path: '/w/a.ts' }), {
      type: 'undo_changes',
      turnId: 't1',
      path: '/w/a.ts',
    });
    assert.deepEqual(parseWebviewMessage({ type: 'restore_checkpoint', turnId: 't1' }), { type: 'restore_checkpoint', turnId: 't1' });
    assert.ok('error' in parseWebviewMessage({ type: 'keep_changes' }));
  });
});
