/**
 * The snapshot's key index (state.positions) is stored in the 64 buckets every version so far reads, whatever this
 * version keeps in memory (shared/model.ts POSITION_BUCKETS): an older version opening it after a downgrade finds
 * each entry by its key, and this version finds the entries of a snapshot an older one wrote.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { EntryKey, TranscriptState } from '../../../src/shared/model';
import { allEntries, positionOf } from '../../../src/shared/pages';
import { reduce } from '../../../src/shared/reducer';
import { toolKey } from '../../../src/shared/selectors';
import { compactedSession } from './compacted-session';
import { asStored, tempRootPerTest } from './temp-root';

/** How the versions before this one look an entry's position up: FNV-1a of its key, modulo 64, written out anew. */
function olderVersionsPositionOf(positions: readonly (Record<EntryKey, number> | null)[], key: EntryKey): number | undefined {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return positions[(hash >>> 0) % 64]?.[key];
}

describe('history: the stored key index', () => {
  const root = tempRootPerTest();

  it('is written in the 64 buckets older versions read, each entry where they look for it', async () => {
    const snapshot = path.join((await compactedSession(root())).dir, 'snapshot.json');
    const stored = JSON.parse(readFileSync(snapshot, 'utf8')) as {
      state: TranscriptState & { positions: (Record<EntryKey, number> | null)[] };
    };
    assert.ok(stored.state.positions.length <= 64, `${stored.state.positions.length} buckets stored`);
    const entries = allEntries(stored.state);
    assert.ok(entries.length > 100, 'a snapshot of some size');
    entries.forEach((entry, position) => assert.equal(olderVersionsPositionOf(stored.state.positions, entry.key), position, entry.key));
  });

  it('loads into the buckets this version keeps, each entry found, and an update to an old entry changes it in place', async () => {
    const { history, id, store } = await compactedSession(root());
    const loaded = await history.load(id);
    assert.deepEqual(asStored(loaded.state), asStored(store.state), 'the same index as the one appends built');
    allEntries(loaded.state).forEach((entry, position) => assert.equal(positionOf(loaded.state, entry.key), position, entry.key));
    const position = positionOf(loaded.state, toolKey('t0'));
    assert.ok(position !== undefined && position < 10, 'the first turn’s tool call is in the snapshot');
    const updated = reduce(loaded.state, {
      type: 'session_update',
      update: { sessionUpdate: 'tool_call_update', toolCallId: 't0', title: 'Read module-0.ts again' },
    });
    assert.equal(updated.entryCount, loaded.state.entryCount, 'updated, not added as a new card');
    const entry = allEntries(updated)[position];
    assert.ok(entry?.kind === 'tool_call' && entry.title === 'Read module-0.ts again');
  });
});
