/** A recorded session of 1,000 actions written in ten flushes with a small compaction size: a snapshot and a tail. */
import * as path from 'node:path';
import { HistoryStore } from '../../../src/history/history-store';
import { TranscriptStore } from '../../../src/session/transcript-store';
import { recordInto } from '../../support/history-conversation';

export interface CompactedSession {
  readonly history: HistoryStore;
  readonly id: string;
  /** The store the actions went through, as the host holds it. */
  readonly store: TranscriptStore;
  readonly dir: string;
}

export async function compactedSession(root: string): Promise<CompactedSession> {
  const history = await HistoryStore.open(root, { compactAfterBytes: 2_000, flushWindowMs: 5 });
  const { id, recorder } = await history.create({ agentName: 'Scripted' });
  const store = new TranscriptStore();
  for (let batch = 0; batch < 10; batch++) {
    recordInto(store, recorder, 100, batch * 100);
    await history.flush();
  }
  return { history, id, store, dir: path.join(root, 'sessions', id) };
}
