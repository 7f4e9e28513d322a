/**
 * A card of the client's own (origin `editor`, editor-action-asker.ts) stays the client's across a reload, whether
 * it comes back from the log or from a snapshot; history written before cards had an origin still loads.
 */
import * as assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { HistoryStore } from '../../../src/history/history-store';
import { TranscriptStore } from '../../../src/session/transcript-store';
import type { TranscriptAction } from '../../../src/shared/actions';
import type { TranscriptState } from '../../../src/shared/model';
import { reduce } from '../../../src/shared/reducer';
import { toolCallEntry } from '../../../src/shared/selectors';
import { asStored, tempRootPerTest } from './temp-root';

const CARD = 'editor-run_task-0b4f6c1e-2d7a-4e55-9a0c-5f1d3e8b7a21';
const OPTIONS = [
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' as const },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' as const },
];

/** The asker's card for run_task "deploy-prod"; `origin` absent: as history recorded it before origins existed. */
function asked(origin: 'editor' | undefined): TranscriptAction[] {
  const own = origin === undefined ? {} : { origin };
  return [
    { type: 'prompt_sent', turnId: 't1', content: [{ type: 'text', text: 'go' }] },
    {
      type: 'session_update',
      ...own,
      update: { sessionUpdate: 'tool_call', toolCallId: CARD, title: 'Run the task "deploy-prod"', kind: 'execute', status: 'pending' },
    },
    {
      type: 'permission_requested',
      requestId: 'editor-perm-1',
      toolCallId: CARD,
      toolCall: { title: 'Run the task "deploy-prod"' },
      options: OPTIONS,
      ...own,
    },
  ];
}

const retitled = (state: TranscriptState): TranscriptState =>
  reduce(state, {
    type: 'session_update',
    update: { sessionUpdate: 'tool_call_update', toolCallId: CARD, title: 'Read README.md', kind: 'read' },
  });

async function recordAndLoad(actions: readonly TranscriptAction[], root: string, compactAfterBytes?: number) {
  const history = await HistoryStore.open(root, { flushWindowMs: 5, ...(compactAfterBytes === undefined ? {} : { compactAfterBytes }) });
  const { id, recorder } = await history.create({ agentName: 'Scripted' });
  const store = new TranscriptStore();
  const subscription = store.subscribe((action, state) => recorder.record(action, state));
  for (const action of actions) {
    store.dispatch(action);
    await history.flush();
  }
  subscription.dispose();
  const loaded = await history.load(id);
  assert.deepEqual(asStored(loaded.state), asStored(store.state));
  return { loaded, files: readdirSync(path.join(root, 'sessions', id)) };
}

describe('history: the client’s own cards', () => {
  const root = tempRootPerTest();

  it('a card of the editor’s own loads back as its own from the log: the agent still cannot retitle it', async () => {
    const { loaded } = await recordAndLoad(asked('editor'), root());
    assert.equal(loaded.tailActions, 3, 'replayed from the log');
    assert.equal(toolCallEntry(loaded.state, CARD)?.origin, 'editor');
    assert.equal(retitled(loaded.state), loaded.state);
  });

  it('and from a snapshot', async () => {
    const { loaded, files } = await recordAndLoad(asked('editor'), root(), 200);
    assert.ok(files.includes('snapshot.json'), `compacted: ${files.join(', ')}`);
    assert.ok(loaded.tailActions < 3, 'came from the snapshot');
    assert.equal(toolCallEntry(loaded.state, CARD)?.origin, 'editor');
    assert.equal(retitled(loaded.state), loaded.state);
  });

  it('history written before cards had an origin loads, its cards the agent’s as they were', async () => {
    const { loaded } = await recordAndLoad(asked(undefined), root());
    const card = toolCallEntry(loaded.state, CARD);
    assert.equal(card?.status, 'awaiting_permission');
    assert.equal(card?.origin, undefined);
    assert.equal(toolCallEntry(retitled(loaded.state), CARD)?.title, 'Read README.md');
  });
});
