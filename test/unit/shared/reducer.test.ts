/** The reducer's semantics one rule at a time: seed 002 upserts, v1 chunks, cancel, turns, malformed input. */
import * as assert from 'node:assert/strict';
import { parseSessionUpdate } from '../../../src/acp/schemas/session-update';
import type { TranscriptAction } from '../../../src/shared/actions';
import type { ContentBlock } from '../../../src/shared/content';
import type { Entry, TranscriptState } from '../../../src/shared/model';
import { initialState, reduce } from '../../../src/shared/reducer';
import { entriesOf } from '../../../src/shared/selectors';
import type { SessionUpdate } from '../../../src/shared/updates';

const text = (value: string): ContentBlock => ({ type: 'text', text: value });
const run = (actions: TranscriptAction[], from = initialState()): TranscriptState => actions.reduce(reduce, from);
const upd = (update: SessionUpdate): TranscriptAction => ({ type: 'session_update', update });
const texts = (state: TranscriptState): string[] =>
  entriesOf(state).map((entry: Entry) =>
    entry.kind === 'message' ? `${entry.role}:${entry.content.map((b) => (b.type === 'text' ? b.text : b.type)).join('')}` : entry.kind,
  );

describe('reducer: v2 message upserts (seed 002)', () => {
  const agent = (content?: ContentBlock[] | null, messageId = 'm1'): TranscriptAction =>
    upd(content === undefined ? { sessionUpdate: 'agent_message', messageId } : { sessionUpdate: 'agent_message', messageId, content });
  const chunk = (value: string, messageId = 'm1'): TranscriptAction =>
    upd({ sessionUpdate: 'agent_message_chunk', messageId, content: text(value) });

  it('omitted content leaves the message unchanged (and a new id starts empty)', () => {
    assert.deepEqual(texts(run([agent()])), ['agent:']);
    const before = run([agent([text('hello')])]);
    assert.equal(run([agent()], before), before);
  });
  it('null clears', () => assert.deepEqual(texts(run([agent([text('hello')]), agent(null)])), ['agent:']));
  it('[] clears', () => assert.deepEqual(texts(run([agent([text('hello')]), agent([])])), ['agent:']));
  it('an array replaces everything, including earlier chunks', () =>
    assert.deepEqual(texts(run([chunk('a'), chunk('b'), agent([text('whole')])])), ['agent:whole']));
  it('later chunks append', () => assert.deepEqual(texts(run([agent([text('whole')]), chunk(' more')])), ['agent:whole more']));
  it('a changed messageId starts a new message', () =>
    assert.deepEqual(texts(run([chunk('one', 'm1'), chunk('two', 'm2'), chunk(' again', 'm1')])), ['agent:one again', 'agent:two']));
});

describe('reducer: the v2 echo of the prompt (user_message with the id the prompt was answered with)', () => {
  const sent: TranscriptAction = { type: 'prompt_sent', turnId: 't1', content: [text('fix the bug')] };
  const accepted: TranscriptAction = { type: 'prompt_accepted', turnId: 't1', messageId: 'u1' };
  const echo = (content?: ContentBlock[]): TranscriptAction =>
    upd(
      content === undefined
        ? { sessionUpdate: 'user_message', messageId: 'u1' }
        : { sessionUpdate: 'user_message', messageId: 'u1', content },
    );
  const answer = upd({ sessionUpdate: 'agent_message', messageId: 'a1', content: [text('done')] });

  it('patches the prompt instead of showing it twice, whether the echo comes after the answer or before it', () => {
    assert.deepEqual(texts(run([sent, accepted, echo([text('fix the bug')]), answer])), ['user:fix the bug', 'agent:done']);
    assert.deepEqual(texts(run([sent, echo([text('fix the bug')]), accepted, answer])), ['user:fix the bug', 'agent:done']);
    assert.deepEqual(texts(run([sent, accepted, echo()])), ['user:fix the bug'], 'an echo without content leaves the prompt as sent');
  });

  it('echo chunks with the id are absorbed; a later patch of that message still lands on the prompt', () => {
    const chunk = (value: string): TranscriptAction => upd({ sessionUpdate: 'user_message_chunk', messageId: 'u1', content: text(value) });
    const state = run([sent, accepted, chunk('fix '), chunk('the bug')]);
    assert.deepEqual(texts(state), ['user:fix the bug']);
    assert.deepEqual(texts(run([echo([text('fix the bug, please')])], state)), ['user:fix the bug, please']);
  });

  it('another user message (another id, once the prompt has its own) is shown as its own message', () => {
    const other = upd({ sessionUpdate: 'user_message', messageId: 'u2', content: [text('queued from elsewhere')] });
    assert.deepEqual(texts(run([sent, accepted, other])), ['user:fix the bug', 'user:queued from elsewhere']);
    assert.deepEqual(texts(run([other])), ['user:queued from elsewhere'], 'outside a turn nothing is adopted');
  });
});

