/**
 * "Restore and fork" on a scripted agent that offers session/fork: a new conversation, shown, holding the history
 * before the chosen message (and still after a restart), the message back in its draft, a note that the agent's
 * memory of the fork includes the later turns, and its agent continuing the forked session.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { Conversations } from '../../../src/conversations/conversations';
import { ForkFromMessage } from '../../../src/conversations/fork-from-message';
import { HistoryStore } from '../../../src/history/history-store';
import type { TranscriptState } from '../../../src/shared/model';
import { entriesOf } from '../../../src/shared/selectors';
import { messageText } from '../../../src/shared/transcript-fork';
import { harnessedConversations } from '../../support/harnessed-conversations';
import type { HostHarness } from '../../support/host-harness';
import { sessionsAgent, type SessionsAgent } from '../../support/sessions-agent';
import { tempRootPerTest } from '../history/temp-root';

describe('restore and fork from a message', function () {
  this.timeout(30_000);
  const root = tempRootPerTest();
  const harnesses: HostHarness[] = [];
  let agent: SessionsAgent;

  beforeEach(() => {
    agent = sessionsAgent(['fork', 'resume']);
  });
  afterEach(async () => {
    for (const harness of harnesses.splice(0)) await harness.controller.stop();
    agent.dispose();
  });

  async function open(): Promise<Conversations> {
    const conversations = harnessedConversations(root(), harnesses, {
      info: () => undefined,
      warn: () => undefined,
      error: () => undefined,
      trace: () => undefined,
    });
    conversations.useHistory(await HistoryStore.open(path.join(root(), 'history'), { flushWindowMs: 5 }));
    return conversations;
  }
  const texts = (state: TranscriptState): string[] =>
    entriesOf(state).flatMap((e) =>
      e.kind === 'message'
        ? [`${e.role}: ${e.content.map((c) => (c.type === 'text' ? c.text : '')).join('')}`]
        : e.kind === 'notice'
          ? [`notice: ${e.title}`]
          : [],
    );

  it('opens a new conversation on the forked session with the history before the message and the message in its draft', async () => {
    const conversations = await open();
    const source = await conversations.create('Sessions');
    const harness = harnesses.at(-1)!;
    await source.controller.start(agent.config);
    for (const text of ['first question', 'second question']) {
      await source.controller.sendPrompt(text, []);
      await harness.waitFor((s) => s.turn.phase === 'idle' && texts(s).includes(`user: ${text}`));
    }
    const second = entriesOf(source.store.state).find(
      (e) => e.kind === 'message' && e.role === 'user' && messageText(e.content) === 'second question',
    );
    assert.ok(second?.kind === 'message' && second.turnId);
    const sourceSession = source.store.state.sessionId;

    const fork = new ForkFromMessage({ conversations, ensureAgent: (conversation) => conversation.controller.start(agent.config) });
    assert.equal(fork.offered(source.id), true);
    const forked = await fork.fork(source.id, second.turnId);
    assert.ok(forked);
    assert.equal(conversations.shown?.id, forked.id, 'the new conversation is shown');
    assert.equal(forked.draft, 'second question', 'the message is back in the composer');
    assert.match(forked.title ?? '', /\(fork\)$/);
    const shown = texts(forked.store.state);
    assert.ok(shown.includes('user: first question'));
    assert.ok(!shown.includes('user: second question'), 'the message and what followed are not in the fork');
    assert.ok(shown.includes('notice: Forked before your message'));
    const notice = entriesOf(forked.store.state).find((e) => e.kind === 'notice' && e.title === 'Forked before your message');
    assert.match(notice?.kind === 'notice' ? (notice.detail ?? '') : '', /memory still includes the later turns/);
    assert.equal(texts(source.store.state).filter((t) => t.startsWith('user:')).length, 2, 'the source conversation is untouched');

    const requests = agent.requests();
    const forkRequest = requests.find((r) => r.method === 'session/fork');
    assert.equal(forkRequest?.params['sessionId'], sourceSession);
    // Its agent continues the forked session (this fixture keeps sessions per process, so the new process may refuse).
    const forkedSession = forked.store.state.sessionId;
    assert.ok(
      requests.some(
        (r) => r.method === 'session/resume' && typeof r.params['sessionId'] === 'string' && r.params['sessionId'].startsWith('fork-'),
      ) || forkedSession?.startsWith('fork-'),
      'the new conversation asks to continue the fork',
    );

    await conversations.flush();
    conversations.dispose();
    const reopened = await open();
    const again = await reopened.show(forked.id);
    assert.deepEqual(
      texts(again.store.state).filter((t) => t.startsWith('user:')),
      ['user: first question'],
      'the copied history survives a restart',
    );
    reopened.dispose();
  });
});
