/** What is recorded loads back as the same transcript: through the window, flushes, compactions and resumes. */
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { HistoryStore } from '../../../src/history/history-store';
import { TranscriptStore } from '../../../src/session/transcript-store';
import { recordInto, stateAfter, takeActions } from '../../support/history-conversation';
import { compactedSession } from './compacted-session';
import { asStored, tempRootPerTest } from './temp-root';

describe('history: round trip', () => {
  const root = tempRootPerTest();

  it('loads exactly the transcript that was recorded, streamed chunks included', async () => {
    const history = await HistoryStore.open(root());
    const { id, recorder } = await history.create({ agentName: 'Scripted' });
    const store = new TranscriptStore();
    recordInto(store, recorder, 500);
    await history.flush();
    const loaded = await history.load(id);
    assert.deepEqual(asStored(loaded.state), asStored(store.state));
    assert.deepEqual(asStored(loaded.state), asStored(stateAfter(500)));
    assert.equal(loaded.seq, 500);
    assert.equal(loaded.tornBytes, 0);
  });

  it('writes a window of streamed chunks as one merged record, not one record per chunk', async () => {
    const history = await HistoryStore.open(root(), { flushWindowMs: 10_000 });
    const { id, recorder } = await history.create({ agentName: 'Scripted' });
    const store = new TranscriptStore();
    // agent_status, session_started, prompt_sent, then six chunks of one message.
    recordInto(store, recorder, 9);
    await history.flush();
    const log = readFileSync(path.join(root(), 'sessions', id, 'log-0.ndjson'), 'utf8');
    assert.equal(log.trimEnd().split('\n').length, 1 + 3 + 1, 'header, three actions, one merged chunk record');
    assert.match(log, /word0 word1 word2 word3 word4 word5 /);
    assert.deepEqual(asStored((await history.load(id)).state), asStored(store.state));
  });

  it('a message of megabytes streamed in chunks is snapshotted a few times, not once per compactAfterBytes', async () => {
    // Each snapshot serializes the whole state: compacting every 20 KB of a 1 MB message's chunks is 50 snapshots
    // of up to a megabyte (the extension host's thread under a 20 MB message: seconds, test/integration/host-floods).
    const history = await HistoryStore.open(root(), { compactAfterBytes: 20_000, flushWindowMs: 5 });
    const { id, recorder } = await history.create({ agentName: 'Scripted' });
    const store = new TranscriptStore();
    const subscription = store.subscribe((action, state) => recorder.record(action, state));
    store.dispatch({ type: 'prompt_sent', turnId: 't', content: [{ type: 'text', text: 'go' }] });
    const snapshot = path.join(root(), 'sessions', id, 'snapshot.json');
    const snapshots = new Set<number>();
    const piece = 'flood words '.repeat(1_365);
    for (let batch = 0; batch < 64; batch++) {
      store.dispatch({ type: 'session_update', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: piece } } });
      await history.flush();
      // Each snapshot holds a longer message than the one before: its size tells them apart.
      if (existsSync(snapshot)) snapshots.add(statSync(snapshot).size);
    }
    subscription.dispose();
    assert.ok(snapshots.size <= 8, `${snapshots.size} snapshots written for a 1 MB message`);
    assert.deepEqual(asStored((await history.load(id)).state), asStored(store.state), 'loads the whole message');
  });

  it('a turn that ends with a long log behind it compacts, so a reload between turns replays almost nothing', async () => {
    const history = await HistoryStore.open(root(), { flushWindowMs: 5 });
    const { id, recorder } = await history.create({ agentName: 'Scripted' });
    const store = new TranscriptStore();
    const subscription = store.subscribe((action, state) => recorder.record(action, state));
    const words = 'answer words '.repeat(100);
    const turn = (turnId: string, chunks: number, ends: boolean): void => {
      store.dispatch({ type: 'prompt_sent', turnId, content: [{ type: 'text', text: `question ${turnId}` }] });
      for (let chunk = 0; chunk < chunks; chunk++)
        store.dispatch({
          type: 'session_update',
          update: { sessionUpdate: 'tool_call', toolCallId: `${turnId}-${chunk}`, title: words, kind: 'read', status: 'completed' },
        });
      if (ends) store.dispatch({ type: 'turn_ended', turnId, stopReason: 'end_turn' });
    };
    // 60 tool calls of 1.3 KB: about 80 KB of log, well under compactAfterBytes (512 KB).
    turn('t1', 60, false);
    await history.flush();
    assert.equal((await history.load(id)).tailActions, 61, 'a turn still running is left in the log');
    store.dispatch({ type: 'turn_ended', turnId: 't1', stopReason: 'end_turn' });
    await history.flush();
    const afterTurn = await history.load(id);
    assert.equal(afterTurn.tailActions, 0, 'its end compacted the log into the snapshot');
    assert.deepEqual(asStored(afterTurn.state), asStored(store.state));
    // A short turn after it is not worth a snapshot: it stays in the log.
    turn('t2', 2, true);
    await history.flush();
    subscription.dispose();
    const later = await history.load(id);
    assert.equal(later.tailActions, 4);
    assert.deepEqual(asStored(later.state), asStored(store.state));
  });

  it('compacts into a snapshot, drops the logs it covers, and still loads the same transcript', async () => {
    const { history, id, dir } = await compactedSession(root());
    const files = readdirSync(dir);
    assert.ok(files.includes('snapshot.json'));
    assert.ok(files.filter((file) => file.startsWith('log-')).length <= 2, `old logs removed: ${files.join(', ')}`);
    const loaded = await history.load(id);
    assert.deepEqual(asStored(loaded.state), asStored(stateAfter(1_000)));
    assert.ok(loaded.tailActions < 1_000, 'most of it came from the snapshot');
  });

  it('resumes a loaded session in a new log generation and loads old and new together', async () => {
    const first = await HistoryStore.open(root());
    const { id, recorder } = await first.create({ agentName: 'Scripted' });
    recordInto(new TranscriptStore(), recorder, 300);
    await first.flush();

    const second = await HistoryStore.open(root());
    const loaded = await second.load(id);
    const resumed = await second.resume(id, loaded);
    const continued = new TranscriptStore();
    // The live store starts from the loaded state: replaying the same actions reaches it exactly.
    for (const action of takeActions(300)) continued.dispatch(action);
    assert.deepEqual(asStored(continued.state), asStored(loaded.state));
    recordInto(continued, resumed, 200, 300);
    await second.flush();
    const files = readdirSync(path.join(root(), 'sessions', id)).sort();
    assert.deepEqual(files, ['log-0.ndjson', 'log-1.ndjson']);
    const reloaded = await second.load(id);
    assert.deepEqual(asStored(reloaded.state), asStored(stateAfter(500)));
    assert.equal(reloaded.seq, 500);
  });

  it('flushSync puts what is still waiting in the window on disk before it returns', async () => {
    const history = await HistoryStore.open(root(), { flushWindowMs: 10_000 });
    const { id, recorder } = await history.create({ agentName: 'Scripted' });
    const store = new TranscriptStore();
    recordInto(store, recorder, 250);
    history.flushSync();
    // A fresh reader, as after a restart: the writer's own timers and flushes never ran.
    const loaded = await (await HistoryStore.open(root())).load(id);
    assert.deepEqual(asStored(loaded.state), asStored(store.state));
  });
});