describe('reducer: v1 chunks without messageId', () => {
  const chunk = (kind: 'agent_message_chunk' | 'agent_thought_chunk', value: string): TranscriptAction =>
    upd({ sessionUpdate: kind, content: text(value) });
  it('append to the last message of the same role, else start one', () => {
    const state = run([
      chunk('agent_thought_chunk', 'think '),
      chunk('agent_thought_chunk', 'more'),
      chunk('agent_message_chunk', 'say'),
      chunk('agent_message_chunk', ' it'),
      chunk('agent_thought_chunk', 'again'),
    ]);
    assert.deepEqual(texts(state), ['thought:think more', 'agent:say it', 'thought:again']);
  });
  it("an agent echoing the user's prompt back (in pieces) does not show it twice; other user content is its own message", () => {
    const sent: TranscriptAction = { type: 'prompt_sent', turnId: 't1', content: [text('fix the bug')] };
    const user = (value: string): TranscriptAction => upd({ sessionUpdate: 'user_message_chunk', content: text(value) });
    assert.deepEqual(texts(run([sent, user('fix '), user('the bug'), chunk('agent_message_chunk', 'done')])), [
      'user:fix the bug',
      'agent:done',
    ]);
    assert.deepEqual(texts(run([sent, user('something else')])), ['user:fix the bug', 'user:something else']);
  });
  it('a tool call in between starts a new message', () => {
    const state = run([
      chunk('agent_message_chunk', 'before'),
      upd({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'T' }),
      chunk('agent_message_chunk', 'after'),
    ]);
    assert.deepEqual(texts(state), ['agent:before', 'tool_call', 'agent:after']);
  });
});

