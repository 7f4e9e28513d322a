/**
 * Many conversations over one history: each its own transcript and draft, stored as it happens and shown again
 * after a restart (a new Conversations over the same files) as it was, with nothing live pretended.
 */
import * as assert from 'node:assert/strict';
import { appendFileSync, existsSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import type { Conversations } from '../../../src/conversations/conversations';
import { INTERRUPTED } from '../../../src/conversations/restored-actions';
import { HistoryStore } from '../../../src/history/history-store';
import { entriesOf } from '../../../src/shared/selectors';
import { harnessedConversations } from '../../support/harnessed-conversations';
import type { HostHarness } from '../../support/host-harness';
import { tempRootPerTest } from '../history/temp-root';

describe('conversations over stored history', () => {
  const root = tempRootPerTest();
  const harnesses: HostHarness[] = [];
  const logLines: string[] = [];

  afterEach(async () => {
    for (const harness of harnesses.splice(0)) await harness.controller.stop();
    logLines.length = 0;
  });

  async function open(): Promise<Conversations> {
    const conversations = harnessedConversations(root(), harnesses, {
      info: () => undefined,
      warn: (line) => void logLines.push(line),
      error: (line) => void logLines.push(line),
      trace: () => undefined,
    });
    conversations.useHistory(await HistoryStore.open(path.join(root(), 'history'), { flushWindowMs: 5 }));
    return conversations;
  }

  it('two conversations keep their own transcripts and drafts; after a restart the shown one comes back as it was', async () => {
    const first = await open();
    const a = await first.create('Agent A');
    a.store.dispatch({ type: 'prompt_sent', turnId: 't1', content: [{ type: 'text', text: 'question for A' }] });
    a.store.dispatch({ type: 'turn_ended', turnId: 't1', stopReason: 'end_turn' });
    a.store.dispatch({ type: 'title_set', title: 'Conversation A' });
    first.setDraft(a.id, 'half-typed for A');
    // The list sorts by last activity, to the millisecond: B's must come later than A's.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const b = await first.create('Agent B');
    b.store.dispatch({ type: 'prompt_sent', turnId: 't1', content: [{ type: 'text', text: 'question for B' }] });
    first.setDraft(b.id, 'draft for B');
    assert.equal(first.shown?.id, b.id, 'a new conversation is shown');
    assert.equal(entriesOf(a.store.state).length, 2, "B's prompt is not in A");
    await first.show(a.id);
    assert.equal(first.shown?.id, a.id);
    assert.deepEqual(
      first.list().map((info) => info.title ?? info.firstPrompt),
      ['question for B', 'Conversation A'],
      'newest first, titled by title or first prompt',
    );
    await first.flush();
    first.dispose();

    const second = await open();
    const shown = await second.restore(a.id);
    assert.equal(shown.id, a.id);
    assert.equal(shown.draft, 'half-typed for A');
    assert.equal(shown.title, 'Conversation A');
    assert.equal(shown.store.state.agent.phase, 'none', 'no agent was running for it: none claimed');
    assert.deepEqual(
      second.list().map((info) => [info.title ?? info.firstPrompt, info.loaded]),
      [
        ['question for B', false],
        ['Conversation A', true],
      ],
      'B is listed from the index without being loaded',
    );
    const reopenedB = await second.show(b.id);
    assert.equal(reopenedB.draft, 'draft for B');
    const turnEnd = entriesOf(reopenedB.store.state).find((entry) => entry.kind === 'turn_end');
    assert.ok(
      turnEnd?.kind === 'turn_end' && turnEnd.outcome.type === 'error' && turnEnd.outcome.message === INTERRUPTED,
      'the open turn reads as interrupted',
    );
    assert.equal(reopenedB.store.state.turn.phase, 'idle');
    second.dispose();
  });

  it('an agent that was ready when stored reads "stopped" after a restart, and a torn last record loads cleanly', async () => {
    const first = await open();
    const a = await first.create('Agent A');
    a.store.dispatch({ type: 'agent_status', status: { phase: 'ready', agentName: 'Agent A' } });
    a.store.dispatch({ type: 'notice_added', severity: 'info', title: 'kept' });
    await first.flush();
    first.dispose();
    const dir = path.join(root(), 'history', 'sessions', a.id);
    const log = readdirSync(dir).find((name) => name.startsWith('log-'));
    assert.ok(log);
    appendFileSync(path.join(dir, log), '{"s":99,"a":{"type":"notice_added","sev');

    const second = await open();
    const shown = await second.restore(undefined);
    assert.equal(shown.id, a.id);
    assert.deepEqual(shown.store.state.agent, { phase: 'stopped', agentName: 'Agent A' });
    assert.ok(entriesOf(shown.store.state).some((entry) => entry.kind === 'notice' && entry.title === 'kept'));
    assert.ok(
      logLines.some((line) => /torn/.test(line)),
      'the torn write is logged',
    );
    second.dispose();
  });

  it('removing a conversation deletes its files and shows another', async () => {
    const conversations = await open();
    const a = await conversations.create('Agent A');
    const b = await conversations.create('Agent B');
    await conversations.remove(b.id);
    assert.equal(conversations.shown?.id, a.id);
    assert.deepEqual(
      conversations.list().map((info) => info.id),
      [a.id],
    );
    assert.equal(existsSync(path.join(root(), 'history', 'sessions', b.id)), false);
    conversations.dispose();
  });
});
