/** The reducer's terminals: output kept for display, exit and release, and the tool calls that show them. */
import * as assert from 'node:assert/strict';
import type { TranscriptAction } from '../../../src/shared/actions';
import { mergeChunkActions } from '../../../src/shared/coalesce';
import { TERMINAL_DISPLAY_CHARS, type TranscriptState } from '../../../src/shared/model';
import { initialState, reduce } from '../../../src/shared/reducer';

const run = (actions: TranscriptAction[], from: TranscriptState = initialState()): TranscriptState => actions.reduce(reduce, from);
const output = (text: string, terminalId = 't1'): TranscriptAction => ({ type: 'terminal_output', terminalId, text });
const showIn = (toolCallId: string, terminalId = 't1'): TranscriptAction => ({
  type: 'session_update',
  update: {
    sessionUpdate: 'tool_call',
    toolCallId,
    title: 'Run',
    kind: 'execute',
    status: 'in_progress',
    content: [{ type: 'terminal', terminalId }],
  },
});

describe('reducer: terminals', () => {
  it('appends output in order and records exit and release, keeping the output', () => {
    const state = run([
      { type: 'terminal_started', terminalId: 't1', commandLine: 'npm test' },
      output('one\n'),
      output('two\n'),
      { type: 'terminal_exited', terminalId: 't1', exitCode: 1, signal: null },
      { type: 'terminal_released', terminalId: 't1' },
    ]);
    assert.deepEqual(state.terminals['t1'], {
      terminalId: 't1',
      commandLine: 'npm test',
      output: 'one\ntwo\n',
      trimmed: false,
      exit: { exitCode: 1, signal: null },
      released: true,
      toolCallIds: [],
    });
  });

  it('keeps only the newest output for display, never splitting a surrogate pair', () => {
    const emoji = '😀';
    const big = 'x'.repeat(TERMINAL_DISPLAY_CHARS - 1) + emoji + 'tail';
    const state = run([{ type: 'terminal_started', terminalId: 't1', commandLine: 'yes' }, output(big)]);
    const record = state.terminals['t1']!;
    assert.equal(record.trimmed, true);
    assert.ok(record.output.length <= TERMINAL_DISPLAY_CHARS);
    assert.ok(record.output.endsWith(`${emoji}tail`));
    const first = record.output.charCodeAt(0);
    assert.ok(!(first >= 0xdc00 && first <= 0xdfff), 'does not start with half a character');
  });

  it('links a terminal to every tool call whose content shows it, whichever comes first', () => {
    const state = run([
      showIn('call-a'),
      { type: 'terminal_started', terminalId: 't1', commandLine: 'make' },
      showIn('call-b'),
      showIn('call-b'),
    ]);
    assert.deepEqual(state.terminals['t1']?.toolCallIds, ['call-a', 'call-b']);
    assert.equal(state.terminals['t1']?.commandLine, 'make');
  });

  it('links through tool_call_content_chunk and permission requests too', () => {
    const state = run([
      {
        type: 'session_update',
        update: { sessionUpdate: 'tool_call_content_chunk', toolCallId: 'c1', content: { type: 'terminal', terminalId: 't1' } },
      },
      {
        type: 'permission_requested',
        requestId: 'p1',
        toolCallId: 'c2',
        toolCall: { content: [{ type: 'terminal', terminalId: 't2' }] },
        options: [{ optionId: 'ok', name: 'OK', kind: 'allow_once' }],
      },
    ]);
    assert.deepEqual(state.terminals['t1']?.toolCallIds, ['c1']);
    assert.deepEqual(state.terminals['t2']?.toolCallIds, ['c2']);
  });

  it('empty output and releasing an unknown terminal change nothing', () => {
    const start = run([{ type: 'terminal_started', terminalId: 't1', commandLine: 'ls' }]);
    assert.equal(reduce(start, output('')), start);
    assert.equal(reduce(start, { type: 'terminal_released', terminalId: 'nope' }), start);
  });

  it('merging two pieces of output before posting gives the state that applying both gives', () => {
    const start = run([{ type: 'terminal_started', terminalId: 't1', commandLine: 'cat' }, output('y'.repeat(TERMINAL_DISPLAY_CHARS - 3))]);
    const a = output('ab😀');
    const b = output('cd\n');
    const merged = mergeChunkActions(a, b);
    assert.ok(merged);
    assert.deepEqual(reduce(start, merged), run([a, b], start));
    assert.equal(mergeChunkActions(a, output('x', 't2')), undefined, 'different terminals are not merged');
  });
});