describe('reducer: tool calls', () => {
  it('tool_call_update patches only the fields present; content replaces; a content chunk appends', () => {
    const state = run([
      upd({
        sessionUpdate: 'tool_call',
        toolCallId: 't',
        title: 'Read',
        kind: 'read',
        status: 'pending',
        locations: [{ path: '/a', line: 2 }],
      }),
      upd({ sessionUpdate: 'tool_call_content_chunk', toolCallId: 't', content: { type: 'content', content: text('one') } }),
      upd({ sessionUpdate: 'tool_call_content_chunk', toolCallId: 't', content: { type: 'content', content: text('two') } }),
      upd({ sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'in_progress' }),
    ]);
    const call = entriesOf(state)[0];
    assert.ok(call?.kind === 'tool_call');
    assert.equal(call.title, 'Read');
    assert.equal(call.status, 'in_progress');
    assert.equal(call.content.length, 2);
    assert.deepEqual(call.locations, [{ path: '/a', line: 2 }]);
    const replaced = run(
      [upd({ sessionUpdate: 'tool_call_update', toolCallId: 't', content: [{ type: 'content', content: text('final') }] })],
      state,
    );
    const after = entriesOf(replaced)[0];
    assert.ok(after?.kind === 'tool_call');
    assert.equal(after.content.length, 1);
  });
  it('an update for an unseen id creates the call (v2 has no tool_call)', () => {
    const call = entriesOf(run([upd({ sessionUpdate: 'tool_call_update', toolCallId: 'new', status: 'in_progress' })]))[0];
    assert.ok(call?.kind === 'tool_call');
    assert.equal(call.status, 'in_progress');
  });
  it('permission: awaiting on the card, then the answer sets the status and remembers the choice', () => {
    const options = [
      { optionId: 'y', name: 'Yes', kind: 'allow_once' as const },
      { optionId: 'n', name: 'No', kind: 'reject_once' as const },
    ];
    const asked = run([{ type: 'permission_requested', requestId: 'p1', toolCallId: 't', toolCall: { title: 'Write' }, options }]);
    const card = entriesOf(asked)[0];
    assert.ok(card?.kind === 'tool_call' && card.status === 'awaiting_permission' && card.permission?.requestId === 'p1');
    const rejected = entriesOf(run([{ type: 'permission_resolved', requestId: 'p1', outcome: { optionId: 'n' } }], asked))[0];
    assert.ok(rejected?.kind === 'tool_call');
    assert.equal(rejected.status, 'rejected');
    assert.deepEqual(rejected.permissionOutcome, { optionId: 'n', name: 'No' });
    assert.equal(rejected.permission, undefined);
    const allowed = entriesOf(run([{ type: 'permission_resolved', requestId: 'p1', outcome: { optionId: 'y' } }], asked))[0];
    assert.ok(allowed?.kind === 'tool_call' && allowed.status === 'in_progress');
  });
});

