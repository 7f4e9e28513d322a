/**
 * The long session of benchmark 3, built with the real reducer so the snapshot is exactly what the host would
 * send: 10,000 entries, of which 5,000 are markdown agent messages with code blocks and 2,000 are tool calls
 * with diffs (the rest: user prompts, thoughts, turn ends).
 */
import type { TranscriptAction } from '../../src/shared/actions';
import type { TranscriptState } from '../../src/shared/model';
import { initialState, reduce } from '../../src/shared/reducer';

const TURNS = 1_000;

function agentMarkdown(turn: number, part: number): string {
  return [
    `### Step ${part} of turn ${turn}`,
    '',
    `The parser in \`src/parser-${turn}.ts\` reads the whole file before it tokenizes. **Streaming** it keeps`,
    'memory flat on large inputs, and the tests below cover the edge cases:',
    '',
    '- empty input and a single token',
    '- tokens split across chunk boundaries',
    '',
    '```ts',
    `export function* tokenize${part}(source: string): Generator<string> {`,
    '  for (const match of source.matchAll(TOKEN)) {',
    '    yield match[0];',
    '  }',
    '}',
    '```',
  ].join('\n');
}

function fileText(turn: number, changed: boolean): string {
  const lines: string[] = [];
  for (let line = 0; line < 24; line++)
    lines.push(changed && line % 6 === 3 ? `  const value${line} = next(${turn}); // changed` : `  const value${line} = read(${turn});`);
  return `export function body${turn}() {\n${lines.join('\n')}\n}\n`;
}

function turnActions(turn: number): TranscriptAction[] {
  const turnId = `turn-${turn}`;
  const actions: TranscriptAction[] = [
    { type: 'prompt_sent', turnId, content: [{ type: 'text', text: `Please refactor module ${turn} to stream.` }] },
  ];
  const message = (part: number): TranscriptAction => ({
    type: 'session_update',
    update: {
      sessionUpdate: 'agent_message_chunk',
      messageId: `m-${turn}-${part}`,
      content: { type: 'text', text: agentMarkdown(turn, part) },
    },
  });
  const tool = (index: number): TranscriptAction => ({
    type: 'session_update',
    update: {
      sessionUpdate: 'tool_call',
      toolCallId: `tool-${turn}-${index}`,
      title: `Edit src/module-${turn}-${index}.ts`,
      kind: 'edit',
      status: 'completed',
      content: [
        {
          type: 'diff',
          files: [{ path: `/workspace/src/module-${turn}-${index}.ts`, oldText: fileText(turn, false), newText: fileText(turn, true) }],
        },
      ],
      locations: [{ path: `/workspace/src/module-${turn}-${index}.ts`, line: 4 }],
    },
  });
  const thought: TranscriptAction = {
    type: 'session_update',
    update: {
      sessionUpdate: 'agent_thought_chunk',
      messageId: `th-${turn}`,
      content: { type: 'text', text: 'The tokenizer is the only caller that needs the whole buffer.' },
    },
  };
  actions.push(thought, message(1), tool(1), message(2), tool(2), message(3), message(4), message(5));
  actions.push({ type: 'turn_ended', turnId, stopReason: 'end_turn' });
  return actions;
}

/** user + thought + 5 messages + 2 tool calls + turn end = 10 entries per turn; `turns` of them (1,000: 10,000 entries). */
export function longTranscript(turns = TURNS): TranscriptState {
  let state = reduce(initialState(), { type: 'agent_status', status: { phase: 'ready', agentName: 'Bench Agent' } });
  state = reduce(state, {
    type: 'session_started',
    sessionId: 'bench',
    promptCapabilities: { image: false, audio: false, embeddedContext: false },
  });
  for (let turn = 0; turn < turns; turn++) {
    for (const action of turnActions(turn)) state = reduce(state, action);
  }
  return reduce(state, { type: 'prompt_sent', turnId: 'turn-live', content: [{ type: 'text', text: 'Now stream a long answer.' }] });
}
