/** Files from a newer history format are refused with a clear error, never misread. */
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { HistoryVersionError } from '../../../src/history/format';
import { HistoryStore } from '../../../src/history/history-store';
import { TranscriptStore } from '../../../src/session/transcript-store';
import { takeActions } from '../../support/history-conversation';
import { tempRootPerTest } from './temp-root';
import { frameRecord } from '../../../src/history/record-framing';

const newer = (error: unknown): boolean =>
  error instanceof HistoryVersionError && error.version === 2 && /newer version of the extension/.test(error.message);

describe('history: format version', () => {
  const root = tempRootPerTest();

  async function storedSession(compactAfterBytes: number): Promise<{ history: HistoryStore; dir: string; id: string }> {
    const history = await HistoryStore.open(root(), { compactAfterBytes });
    const { id, recorder } = await history.create({ agentName: 'Scripted' });
    const store = new TranscriptStore();
    store.subscribe((action, state) => recorder.record(action, state));
    for (const action of takeActions(60)) store.dispatch(action);
    await history.flush();
    return { history, dir: path.join(root(), 'sessions', id), id };
  }

  it('refuses a snapshot of a newer version', async () => {
    const { history, dir, id } = await storedSession(100);
    const file = path.join(dir, 'snapshot.json');
    const snapshot = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    assert.equal(snapshot['version'], 1);
    // A newer format may change anything, the state's shape included.
    writeFileSync(file, JSON.stringify({ ...snapshot, version: 2, state: { entries: 'elsewhere' } }));
    await assert.rejects(history.load(id), newer);
  });

  it('refuses a log whose header has a newer version', async () => {
    const { history, dir, id } = await storedSession(1_000_000);
    const file = path.join(dir, 'log-0.ndjson');
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[0] = frameRecord({ format: 'acp-client-history-log', version: 2, generation: 0 }).trimEnd();
    writeFileSync(file, lines.join('\n'));
    await assert.rejects(history.load(id), newer);
  });

  it('refuses an index of a newer version when opening', async () => {
    const { history } = await storedSession(1_000_000);
    await history.flush();
    const file = path.join(root(), 'index.json');
    const index = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...index, version: 2 }));
    await assert.rejects(HistoryStore.open(root()), newer);
  });

  it('says what is wrong with a same-version file it cannot read, rather than loading it', async () => {
    const { history, dir, id } = await storedSession(100);
    writeFileSync(
      path.join(dir, 'snapshot.json'),
      JSON.stringify({ format: 'acp-client-history-snapshot', version: 1, seq: 3, droppedEntries: 0, state: { pages: 'no' } }),
    );
    await assert.rejects(history.load(id), /snapshot\.json is not readable history/);
  });
});
