/** A batch that fails to reach the disk (disk full, permissions) must not leave a silent gap in the transcript. */
import * as assert from 'node:assert/strict';
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { HistoryStore } from '../../../src/history/history-store';
import { TranscriptStore } from '../../../src/session/transcript-store';
import { takeActions } from '../../support/history-conversation';
import { asStored, tempRootPerTest } from './temp-root';

describe('history: a failed write', () => {
  const root = tempRootPerTest();

  it('is reported, and the next batch writes a snapshot that covers what it lost', async () => {
    const errors: unknown[] = [];
    const history = await HistoryStore.open(root(), { onError: (error) => errors.push(error) });
    const { id, recorder } = await history.create({ agentName: 'Scripted' });
    const store = new TranscriptStore();
    store.subscribe((action, state) => recorder.record(action, state));
    const actions = takeActions(60);
    for (const action of actions.slice(0, 20)) store.dispatch(action);
    await history.flush();

    const log = path.join(root(), 'sessions', id, 'log-0.ndjson');
    renameSync(log, `${log}.aside`);
    mkdirSync(log);
    for (const action of actions.slice(20, 40)) store.dispatch(action);
    await history.flush();
    assert.equal(errors.length, 1, 'the failed append is reported');
    rmSync(log, { recursive: true });
    renameSync(`${log}.aside`, log);

    for (const action of actions.slice(40)) store.dispatch(action);
    await history.flush();
    const loaded = await (await HistoryStore.open(root())).load(id);
    assert.deepEqual(asStored(loaded.state), asStored(store.state));
    assert.equal(loaded.seq, 60);
  });
});
