/** The reducer's size limits: what a user sees when an agent sends more than the transcript keeps. */
import * as assert from 'node:assert/strict';
import type { TranscriptAction } from '../../../src/shared/actions';
import { MAX_MESSAGE_CHARS, MAX_TOOL_CALLS_PER_TURN, MAX_TOOL_CONTENT_CHARS } from '../../../src/shared/limits';
import type { Entry, ToolCallEntry, TranscriptState } from '../../../src/shared/model';
import { initialState, reduce } from '../../../src/shared/reducer';
import { MESSAGE_TRUNCATED_NOTE, TOOL_CONTENT_TRUNCATED_NOTE } from '../../../src/shared/reducer-limits';
import { entriesOf } from '../../../src/shared/selectors';
import type { SessionUpdate } from '../../../src/shared/updates';

const run = (actions: TranscriptAction[], from = initialState()): TranscriptState => actions.reduce(reduce, from);
const upd = (update: SessionUpdate): TranscriptAction => ({ type: 'session_update', update });
const chunk = (text: string): TranscriptAction => upd({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
const textOf = (entry: Entry | undefined): string =>
  entry?.kind === 'message' ? entry.content.map((block) => (block.type === 'text' ? block.text : '')).join('') : '';
const toolCalls = (state: TranscriptState): ToolCallEntry[] =>
  entriesOf(state).filter((entry): entry is ToolCallEntry => entry.kind === 'tool_call');
const started = (): TranscriptState => run([{ type: 'prompt_sent', turnId: 't1', content: [{ type: 'text', text: 'go' }] }]);
const CHUNK = 64 * 1024;

function streamed(state: TranscriptState, chars: number, letter = 'm'): TranscriptState {
  let next = state;
  for (let sent = 0; sent < chars; sent += CHUNK) next = reduce(next, chunk(letter.repeat(Math.min(CHUNK, chars - sent))));
  return next;
}

describe('transcript limits: agent message size', () => {
  it('a 2 MB streamed message arrives whole, with no truncation note', () => {
    const state = streamed(started(), 2 * 1024 * 1024);
    const message = entriesOf(state)[1];
    assert.equal(textOf(message).length, 2 * 1024 * 1024);
    assert.ok(!textOf(message).includes('truncated'));
  });

  it('a message past the limit is cut there, says so at its end, and takes no more chunks', () => {
    let state = streamed(started(), MAX_MESSAGE_CHARS + 3 * CHUNK);
    const text = textOf(entriesOf(state)[1]);
    assert.equal(text.length, MAX_MESSAGE_CHARS);
    assert.ok(text.endsWith(MESSAGE_TRUNCATED_NOTE));
    assert.match(MESSAGE_TRUNCATED_NOTE, /Message truncated: it passed 4,000,000 characters/);
    const full = state;
    state = reduce(state, chunk('more'));
    assert.ok(textOf(entriesOf(state)[1]) === text, 'a full message takes no more text');
    // The same state, not an equal one: the host posts only actions that change its state, and a 20 MB message's
    // 16 MB past the limit went to the webview as posts that changed nothing.
    assert.equal(state, full, 'a chunk for a full message is not a change');
  });

  it('a v2 message replaced wholesale with too much is cut the same way', () => {
    const state = run(
      [upd({ sessionUpdate: 'agent_message', messageId: 'a1', content: [{ type: 'text', text: 'x'.repeat(MAX_MESSAGE_CHARS + 10) }] })],
      started(),
    );
    const text = textOf(entriesOf(state)[1]);
    assert.equal(text.length, MAX_MESSAGE_CHARS);
    assert.ok(text.endsWith(MESSAGE_TRUNCATED_NOTE));
  });
});

describe('transcript limits: tool call content size', () => {
  const contentText = (call: ToolCallEntry | undefined): string[] =>
    (call?.content ?? []).map((item) => (item.type === 'content' && item.content.type === 'text' ? item.content.text : item.type));

  it('content past the limit is cut, then a note says the output was truncated; later chunks are dropped', () => {
    let state = run(
      [
        upd({
          sessionUpdate: 'tool_call',
          toolCallId: 'c1',
          title: 'Run',
          content: [{ type: 'content', content: { type: 'text', text: 'o'.repeat(MAX_TOOL_CONTENT_CHARS + 5) } }],
        }),
      ],
      started(),
    );
    const shown = contentText(toolCalls(state)[0]);
    assert.equal(shown.length, 2);
    assert.equal(shown[0]?.length, MAX_TOOL_CONTENT_CHARS);
    assert.equal(shown[1], TOOL_CONTENT_TRUNCATED_NOTE);
    state = reduce(
      state,
      upd({
        sessionUpdate: 'tool_call_content_chunk',
        toolCallId: 'c1',
        content: { type: 'content', content: { type: 'text', text: 'late' } },
      }),
    );
    assert.deepEqual(contentText(toolCalls(state)[0]), shown);
  });

  it('a diff that would cross the limit is dropped whole (half a diff would show changes never made)', () => {
    const big = 'd'.repeat(MAX_TOOL_CONTENT_CHARS);
    const state = run(
      [
        upd({
          sessionUpdate: 'tool_call',
          toolCallId: 'c1',
          title: 'Edit',
          content: [{ type: 'content', content: { type: 'text', text: 'before' } }],
        }),
        upd({
          sessionUpdate: 'tool_call_content_chunk',
          toolCallId: 'c1',
          content: { type: 'diff', files: [{ path: '/w/a.ts', oldText: big, newText: big }] },
        }),
      ],
      started(),
    );
    assert.deepEqual(contentText(toolCalls(state)[0]), ['before', TOOL_CONTENT_TRUNCATED_NOTE]);
  });
});

describe('transcript limits: tool calls per turn', () => {
  const call = (index: number): TranscriptAction =>
    upd({ sessionUpdate: 'tool_call', toolCallId: `c${index}`, title: `Call ${index}`, status: 'completed' });

  it(`shows ${MAX_TOOL_CALLS_PER_TURN} tool calls, then one notice, and nothing more from that turn`, () => {
    const state = run(
      Array.from({ length: MAX_TOOL_CALLS_PER_TURN + 5 }, (_, index) => call(index)),
      started(),
    );
    assert.equal(toolCalls(state).length, MAX_TOOL_CALLS_PER_TURN);
    const notices = entriesOf(state).filter((entry) => entry.kind === 'notice');
    assert.equal(notices.length, 1);
    assert.match(notices[0]?.kind === 'notice' ? notices[0].title : '', /more than 1,000 tool calls in this turn/);
    // Calls already shown keep updating.
    const updated = reduce(state, upd({ sessionUpdate: 'tool_call_update', toolCallId: 'c3', status: 'failed' }));
    assert.equal(toolCalls(updated)[3]?.status, 'failed');
  });

  it('a permission request for a call over the limit still shows its card', () => {
    const state = run(
      Array.from({ length: MAX_TOOL_CALLS_PER_TURN + 1 }, (_, index) => call(index)),
      started(),
    );
    const asked = reduce(state, {
      type: 'permission_requested',
      requestId: 'p1',
      toolCallId: 'over',
      toolCall: { title: 'Delete everything' },
      options: [{ optionId: 'no', name: 'No', kind: 'reject_once' }],
    });
    assert.equal(toolCalls(asked).at(-1)?.status, 'awaiting_permission');
  });

  it('the next turn starts counting again', () => {
    let state = run(
      Array.from({ length: MAX_TOOL_CALLS_PER_TURN + 1 }, (_, index) => call(index)),
      started(),
    );
    state = run(
      [
        { type: 'turn_ended', turnId: 't1', stopReason: 'end_turn' },
        { type: 'prompt_sent', turnId: 't2', content: [{ type: 'text', text: 'again' }] },
        call(5_000),
      ],
      state,
    );
    assert.equal(toolCalls(state).at(-1)?.toolCallId, 'c5000');
  });
});
