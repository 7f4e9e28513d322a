/** The session index: what the history list shows, read at startup from one small file without any transcript. */
import * as assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { HistoryStore } from '../../../src/history/history-store';
import { FIRST_PROMPT_CHARS } from '../../../src/history/summary-from-state';
import { TranscriptStore } from '../../../src/session/transcript-store';
import { takeActions } from '../../support/history-conversation';
import { tempRootPerTest } from './temp-root';

describe('history: session index', () => {
  const root = tempRootPerTest();

  it('lists agent, title, first prompt, times, agent session id, status and draft after a restart', async () => {
    let clock = 5_000;
    const history = await HistoryStore.open(root(), { now: () => clock });
    const { id, recorder } = await history.create({ agentName: 'Scripted' });
    const store = new TranscriptStore();
    store.subscribe((action, state) => recorder.record(action, state));
    // Through turn 0 (titled by the agent) and into turn 1, which is still running.
    const actions = takeActions(22);
    for (const action of actions.slice(0, -1)) store.dispatch(action);
    // The last action streams in the running turn later: that is the conversation's last activity.
    clock = 9_000;
    for (const action of actions.slice(-1)) store.dispatch(action);
    await history.flush();
    history.setDraft(id, 'and then what?');
    await history.flush();

    const reopened = await HistoryStore.open(root());
    assert.deepEqual(reopened.list(), [
      {
        id,
        agentName: 'Scripted',
        title: 'Modules explained',
        firstPrompt: 'question 0: what does module 0 do?',
        createdAt: 5_000,
        updatedAt: 9_000,
        agentSessionId: 'agent-session-1',
        status: 'running',
        draft: 'and then what?',
      },
    ]);
  });

  it('reads only the index at startup: sessions list even when their transcripts are gone', async () => {
    const history = await HistoryStore.open(root());
    const { id } = await history.create({ agentName: 'Scripted' });
    await history.close(id);
    await history.flush();
    rmSync(path.join(root(), 'sessions', id), { recursive: true });
    const reopened = await HistoryStore.open(root());
    assert.deepEqual(
      reopened.list().map((summary) => [summary.id, summary.status]),
      [[id, 'closed']],
    );
  });

  it('orders sessions by last update, clears a draft, and keeps the first prompt short', async () => {
    let clock = 1;
    const history = await HistoryStore.open(root(), { now: () => clock });
    const older = await history.create({ agentName: 'A' });
    clock = 2;
    const newer = await history.create({ agentName: 'B' });
    clock = 3;
    const store = new TranscriptStore();
    store.subscribe((action, state) => older.recorder.record(action, state));
    store.dispatch({ type: 'prompt_sent', turnId: 't', content: [{ type: 'text', text: 'x'.repeat(5_000) }] });
    await history.flush();
    history.setDraft(newer.id, 'draft');
    history.setDraft(newer.id, '');
    assert.deepEqual(
      history.list().map((summary) => summary.id),
      [older.id, newer.id],
    );
    assert.equal(history.get(older.id)?.firstPrompt?.length, FIRST_PROMPT_CHARS);
    assert.equal(history.get(newer.id)?.draft, undefined);
  });

  it('removes a session from the index and from disk', async () => {
    const history = await HistoryStore.open(root());
    const { id } = await history.create({ agentName: 'Scripted' });
    await history.remove(id);
    assert.deepEqual(history.list(), []);
    assert.deepEqual((await HistoryStore.open(root())).list(), []);
  });
});