describe('reducer: turns and cancel', () => {
  const start = (turnId: string): TranscriptAction => ({ type: 'prompt_sent', turnId, content: [text(`prompt ${turnId}`)] });
  const tool = (toolCallId: string, status: 'pending' | 'in_progress' | 'completed' | 'failed'): TranscriptAction =>
    upd({ sessionUpdate: 'tool_call', toolCallId, title: toolCallId, status });
  const statusOf = (state: TranscriptState, id: string) => entriesOf(state).find((e) => e.kind === 'tool_call' && e.toolCallId === id);

  const toolStatus = (state: TranscriptState, id: string) => {
    const entry = statusOf(state, id);
    return entry?.kind === 'tool_call' ? entry.status : undefined;
  };
  it('a finished tool call stays finished when re-announced in its turn, and is live again when a later turn reuses its id', () => {
    const sameTurn = run([start('t1'), tool('p', 'failed'), tool('p', 'pending')]);
    assert.equal(toolStatus(sameTurn, 'p'), 'failed');
    const laterTurn = run([
      start('t1'),
      tool('p', 'failed'),
      { type: 'turn_ended', turnId: 't1', stopReason: 'end_turn' },
      start('t2'),
      tool('p', 'in_progress'),
    ]);
    assert.equal(toolStatus(laterTurn, 'p'), 'in_progress');
  });

  it("cancel marks the turn's unfinished tool calls cancelled at once and leaves finished ones and earlier turns alone", () => {
    const state = run([
      start('t1'),
      tool('old', 'in_progress'),
      { type: 'turn_ended', turnId: 't1', stopReason: 'end_turn' },
      start('t2'),
      tool('a', 'pending'),
      tool('b', 'in_progress'),
      tool('c', 'completed'),
      tool('d', 'failed'),
      {
        type: 'permission_requested',
        requestId: 'p',
        toolCallId: 'e',
        toolCall: {},
        options: [{ optionId: 'y', name: 'Yes', kind: 'allow_once' }],
      },
      { type: 'cancel_requested', turnId: 't2', at: 5 },
    ]);
    const status = (id: string) => {
      const entry = statusOf(state, id);
      return entry?.kind === 'tool_call' ? entry.status : undefined;
    };
    assert.deepEqual(['old', 'a', 'b', 'c', 'd', 'e'].map(status), [
      'in_progress',
      'cancelled',
      'cancelled',
      'completed',
      'failed',
      'cancelled',
    ]);
    const e = statusOf(state, 'e');
    assert.ok(e?.kind === 'tool_call' && e.permission === undefined && e.permissionOutcome === 'cancelled');
    assert.deepEqual(state.turn, { phase: 'cancelling', turnId: 't2', since: 5 });
  });

  it('updates after cancel still apply, and the cancelled stop reason ends the turn normally', () => {
    const state = run([
      start('t1'),
      tool('a', 'in_progress'),
      { type: 'cancel_requested', turnId: 't1', at: 1 },
      upd({ sessionUpdate: 'agent_message_chunk', content: text('late') }),
      { type: 'turn_ended', turnId: 't1', stopReason: 'cancelled' },
    ]);
    assert.deepEqual(texts(state).slice(-2), ['agent:late', 'turn_end']);
    const end = entriesOf(state).pop();
    assert.deepEqual(end?.kind === 'turn_end' && end.outcome, { type: 'stopped', stopReason: 'cancelled' });
    assert.equal(state.turn.phase, 'idle');
  });

  it('a late end for an old turn does not end the current one', () => {
    const state = run([
      start('t1'),
      { type: 'turn_failed', turnId: 't1', message: 'boom' },
      start('t2'),
      { type: 'turn_ended', turnId: 't1', stopReason: 'end_turn' },
    ]);
    assert.deepEqual(state.turn, { phase: 'running', turnId: 't2' });
  });

  it("a v1 plan replaces the turn's plan in place; a plan in a later turn shows in that turn, the earlier one kept as it was", () => {
    const plan = (content: string): TranscriptAction =>
      upd({ sessionUpdate: 'plan', entries: [{ content, priority: 'medium', status: 'pending' }] });
    const state = run([
      start('t1'),
      plan('first'),
      plan('first, revised'),
      { type: 'turn_ended', turnId: 't1', stopReason: 'end_turn' },
      start('t2'),
      plan('second'),
    ]);
    const plans = entriesOf(state).flatMap((entry) =>
      entry.kind === 'plan' && entry.body.type === 'items'
        ? [`${entry.turnId ?? ''}:${entry.body.items.map((item) => item.content).join()}`]
        : [],
    );
    assert.deepEqual(plans, ['t1:first, revised', 't2:second']);
    assert.deepEqual(texts(state).slice(-2), ['user:prompt t2', 'plan'], 'the new plan follows the prompt of its turn');
  });

  it('v2 state_update idle ends the current turn with its stop reason', () => {
    const state = run([start('t1'), upd({ sessionUpdate: 'state_update', state: 'idle', stopReason: 'max_tokens' })]);
    assert.equal(state.turn.phase, 'idle');
    const end = entriesOf(state).pop();
    assert.deepEqual(end?.kind === 'turn_end' && end.outcome, { type: 'stopped', stopReason: 'max_tokens' });
  });
});

