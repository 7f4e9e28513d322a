/**
 * `session_info_update` (title and updatedAt) as the Sessions view shows it: a real scripted agent sends the
 * notification on the wire, the host path reduces it, and the tree's label, description and day group follow;
 * null clears each field (schema: "Set to null to clear").
 */
import * as assert from 'node:assert/strict';
import type { SessionInfoUpdate, SessionUpdate } from '@agentclientprotocol/sdk';
import { Conversations, type ConversationInfo } from '../../../src/conversations/conversations';
import { conversationDay, conversationDescription, conversationLabel } from '../../../src/editor/sessions-tree-text';
import { entriesOf } from '../../../src/shared/selectors';
import { createHostHarness, scriptedAgent, type HostHarness } from '../../support/host-harness';
import { tempRootPerTest } from '../history/temp-root';

const DAY = 24 * 60 * 60 * 1000;
const REPORTED = '2026-11-20T10:00:00Z';

function infoUpdate(fields: SessionInfoUpdate): SessionUpdate {
  return { sessionUpdate: 'session_info_update', ...fields };
}

describe('session_info_update in the Sessions view', () => {
  const root = tempRootPerTest();
  const harnesses: HostHarness[] = [];

  afterEach(async () => {
    for (const harness of harnesses.splice(0)) await harness.controller.stop();
  });

  function conversations(): Conversations {
    return new Conversations({
      factory: {
        controller: (store) => {
          const harness = createHostHarness(root(), { store });
          harnesses.push(harness);
          return harness.controller;
        },
      },
      log: { info: () => undefined, warn: () => undefined, error: () => undefined, trace: () => undefined },
    });
  }

  async function run(updates: readonly SessionUpdate[], rawTail = ''): Promise<{ info: ConversationInfo; harness: HostHarness }> {
    const list = conversations();
    const conversation = await list.create('Scripted');
    const harness = harnesses[0];
    assert.ok(harness);
    const done: SessionUpdate = { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'infos sent' } };
    await conversation.controller.start(
      scriptedAgent('stream', {
        ACP_SESSION_INFO: `[${[...updates.map((update) => JSON.stringify(update)), rawTail, JSON.stringify(done)].filter(Boolean).join(',')}]`,
      }),
    );
    await harness.waitFor((state) => entriesOf(state).some((entry) => entry.kind === 'message' && entry.role === 'agent'));
    const info = list.list().find((candidate) => candidate.id === conversation.id);
    assert.ok(info);
    return { info, harness };
  }

  it("the agent's title and last-activity time label and age the conversation", async () => {
    const { info, harness } = await run([infoUpdate({ title: 'Fix the parser', updatedAt: REPORTED })]);
    assert.equal(harness.store.state.title, 'Fix the parser');
    assert.equal(harness.store.state.agentUpdatedAt, REPORTED);
    assert.equal(info.updatedAt, Date.parse(REPORTED), "the agent's time is the conversation's last activity");
    const threeDaysLater = Date.parse(REPORTED) + 3 * DAY + 60_000;
    assert.equal(conversationLabel(info), 'Fix the parser');
    assert.equal(conversationDescription(info, 0, threeDaysLater), 'Scripted · 3 d');
    assert.notEqual(conversationDay(info, threeDaysLater), 'Today');
  });

  it('null clears the title and the reported time: the label and age fall back to the conversation itself', async () => {
    const before = Date.now();
    const { info, harness } = await run([
      infoUpdate({ title: 'Fix the parser', updatedAt: REPORTED }),
      infoUpdate({ title: null, updatedAt: null }),
    ]);
    assert.equal(harness.store.state.title, undefined);
    assert.equal(harness.store.state.agentUpdatedAt, undefined);
    assert.ok(info.updatedAt >= before, 'the age is local activity again, not the cleared time');
    assert.equal(conversationLabel(info), 'New conversation');
    assert.equal(conversationDescription(info, 2, info.updatedAt), 'Scripted · 2 files changed · now');
    assert.equal(conversationDay(info, info.updatedAt), 'Today');
  });

  it('an omitted field is left as it was; a malformed time is dropped, never the title', async () => {
    const { info, harness } = await run(
      [infoUpdate({ title: 'Fix the parser', updatedAt: REPORTED }), infoUpdate({ title: 'Renamed' })],
      '{"sessionUpdate":"session_info_update","updatedAt":42}',
    );
    assert.equal(harness.store.state.title, 'Renamed');
    assert.equal(harness.store.state.agentUpdatedAt, REPORTED);
    assert.equal(conversationLabel(info), 'Renamed');
  });
});
