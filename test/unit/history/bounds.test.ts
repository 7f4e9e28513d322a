/** Stored history stays bounded: at most maxSessions sessions, and a size cap per session with a visible note. */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { HistoryStore } from '../../../src/history/history-store';
import { TranscriptStore } from '../../../src/session/transcript-store';
import { DROPPED_HISTORY_KEY } from '../../../src/shared/history-trim';
import { entriesOf } from '../../../src/shared/selectors';
import { takeActions } from '../../support/history-conversation';
import { asStored, tempRootPerTest } from './temp-root';

describe('history: bounds', () => {
  const root = tempRootPerTest();

  it('keeps the newest maxSessions sessions and deletes the files of the oldest', async () => {
    let clock = 1_000;
    const history = await HistoryStore.open(root(), { maxSessions: 3, now: () => clock });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      clock += 10;
      const { id } = await history.create({ agentName: `Agent ${i}` });
      await history.close(id);
      ids.push(id);
    }
    assert.deepEqual(
      history.list().map((summary) => summary.agentName),
      ['Agent 4', 'Agent 3', 'Agent 2'],
    );
    assert.equal(existsSync(path.join(root(), 'sessions', ids[0]!)), false);
    assert.equal(existsSync(path.join(root(), 'sessions', ids[1]!)), false);
    assert.equal(existsSync(path.join(root(), 'sessions', ids[4]!)), true);
    const reopened = await HistoryStore.open(root());
    assert.deepEqual(
      reopened.list().map((summary) => summary.id),
      [ids[4], ids[3], ids[2]],
    );
  });

  it('never evicts a session that is recording, even when it is the oldest', async () => {
    let clock = 1_000;
    const history = await HistoryStore.open(root(), { maxSessions: 1, now: () => clock++ });
    const first = await history.create({ agentName: 'Recording' });
    const second = await history.create({ agentName: 'Newer' });
    assert.deepEqual(
      history
        .list()
        .map((summary) => summary.id)
        .sort(),
      [first.id, second.id].sort(),
    );
    await history.close(first.id);
    await history.close(second.id);
    await history.create({ agentName: 'Newest' });
    assert.deepEqual(
      history.list().map((summary) => summary.agentName),
      ['Newest'],
    );
  });

  it('drops the oldest entries beyond the size cap and says so at the top; the newest stay whole', async () => {
    const maxSessionBytes = 40_000;
    const history = await HistoryStore.open(root(), { maxSessionBytes, compactAfterBytes: 5_000, flushWindowMs: 1 });
    const { id, recorder } = await history.create({ agentName: 'Scripted' });
    const store = new TranscriptStore();
    store.subscribe((action, state) => recorder.record(action, state));
    const actions = takeActions(4_000);
    for (let start = 0; start < actions.length; start += 200) {
      for (const action of actions.slice(start, start + 200)) store.dispatch(action);
      await history.flush();
    }
    const snapshotBytes = statSync(path.join(root(), 'sessions', id, 'snapshot.json')).size;
    assert.ok(snapshotBytes <= maxSessionBytes, `snapshot ${snapshotBytes} bytes, cap ${maxSessionBytes}`);

    const loaded = await history.load(id);
    const entries = entriesOf(loaded.state);
    const live = entriesOf(store.state);
    const notice = entries[0];
    assert.equal(notice?.kind, 'notice');
    assert.equal(notice.key, DROPPED_HISTORY_KEY);
    assert.equal(notice.kind === 'notice' && notice.title, 'Earlier history was dropped');
    const dropped = live.length - (entries.length - 1);
    assert.ok(dropped > 0);
    assert.equal(loaded.droppedEntries, dropped);
    assert.equal(
      notice.kind === 'notice' && notice.detail,
      `${dropped} older entries were removed to keep stored history within its size limit.`,
    );
    // Whatever is kept is the live transcript's tail, entry for entry.
    assert.deepEqual(asStored(entries.slice(1)), asStored(live.slice(dropped)));
  });

  it('counts drops across restarts in one notice', async () => {
    const options = { maxSessionBytes: 20_000, compactAfterBytes: 4_000, flushWindowMs: 1 };
    const history = await HistoryStore.open(root(), options);
    const { id, recorder } = await history.create({ agentName: 'Scripted' });
    const store = new TranscriptStore();
    const subscription = store.subscribe((action, state) => recorder.record(action, state));
    const actions = takeActions(3_000);
    for (const action of actions.slice(0, 1_500)) store.dispatch(action);
    await history.close(id);
    subscription.dispose();

    const again = await HistoryStore.open(root(), options);
    const loaded = await again.load(id);
    const firstDrop = loaded.droppedEntries;
    assert.ok(firstDrop > 0);
    const resumed = await again.resume(id, loaded);
    // The live store continues from the loaded (trimmed) state, as the session layer will.
    const continued = new TranscriptStore(loaded.state);
    continued.subscribe((action, state) => resumed.record(action, state));
    for (const action of actions.slice(1_500)) continued.dispatch(action);
    await again.flush();
    const reloaded = await again.load(id);
    const notices = entriesOf(reloaded.state).filter((entry) => entry.key === DROPPED_HISTORY_KEY);
    assert.equal(notices.length, 1);
    assert.ok(reloaded.droppedEntries > firstDrop);
    assert.match(notices[0]?.kind === 'notice' ? (notices[0].detail ?? '') : '', new RegExp(`^${reloaded.droppedEntries} older entries`));
    const snapshot = JSON.parse(readFileSync(path.join(root(), 'sessions', id, 'snapshot.json'), 'utf8')) as { droppedEntries: number };
    assert.equal(snapshot.droppedEntries, reloaded.droppedEntries);
  });
});
