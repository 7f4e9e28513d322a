/**
 * A process killed mid-write leaves the last record cut at any byte. Loading must drop exactly that record and
 * keep everything before it, whatever the cut.
 */
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { HistoryStore } from '../../../src/history/history-store';
import { loadSession } from '../../../src/history/session-loader';
import { TranscriptStore } from '../../../src/session/transcript-store';
import { takeActions } from '../../support/history-conversation';
import { asStored, tempRootPerTest } from './temp-root';

describe('history: torn last record', () => {
  const root = tempRootPerTest();

  it('loads everything before the last record when the file is cut at every byte offset of that record', async () => {
    const history = await HistoryStore.open(root());
    const { id, recorder } = await history.create({ agentName: 'Scripted' });
    const store = new TranscriptStore();
    store.subscribe((action, state) => recorder.record(action, state));
    // Action 18 ends turn 0 (not a chunk: a record of its own); a chunk with multi-byte characters comes before it.
    const actions = takeActions(19);
    for (const action of actions.slice(0, 18)) store.dispatch(action);
    store.dispatch({
      type: 'session_update',
      update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: ' — naïve 🎉' } },
    });
    await history.flush();
    const before = store.state;
    const last = actions[18];
    assert.equal(last?.type, 'turn_ended');
    store.dispatch(last!);
    await history.flush();
    const after = store.state;

    const dir = path.join(root(), 'sessions', id);
    const logPath = path.join(dir, 'log-0.ndjson');
    const whole = readFileSync(logPath);
    const lastStart = whole.lastIndexOf(0x0a, whole.length - 2) + 1;
    assert.ok(lastStart > 0 && whole.subarray(lastStart).toString().includes('turn_ended'));
    for (let cut = lastStart; cut < whole.length; cut++) {
      writeFileSync(logPath, whole.subarray(0, cut));
      const loaded = await loadSession(dir);
      // Cut just before its newline, the record is whole and its checksum holds: it loads.
      const expected = cut === whole.length - 1 ? after : before;
      assert.deepEqual(asStored(loaded.state), asStored(expected), `cut at byte ${cut} of ${whole.length}`);
      assert.equal(loaded.tornBytes, cut === whole.length - 1 ? 0 : cut - lastStart, `torn bytes reported at cut ${cut}`);
    }
  });

  it('drops a record whose bytes were damaged in place (checksum mismatch) and what follows it', async () => {
    const history = await HistoryStore.open(root());
    const { id, recorder } = await history.create({ agentName: 'Scripted' });
    const store = new TranscriptStore();
    store.subscribe((action, state) => recorder.record(action, state));
    for (const action of takeActions(3)) store.dispatch(action);
    await history.flush();
    const before = store.state;
    for (const action of takeActions(24).slice(3)) store.dispatch(action);
    await history.flush();
    const dir = path.join(root(), 'sessions', id);
    const logPath = path.join(dir, 'log-0.ndjson');
    const lines = readFileSync(logPath, 'utf8').split('\n');
    // Line 0 is the header, lines 1-3 the first three actions; flip one character inside line 4's JSON.
    const damaged = lines[4]!.replace('word0', 'word9');
    assert.notEqual(damaged, lines[4]);
    lines[4] = damaged;
    writeFileSync(logPath, lines.join('\n'));
    const loaded = await loadSession(dir);
    assert.deepEqual(asStored(loaded.state), asStored(before));
    assert.ok(loaded.tornBytes > 0);
  });
});
