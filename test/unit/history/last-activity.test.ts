/**
 * The index ages a conversation by its own last activity (its last turn, or the agent's `session_info_update`
 * updatedAt), never by when the index last wrote it: opening an old conversation (its agent starting, its history
 * replayed) re-saves it, and that must not make it look new.
 */
import * as assert from 'node:assert/strict';
import { HistoryStore } from '../../../src/history/history-store';
import { TranscriptStore } from '../../../src/session/transcript-store';
import type { TranscriptAction } from '../../../src/shared/actions';
import { tempRootPerTest } from './temp-root';

function turn(turnId: string): TranscriptAction[] {
  return [
    { type: 'prompt_sent', turnId, content: [{ type: 'text', text: 'what does module 1 do?' }] },
    { type: 'session_update', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'It exports one value.' } } },
    { type: 'turn_ended', turnId, stopReason: 'end_turn' },
  ];
}

/** What opening a stored conversation records: its agent starts, the session loads and the agent replays it. */
const REOPENED: readonly TranscriptAction[] = [
  { type: 'agent_status', status: { phase: 'ready', agentName: 'Scripted', protocolVersion: 1 } },
  { type: 'session_started', sessionId: 'agent-session-1', promptCapabilities: { image: false, audio: false, embeddedContext: true } },
  { type: 'session_update', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'It exports one value.' } } },
];

describe('history: a conversation ages by its own last activity', () => {
  const root = tempRootPerTest();
  let clock = 0;

  async function storedWithOneTurn(at: number): Promise<string> {
    clock = at;
    const history = await HistoryStore.open(root(), { now: () => clock });
    const { id, recorder } = await history.create({ agentName: 'Scripted' });
    const store = new TranscriptStore();
    store.subscribe((action, state) => recorder.record(action, state));
    for (const action of turn('t1')) store.dispatch(action);
    await history.flush();
    return id;
  }

  /** A later window opens the conversation and records `actions` into it; returns the summary as re-read from disk. */
  async function reopen(id: string, at: number, actions: readonly TranscriptAction[]): Promise<HistoryStore> {
    clock = at;
    const history = await HistoryStore.open(root(), { now: () => clock });
    const loaded = await history.load(id);
    const recorder = await history.resume(id, loaded);
    const store = new TranscriptStore(loaded.state);
    store.subscribe((action, state) => recorder.record(action, state));
    for (const action of actions) store.dispatch(action);
    await history.flush();
    return HistoryStore.open(root());
  }

  it('re-saving an opened conversation keeps the time of its last turn, and its place in the list', async () => {
    const old = await storedWithOneTurn(1_000);
    const newer = await storedWithOneTurn(2_000);
    const reread = await reopen(old, 90_000, REOPENED);
    assert.equal(reread.get(old)?.updatedAt, 1_000);
    assert.deepEqual(
      reread.list().map((summary) => summary.id),
      [newer, old],
    );
  });

  it("the agent's session_info_update updatedAt is the conversation's time when it gives one", async () => {
    const id = await storedWithOneTurn(1_000);
    const reported = '2026-03-04T05:06:07.000Z';
    const reread = await reopen(id, 90_000, [
      ...REOPENED,
      { type: 'session_update', update: { sessionUpdate: 'session_info_update', updatedAt: reported } },
    ]);
    assert.equal(reread.get(id)?.updatedAt, Date.parse(reported));
  });

  it('a new turn in an opened conversation is activity now', async () => {
    const id = await storedWithOneTurn(1_000);
    const reread = await reopen(id, 90_000, [...REOPENED, ...turn('t2')]);
    assert.equal(reread.get(id)?.updatedAt, 90_000);
  });

  it('a prompt after an old reported time is activity now', async () => {
    const id = await storedWithOneTurn(1_000);
    const reread = await reopen(id, 90_000, [
      ...REOPENED,
      { type: 'session_update', update: { sessionUpdate: 'session_info_update', updatedAt: '1970-01-01T00:00:05.000Z' } },
      ...turn('t2'),
    ]);
    assert.equal(reread.get(id)?.updatedAt, 90_000);
  });
});
