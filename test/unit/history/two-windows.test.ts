/**
 * Two VS Code windows on one workspace share its storage folder, so two extension hosts each hold a HistoryStore on
 * the same index. Each window writes only what it changed onto what is on disk: no conversation is lost, and a
 * conversation one window deleted does not come back from the other.
 */
import * as assert from 'node:assert/strict';
import type { AttackCase } from '../../support/attack-case';
import { HistoryStore } from '../../../src/history/history-store';
import { tempRootPerTest } from './temp-root';

interface HistoryAttack extends AttackCase {
  readonly run: (root: string) => Promise<void>;
}

const ids = async (root: string): Promise<string[]> =>
  (await HistoryStore.open(root))
    .list()
    .map((summary) => summary.id)
    .sort();

const attacks: readonly HistoryAttack[] = [
  {
    attack: 'two windows each start a conversation on one workspace',
    driven: 'two HistoryStore instances on one storage folder (as two extension hosts), each creating a session',
    sees: 'both conversations in the history list of either window and after a restart',
    run: async (root) => {
      const first = await HistoryStore.open(root);
      const second = await HistoryStore.open(root);
      const a = await first.create({ agentName: 'A' });
      const b = await second.create({ agentName: 'B' });
      await Promise.all([first.flush(), second.flush()]);
      assert.deepEqual(await ids(root), [a.id, b.id].sort());
      // Either window lists the other's conversation once it has written.
      first.setDraft(a.id, 'draft');
      await first.flush();
      assert.deepEqual(
        first
          .list()
          .map((summary) => summary.id)
          .sort(),
        [a.id, b.id].sort(),
      );
    },
  },
  {
    attack: 'two windows write their index at the same moment, many times',
    driven: 'two HistoryStore instances creating 15 sessions each concurrently, every create flushing the index',
    sees: 'all 30 conversations listed after a restart',
    run: async (root) => {
      const first = await HistoryStore.open(root);
      const second = await HistoryStore.open(root);
      const created = await Promise.all(
        Array.from({ length: 15 }, (_, i) => [first.create({ agentName: `A${i}` }), second.create({ agentName: `B${i}` })]).flat(),
      );
      await Promise.all([first.flush(), second.flush()]);
      assert.deepEqual(await ids(root), created.map((session) => session.id).sort());
    },
  },
  {
    attack: "a window's stale copy of the index resurrects a conversation the other window deleted",
    driven: 'window A deletes a conversation both loaded; window B then writes its own change',
    sees: 'the deleted conversation stays deleted; B keeps its change',
    run: async (root) => {
      const seed = await HistoryStore.open(root);
      const kept = await seed.create({ agentName: 'kept' });
      const doomed = await seed.create({ agentName: 'doomed' });
      await seed.flush();
      const first = await HistoryStore.open(root);
      const second = await HistoryStore.open(root);
      await first.remove(doomed.id);
      second.setDraft(kept.id, 'still typing');
      await second.flush();
      const reopened = await HistoryStore.open(root);
      assert.deepEqual(
        reopened.list().map((summary) => summary.id),
        [kept.id],
      );
      assert.equal(reopened.get(kept.id)?.draft, 'still typing');
    },
  },
  {
    attack: 'a window closing (synchronous flush on deactivate) while the other has written',
    driven: 'window B writes a new conversation; window A then flushes synchronously, as deactivate does',
    sees: "B's conversation is still listed",
    run: async (root) => {
      const first = await HistoryStore.open(root);
      const second = await HistoryStore.open(root);
      const a = await first.create({ agentName: 'A' });
      const b = await second.create({ agentName: 'B' });
      await second.flush();
      first.setDraft(a.id, 'unsent');
      first.flushSync();
      assert.deepEqual(await ids(root), [a.id, b.id].sort());
    },
  },
];

describe('history: two windows on one workspace', () => {
  const root = tempRootPerTest();
  for (const row of attacks) it(`attack: ${row.attack}`, () => row.run(root()));
});