describe('reducer: malformed input keeps what is good', () => {
  const table: [string, unknown, (update: SessionUpdate | undefined, problems: string[]) => void][] = [
    [
      'a tool_call_update with a bad kind still applies its status',
      { sessionUpdate: 'tool_call_update', toolCallId: 't', kind: 42, status: 'completed' },
      (u) => assert.ok(u?.sessionUpdate === 'tool_call_update' && u.status === 'completed' && u.kind === undefined),
    ],
    [
      'an unknown tool kind shows as other',
      { sessionUpdate: 'tool_call', toolCallId: 't', kind: 'teleport' },
      (u) => assert.ok(u?.sessionUpdate === 'tool_call' && u.kind === 'other'),
    ],
    [
      'one bad content item is dropped, the rest kept',
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 't',
        content: [
          { type: 'content', content: { type: 'text', text: 'ok' } },
          { type: 'content', content: { type: 'image' } },
        ],
      },
      (u, p) => {
        assert.ok(u?.sessionUpdate === 'tool_call_update' && u.content?.length === 1);
        assert.equal(p.length, 1);
      },
    ],
    [
      'a tool call without toolCallId is dropped with a reason',
      { sessionUpdate: 'tool_call', title: 'x' },
      (u, p) => {
        assert.equal(u, undefined);
        assert.match(p[0] ?? '', /toolCallId/);
      },
    ],
    [
      'an unknown kind is reported, not applied',
      { sessionUpdate: 'teleport_update', x: 1 },
      (u, p) => {
        assert.equal(u, undefined);
        assert.match(p[0] ?? '', /unknown session update kind "teleport_update"/);
      },
    ],
    [
      'an unknown content block type is kept as unknown',
      { sessionUpdate: 'agent_message_chunk', content: { type: 'hologram', data: 1 } },
      (u) => assert.ok(u?.sessionUpdate === 'agent_message_chunk' && u.content.type === 'unknown'),
    ],
    [
      'a malformed messageId is dropped, the chunk kept',
      { sessionUpdate: 'agent_message_chunk', messageId: 7, content: { type: 'text', text: 'hi' } },
      (u) => assert.ok(u?.sessionUpdate === 'agent_message_chunk' && u.messageId === undefined),
    ],
    [
      'a plan entry without content is dropped, the others kept',
      { sessionUpdate: 'plan', entries: [{ content: 'a', priority: 'high', status: 'pending' }, { priority: 'low' }] },
      (u) => assert.ok(u?.sessionUpdate === 'plan' && u.entries.length === 1),
    ],
    [
      'plan_update accepts id or planId',
      { sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'p', content: '# Plan' } },
      (u) => assert.ok(u?.sessionUpdate === 'plan_update' && u.planId === 'p'),
    ],
    ['usage without size is dropped', { sessionUpdate: 'usage_update', used: 5 }, (u) => assert.equal(u, undefined)],
    [
      'a usage cost that is malformed is dropped, the usage kept',
      { sessionUpdate: 'usage_update', used: 5, size: 10, cost: { amount: 'lots' } },
      (u) => assert.ok(u?.sessionUpdate === 'usage_update' && u.cost === undefined),
    ],
    [
      'not an object at all',
      'garbage',
      (u, p) => {
        assert.equal(u, undefined);
        assert.equal(p.length, 1);
      },
    ],
  ];
  for (const [name, raw, check] of table) {
    it(name, () => {
      const { update, problems } = parseSessionUpdate(raw);
      check(update, problems);
    });
  }
});

describe('reducer: structural sharing', () => {
  it('a chunk into a 10,000-entry transcript copies one page, not the transcript', () => {
    let state = initialState();
    for (let i = 0; i < 10_000; i++)
      state = reduce(state, upd({ sessionUpdate: 'agent_message_chunk', messageId: `m${i}`, content: text('x') }));
    const next = reduce(state, upd({ sessionUpdate: 'agent_message_chunk', messageId: 'm9999', content: text('y') }));
    const changedPages = next.pages.filter((page, index) => page !== state.pages[index]);
    assert.equal(changedPages.length, 1);
    assert.equal(next.positions, state.positions, 'the index is shared when no entry is added');
  });
  it('an action that changes nothing returns the same state', () => {
    const state = run([upd({ sessionUpdate: 'agent_message', messageId: 'm', content: [text('a')] })]);
    assert.equal(reduce(state, upd({ sessionUpdate: 'agent_message', messageId: 'm' })), state);
    assert.equal(reduce(state, { type: 'turn_ended', turnId: 'nope', stopReason: 'end_turn' }).turn, state.turn);
  });
});
