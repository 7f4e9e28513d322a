/**
 * Golden tables from the spec's own JSON: every session/update example of seeds 000 (v1), 001 and 002 (v2 draft),
 * fed raw through the wire parser and the reducer, one by one into an empty transcript and in sequence.
 */
import * as assert from 'node:assert/strict';
import examples from '../fixtures/seed-examples.json';
import { parseSessionUpdate } from '../../../src/acp/schemas/session-update';
import { initialState, reduce } from '../../../src/shared/reducer';
import { entriesOf } from '../../../src/shared/selectors';
import type { Entry, TranscriptState } from '../../../src/shared/model';
import type { TranscriptAction } from '../../../src/shared/actions';

interface Example {
  readonly seed: string;
  readonly index: number;
  readonly message: {
    readonly method?: string;
    readonly params?: { readonly update?: unknown };
    readonly result?: { readonly stopReason?: string };
  };
}

const all = examples as readonly Example[];
const updatesOf = (seed: string) => all.filter((e) => e.seed === seed && e.message.method === 'session/update');

function apply(state: TranscriptState, raw: unknown): TranscriptState {
  const { update, problems } = parseSessionUpdate(raw);
  assert.deepEqual(problems, [], `the spec's own example parses cleanly: ${JSON.stringify(raw)}`);
  assert.ok(update);
  const action: TranscriptAction = { type: 'session_update', update };
  return reduce(state, action);
}

/** A compact, readable summary of an entry for the golden tables. */
function summary(entry: Entry): string {
  switch (entry.kind) {
    case 'message':
      return `${entry.role}: ${entry.content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('')}`;
    case 'tool_call':
      return `tool ${entry.toolCallId} "${entry.title}" ${entry.toolKind} ${entry.status} content=${entry.content.map((c) => (c.type === 'content' && c.content.type === 'text' ? c.content.text.split('\n')[0] : c.type)).join('|')}`;
    case 'plan':
      return `plan ${entry.planId}: ${entry.body.type === 'items' ? entry.body.items.map((item) => `${item.content}(${item.priority},${item.status})`).join('; ') : entry.body.type}`;
    default:
      return entry.kind;
  }
}

describe('golden: seed examples one by one into an empty transcript', () => {
  const table: [string, number, string[]][] = [
    [
      '000',
      0,
      [
        'plan default: Check for syntax errors(high,pending); Identify potential type issues(medium,pending); Review error handling patterns(medium,pending); Suggest improvements(low,pending)',
      ],
    ],
    ['000', 1, ["agent: I'll analyze your code for potential issues. Let me examine it..."]],
    ['000', 2, ['tool call_001 "Analyzing Python code" other pending content=']],
    ['000', 4, ['tool call_001 "Tool call" other in_progress content=']],
    ['000', 5, ['tool call_001 "Tool call" other completed content=Analysis complete:']],
    ['001', 0, ['tool call_001 "Tool call" other completed content=Analysis complete:']],
    ['002', 0, ['user: Can you analyze this code for potential issues?']],
    [
      '002',
      1,
      [
        'plan plan-1: Check for syntax errors(high,pending); Identify potential type issues(medium,pending); Review error handling patterns(medium,pending); Suggest improvements(low,pending)',
      ],
    ],
    ['002', 2, ["agent: I'll analyze your code for potential issues. Let me examine it..."]],
    ['002', 3, ['agent:  Let me examine it...']],
    ['002', 4, ['thought: Need to inspect the loop body before suggesting a fix.']],
    ['002', 5, ['tool call_001 "Analyzing Python code" other pending content=']],
    ['002', 6, []],
    ['002', 8, ['tool call_001 "Tool call" other in_progress content=']],
    ['002', 9, ['tool call_001 "Tool call" other pending content=Checked syntax...']],
    ['002', 10, ['tool call_001 "Tool call" other completed content=Analysis complete:']],
  ];
  for (const [seed, index, expected] of table) {
    it(`seed ${seed} example ${index}`, () => {
      const example = all.find((e) => e.seed === seed && e.index === index);
      assert.ok(example?.message.params, 'example exists');
      const state = apply(initialState(), example.message.params.update);
      assert.deepEqual(entriesOf(state).map(summary), expected);
    });
  }

  it('covers every session/update example in the seeds', () => {
    const covered = new Set(table.map(([seed, index]) => `${seed}:${index}`));
    const missing = all.filter((e) => e.message.method === 'session/update' && !covered.has(`${e.seed}:${e.index}`));
    assert.deepEqual(
      missing.map((e) => `${e.seed}:${e.index}`),
      [],
    );
  });

  it('seed 002 usage_update fills the context meter', () => {
    const example = all.find((e) => e.seed === '002' && e.index === 6);
    const state = apply(initialState(), example?.message.params?.update);
    assert.deepEqual(state.usage, { used: 53000, size: 200000, cost: { amount: 0.045, currency: 'USD' } });
  });
});

describe('golden: seed turns in sequence', () => {
  it('seed 000 (v1): plan, answer, a tool call that runs and completes', () => {
    let state = reduce(initialState(), {
      type: 'prompt_sent',
      turnId: 't1',
      content: [{ type: 'text', text: 'Can you analyze this code for potential issues?' }],
    });
    for (const example of updatesOf('000')) state = apply(state, example.message.params?.update);
    state = reduce(state, { type: 'turn_ended', turnId: 't1', stopReason: 'end_turn' });
    assert.deepEqual(entriesOf(state).map(summary), [
      'user: Can you analyze this code for potential issues?',
      'plan default: Check for syntax errors(high,pending); Identify potential type issues(medium,pending); Review error handling patterns(medium,pending); Suggest improvements(low,pending)',
      "agent: I'll analyze your code for potential issues. Let me examine it...",
      'tool call_001 "Analyzing Python code" other completed content=Analysis complete:',
      'turn_end',
    ]);
    assert.equal(state.turn.phase, 'idle');
  });

  it('seed 002 (v2): upserts, a chunk that appends, content chunk then replacing content', () => {
    let state = initialState();
    for (const example of updatesOf('002')) state = apply(state, example.message.params?.update);
    assert.deepEqual(entriesOf(state).map(summary), [
      'user: Can you analyze this code for potential issues?',
      'plan plan-1: Check for syntax errors(high,pending); Identify potential type issues(medium,pending); Review error handling patterns(medium,pending); Suggest improvements(low,pending)',
      "agent: I'll analyze your code for potential issues. Let me examine it... Let me examine it...",
      'thought: Need to inspect the loop body before suggesting a fix.',
      'tool call_001 "Analyzing Python code" other completed content=Analysis complete:',
    ]);
  });

  it('the prompt results of the seeds are stop reasons', () => {
    const results = all.filter((e) => e.message.result);
    assert.deepEqual(
      results.map((e) => e.message.result?.stopReason),
      ['end_turn', 'end_turn'],
    );
  });
});
