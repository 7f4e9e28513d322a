/** What is recorded loads back as the same transcript: through the window, flushes, compactions and resumes. */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { HistoryStore } from '../../../src/history/history-store';
import type { SessionRecorder } from '../../../src/history/session-recorder';
import { TranscriptStore } from '../../../src/session/transcript-store';
import { stateAfter, takeActions } from '../../support/history-conversation';
import { asStored, tempRootPerTest } from './temp-root';

/** Dispatches actions `from` .. `from + count` of the conversation with the recorder listening, as the host will. */
export function recordInto(store: TranscriptStore, recorder: SessionRecorder, count: number, from = 0): void {
  const subscription = store.subscribe((action, state) => recorder.record(action, state));
  for (const action of takeActions(from + count).slice(from)) store.dispatch(action);
  subscription.dispose();
}

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

  it('compacts into a snapshot, drops the logs it covers, and still loads the same transcript', async () => {
    const history = await HistoryStore.open(root(), { compactAfterBytes: 2_000, flushWindowMs: 5 });
    const { id, recorder } = await history.create({ agentName: 'Scripted' });
    const store = new TranscriptStore();
    for (let batch = 0; batch < 10; batch++) {
      recordInto(store, recorder, 100, batch * 100);
      await history.flush();
    }
    const files = readdirSync(path.join(root(), 'sessions', id));
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
