/** Streamed chunks read in one go reach the store as one action, and nothing sees a state without them. */
import * as assert from 'node:assert/strict';
import type { TranscriptAction } from '../../../src/shared/actions';
import { lastEntry } from '../../../src/shared/pages';
import { TranscriptStore } from '../../../src/session/transcript-store';
import { entriesOf } from '../../../src/shared/selectors';

const chunk = (text: string, messageId?: string): TranscriptAction => ({
  type: 'session_update',
  update: { sessionUpdate: 'agent_message_chunk', ...(messageId ? { messageId } : {}), content: { type: 'text', text } },
});
const thought = (text: string): TranscriptAction => ({
  type: 'session_update',
  update: { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text } },
});
const toolCall = (toolCallId: string): TranscriptAction => ({
  type: 'session_update',
  update: { sessionUpdate: 'tool_call', toolCallId, title: 'Read', kind: 'read', status: 'pending' },
});

function textsOf(store: TranscriptStore): string[] {
  return entriesOf(store.state).map((entry) =>
    entry.kind === 'message'
      ? `${entry.role}:${entry.content.map((block) => (block.type === 'text' ? block.text : '')).join('')}`
      : entry.kind,
  );
}

/** The store with a listener that keeps every action it was told about. */
function recordedStore(): { store: TranscriptStore; applied: TranscriptAction[] } {
  const store = new TranscriptStore();
  const applied: TranscriptAction[] = [];
  store.subscribe((action) => applied.push(action));
  return { store, applied };
}

describe('chunk batch: chunks streamed in one task reach the store together', () => {
  it('applies a run of chunks of one message as one action once the task is done', async () => {
    const { store, applied } = recordedStore();
    for (const text of ['Hel', 'lo, ', 'wor', 'ld']) store.dispatchStreamed(chunk(text, 'm1'));
    assert.equal(applied.length, 0, 'held until the task ends');
    await Promise.resolve();
    assert.equal(applied.length, 1);
    assert.deepEqual(textsOf(store), ['agent:Hello, world']);
  });

  it('keeps the order of everything else: another kind, another message, or a tool call ends the run first', async () => {
    const { store, applied } = recordedStore();
    const actions = [chunk('a', 'm1'), chunk('b', 'm1'), thought('t1'), thought('t2'), chunk('c', 'm2'), toolCall('c1'), chunk('d', 'm2')];
    actions.forEach((action) => store.dispatchStreamed(action));
    await Promise.resolve();
    assert.equal(applied.length, 5, 'ab, t1t2, c, the tool call, d');
    const oneByOne = new TranscriptStore();
    actions.forEach((action) => oneByOne.dispatch(action));
    assert.deepEqual(textsOf(store), textsOf(oneByOne), 'the same transcript as applying them one by one');
  });

  it('applies held chunks before anyone reads the state or dispatches something else', () => {
    const { store, applied } = recordedStore();
    store.dispatchStreamed(chunk('partial ', 'm1'));
    store.dispatchStreamed(chunk('answer', 'm1'));
    const entry = lastEntry(store.state);
    assert.ok(entry?.kind === 'message');
    assert.deepEqual(entry.content, [{ type: 'text', text: 'partial answer' }], 'a read sees every chunk that arrived before it');
    store.dispatchStreamed(chunk(' more', 'm1'));
    store.dispatch({ type: 'notice_added', severity: 'info', title: 'after the chunk' });
    assert.deepEqual(
      applied.map((action) => action.type),
      ['session_update', 'session_update', 'notice_added'],
      'the held chunk went before the action dispatched after it',
    );
  });

  it('merges terminal output of one terminal and keeps two terminals apart', async () => {
    const { store, applied } = recordedStore();
    for (const [terminalId, text] of [
      ['t1', 'a'],
      ['t1', 'b'],
      ['t2', 'c'],
    ] as const)
      store.dispatchStreamed({ type: 'terminal_output', terminalId, text });
    await Promise.resolve();
    assert.deepEqual(
      applied.map((action) => (action.type === 'terminal_output' ? `${action.terminalId}:${action.text}` : action.type)),
      ['t1:ab', 't2:c'],
    );
  });
});
