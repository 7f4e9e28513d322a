/**
 * Golden tables for every session/update kind the reducer handles beyond the seed examples (seed-golden.test.ts):
 * JSON shaped exactly as the ACP schemas define it (v1 schema.json, v1 schema.unstable.json, v2 schema.json and
 * v2 schema.unstable.json, SDK 2.4.0; v1 and v2 spellings where they differ), fed raw through the wire parser and
 * the reducer, asserting the state a user would see. Then malformed input per kind, and a check that the tables
 * cover every kind the schemas list.
 */
import * as assert from 'node:assert/strict';
import examples from '../fixtures/seed-examples.json';
import { parseSessionUpdate } from '../../../src/acp/schemas/session-update';
import type { TranscriptAction } from '../../../src/shared/actions';
import type { ContentBlock, ToolCallContent } from '../../../src/shared/content';
import type { CompactionEntry, Entry, MessageEntry, PlanEntry, ToolCallEntry, TranscriptState } from '../../../src/shared/model';
import { initialState, reduce } from '../../../src/shared/reducer';
import { entriesOf } from '../../../src/shared/selectors';
import type { AgentTerminalUpdate, SessionUpdate } from '../../../src/shared/updates';

type Raw = Readonly<Record<string, unknown>>;

interface Row {
  readonly name: string;
  /** Client-side actions before the updates (a prompt sent, a session started). */
  readonly before?: readonly TranscriptAction[];
  /** Wire `session/update` payloads, exactly as the schema shapes them. */
  readonly updates: readonly Raw[];
  readonly expect: (state: TranscriptState) => void;
}

/** The schema's own shapes parse without a single problem, then reduce. */
function feed(updates: readonly Raw[], from: TranscriptState): TranscriptState {
  let state = from;
  for (const raw of updates) {
    const { update, problems } = parseSessionUpdate(raw);
    assert.deepEqual(problems, [], `a schema-shaped update parses cleanly: ${JSON.stringify(raw)}`);
    assert.ok(update, `parsed: ${JSON.stringify(raw)}`);
    state = reduce(state, { type: 'session_update', update });
  }
  return state;
}

function onlyEntry(state: TranscriptState): Entry {
  const entries = entriesOf(state);
  assert.equal(entries.length, 1, `one entry: ${JSON.stringify(entries)}`);
  return entries[0]!;
}
function onlyMessage(state: TranscriptState): MessageEntry {
  const entry = onlyEntry(state);
  assert.equal(entry.kind, 'message');
  return entry as MessageEntry;
}
function toolCall(state: TranscriptState, toolCallId = 'call_001'): ToolCallEntry {
  const entry = entriesOf(state).find((e): e is ToolCallEntry => e.kind === 'tool_call' && e.toolCallId === toolCallId);
  assert.ok(entry, `tool call ${toolCallId} exists`);
  return entry;
}
function plans(state: TranscriptState): PlanEntry[] {
  return entriesOf(state).filter((e): e is PlanEntry => e.kind === 'plan');
}
function compaction(state: TranscriptState): CompactionEntry {
  const entry = onlyEntry(state);
  assert.equal(entry.kind, 'compaction');
  return entry as CompactionEntry;
}

const TURN: TranscriptAction = { type: 'prompt_sent', turnId: 't1', content: [{ type: 'text', text: 'go' }] };

/** Every ContentBlock variant, on the wire (v1 and v2 share these shapes) and as the transcript stores it. */
const BLOCKS: readonly (readonly [string, Raw, ContentBlock])[] = [
  ['text', { type: 'text', text: 'hello', annotations: { audience: ['user'], priority: 0.5 } }, { type: 'text', text: 'hello' }],
  [
    'image',
    { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png', uri: 'file:///home/user/shot.png', annotations: null },
    { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png', uri: 'file:///home/user/shot.png' },
  ],
  [
    'audio',
    { type: 'audio', data: 'UklGRiQAAABXQVZF', mimeType: 'audio/wav' },
    { type: 'audio', data: 'UklGRiQAAABXQVZF', mimeType: 'audio/wav' },
  ],
  [
    'resource_link',
    {
      type: 'resource_link',
      uri: 'file:///home/user/project/README.md',
      name: 'README.md',
      title: 'Read me',
      description: 'Project readme',
      mimeType: 'text/markdown',
      size: 1024,
    },
    {
      type: 'resource_link',
      uri: 'file:///home/user/project/README.md',
      name: 'README.md',
      title: 'Read me',
      description: 'Project readme',
      mimeType: 'text/markdown',
      size: 1024,
    },
  ],
  [
    'resource with text',
    {
      type: 'resource',
      resource: { uri: 'file:///home/user/project/main.py', mimeType: 'text/x-python', text: 'def process_data(items):\n    pass' },
    },
    {
      type: 'resource',
      resource: { uri: 'file:///home/user/project/main.py', mimeType: 'text/x-python', text: 'def process_data(items):\n    pass' },
    },
  ],
  [
    'resource with blob',
    { type: 'resource', resource: { uri: 'file:///home/user/project/logo.png', mimeType: 'image/png', blob: 'iVBORw0KGgo=' } },
    { type: 'resource', resource: { uri: 'file:///home/user/project/logo.png', mimeType: 'image/png', blob: 'iVBORw0KGgo=' } },
  ],
];

const GOLDEN: Row[] = [];

// ---- messages: user_message_chunk, agent_thought_chunk, agent_thought (v2), every content block type ----
GOLDEN.push(
  {
    name: 'user_message_chunk (v1, no messageId) outside a turn shows a user message; consecutive chunks merge',
    updates: [
      { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'replayed ' } },
      { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'prompt' } },
    ],
    expect: (state) => {
      const message = onlyMessage(state);
      assert.equal(message.role, 'user');
      assert.deepEqual(message.content, [{ type: 'text', text: 'replayed prompt' }]);
    },
  },
  {
    name: 'user_message_chunk (v2, messageId) starts a user message keyed by that id',
    updates: [{ sessionUpdate: 'user_message_chunk', messageId: 'msg_user_1', content: { type: 'text', text: 'from history' } }],
    expect: (state) => {
      const message = onlyMessage(state);
      assert.deepEqual(
        [message.role, message.messageId, message.content],
        ['user', 'msg_user_1', [{ type: 'text', text: 'from history' }]],
      );
    },
  },
  {
    name: 'agent_thought_chunk (v1) merges into one thought, and an agent_message_chunk after it is its own message',
    updates: [
      { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'Thinking ' } },
      { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'harder' } },
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Answer' } },
    ],
    expect: (state) => {
      const entries = entriesOf(state);
      assert.deepEqual(
        entries.map((e) => (e.kind === 'message' ? [e.role, e.content] : e.kind)),
        [
          ['thought', [{ type: 'text', text: 'Thinking harder' }]],
          ['agent', [{ type: 'text', text: 'Answer' }]],
        ],
      );
    },
  },
  {
    name: 'agent_thought_chunk (v2, messageId) appends to the thought with that id',
    updates: [
      { sessionUpdate: 'agent_thought', messageId: 'msg_thought_1', content: [{ type: 'text', text: 'Plan: ' }] },
      { sessionUpdate: 'agent_thought_chunk', messageId: 'msg_thought_1', content: { type: 'text', text: 'read the file' } },
    ],
    expect: (state) => {
      const message = onlyMessage(state);
      assert.deepEqual(
        [message.role, message.key, message.content],
        ['thought', 'msg:thought:msg_thought_1', [{ type: 'text', text: 'Plan: read the file' }]],
      );
    },
  },
  {
    name: 'agent_thought (v2): an array replaces, omitted content leaves it, null clears',
    updates: [
      { sessionUpdate: 'agent_thought', messageId: 'msg_thought_1', content: [{ type: 'text', text: 'first' }] },
      { sessionUpdate: 'agent_thought', messageId: 'msg_thought_1', content: [{ type: 'text', text: 'second' }] },
      { sessionUpdate: 'agent_thought', messageId: 'msg_thought_1' },
    ],
    expect: (state) => {
      assert.deepEqual(onlyMessage(state).content, [{ type: 'text', text: 'second' }]);
      const cleared = feed([{ sessionUpdate: 'agent_thought', messageId: 'msg_thought_1', content: null }], state);
      assert.deepEqual(onlyMessage(cleared).content, []);
    },
  },
  {
    name: 'agent_message_chunk with text, image, text keeps the blocks in order (text merges only with adjacent text)',
    updates: [
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Here ' } },
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'it is:' } },
      { sessionUpdate: 'agent_message_chunk', content: { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' } },
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Done.' } },
    ],
    expect: (state) =>
      assert.deepEqual(onlyMessage(state).content, [
        { type: 'text', text: 'Here it is:' },
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        { type: 'text', text: 'Done.' },
      ]),
  },
);
for (const [type, wire, stored] of BLOCKS) {
  GOLDEN.push(
    {
      name: `agent_message_chunk (v1) whose content is ${type}`,
      updates: [{ sessionUpdate: 'agent_message_chunk', content: wire }],
      expect: (state) => assert.deepEqual(onlyMessage(state).content, [stored]),
    },
    {
      name: `user_message_chunk (v1) whose content is ${type}`,
      updates: [{ sessionUpdate: 'user_message_chunk', content: wire }],
      expect: (state) => {
        const message = onlyMessage(state);
        assert.deepEqual([message.role, message.content], ['user', [stored]]);
      },
    },
    {
      name: `agent_message (v2) whose content is ${type}`,
      updates: [{ sessionUpdate: 'agent_message', messageId: 'msg_agent_1', content: [wire] }],
      expect: (state) => assert.deepEqual(onlyMessage(state).content, [stored]),
    },
    {
      name: `user_message (v2) whose content is ${type}`,
      updates: [{ sessionUpdate: 'user_message', messageId: 'msg_user_1', content: [wire] }],
      expect: (state) => assert.deepEqual(onlyMessage(state).content, [stored]),
    },
    {
      name: `agent_thought (v2) whose content is ${type}`,
      updates: [{ sessionUpdate: 'agent_thought', messageId: 'msg_thought_1', content: [wire] }],
      expect: (state) => assert.deepEqual(onlyMessage(state).content, [stored]),
    },
  );
}

// ---- session-level state: commands, mode, config options, info, usage, notices ----
GOLDEN.push(
  {
    name: 'available_commands_update (v1): name, description, input hint; a null input has no hint',
    updates: [
      {
        sessionUpdate: 'available_commands_update',
        availableCommands: [
          { name: 'web', description: 'Search the web for information', input: { hint: 'query to search for' } },
          { name: 'test', description: 'Run tests for the current project', input: null },
          { name: 'plan', description: 'Create a detailed implementation plan' },
        ],
      },
    ],
    expect: (state) =>
      assert.deepEqual(state.commands, [
        { name: 'web', description: 'Search the web for information', inputHint: 'query to search for' },
        { name: 'test', description: 'Run tests for the current project' },
        { name: 'plan', description: 'Create a detailed implementation plan' },
      ]),
  },
  {
    name: 'available_commands_update (v2): {type: "command"} with {type: "text", hint} input; a later update replaces the list',
    updates: [
      { sessionUpdate: 'available_commands_update', availableCommands: [{ type: 'command', name: 'old', description: 'Gone soon' }] },
      {
        sessionUpdate: 'available_commands_update',
        availableCommands: [
          { type: 'command', name: 'review', description: 'Review the diff', input: { type: 'text', hint: 'what to focus on' } },
        ],
      },
    ],
    expect: (state) =>
      assert.deepEqual(state.commands, [{ name: 'review', description: 'Review the diff', inputHint: 'what to focus on' }]),
  },
  {
    name: 'available_commands_update with an empty list clears the commands',
    updates: [
      { sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'web', description: 'Search' }] },
      { sessionUpdate: 'available_commands_update', availableCommands: [] },
    ],
    expect: (state) => assert.deepEqual(state.commands, []),
  },
  {
    name: 'current_mode_update switches the current mode and keeps the modes the session offered',
    before: [
      {
        type: 'session_started',
        sessionId: 'sess_1',
        modes: {
          current: 'ask',
          available: [
            { id: 'ask', name: 'Ask' },
            { id: 'architect', name: 'Architect', description: 'Design first' },
          ],
        },
        promptCapabilities: { image: false, audio: false, embeddedContext: false },
      },
    ],
    updates: [{ sessionUpdate: 'current_mode_update', currentModeId: 'architect' }],
    expect: (state) =>
      assert.deepEqual(state.modes, {
        current: 'architect',
        available: [
          { id: 'ask', name: 'Ask' },
          { id: 'architect', name: 'Architect', description: 'Design first' },
        ],
      }),
  },
  {
    name: 'current_mode_update before any modes are known records the current mode',
    updates: [{ sessionUpdate: 'current_mode_update', currentModeId: 'code' }],
    expect: (state) => assert.deepEqual(state.modes, { current: 'code', available: [] }),
  },
  {
    name: 'config_option_update (v1 `id`): an ungrouped select and a boolean',
    updates: [
      {
        sessionUpdate: 'config_option_update',
        configOptions: [
          {
            id: 'model',
            name: 'Model',
            description: 'The model to use',
            category: 'model',
            type: 'select',
            currentValue: 'sonnet',
            options: [
              { value: 'sonnet', name: 'Sonnet' },
              { value: 'opus', name: 'Opus', description: 'Most capable' },
            ],
          },
          { id: 'verbose', name: 'Verbose', type: 'boolean', currentValue: true },
        ],
      },
    ],
    expect: (state) =>
      assert.deepEqual(state.configOptions, [
        {
          id: 'model',
          name: 'Model',
          description: 'The model to use',
          category: 'model',
          type: 'select',
          currentValue: 'sonnet',
          options: [
            { value: 'sonnet', name: 'Sonnet' },
            { value: 'opus', name: 'Opus', description: 'Most capable' },
          ],
        },
        { id: 'verbose', name: 'Verbose', type: 'boolean', currentValue: true, options: [] },
      ]),
  },
  {
    name: 'config_option_update (v1 `group`): grouped select options are flattened in order',
    updates: [
      {
        sessionUpdate: 'config_option_update',
        configOptions: [
          {
            id: 'model',
            name: 'Model',
            type: 'select',
            currentValue: 'gpt-5',
            options: [
              { group: 'anthropic', name: 'Anthropic', options: [{ value: 'sonnet', name: 'Sonnet' }] },
              {
                group: 'openai',
                name: 'OpenAI',
                options: [
                  { value: 'gpt-5', name: 'GPT-5', description: null },
                  { value: 'o3', name: 'o3' },
                ],
              },
            ],
          },
        ],
      },
    ],
    expect: (state) => {
      const [option] = state.configOptions;
      assert.deepEqual(
        [option?.currentValue, option?.options],
        [
          'gpt-5',
          [
            { value: 'sonnet', name: 'Sonnet' },
            { value: 'gpt-5', name: 'GPT-5' },
            { value: 'o3', name: 'o3' },
          ],
        ],
      );
    },
  },
  {
    name: 'config_option_update (v2 `configId`, `groupId`): grouped select and boolean; the next update replaces the whole list',
    updates: [
      {
        sessionUpdate: 'config_option_update',
        configOptions: [{ configId: 'stale', name: 'Stale', type: 'boolean', currentValue: false }],
      },
      {
        sessionUpdate: 'config_option_update',
        configOptions: [
          {
            configId: 'effort',
            name: 'Reasoning effort',
            category: 'thought_level',
            type: 'select',
            currentValue: 'high',
            options: [
              {
                groupId: 'levels',
                name: 'Levels',
                options: [
                  { value: 'low', name: 'Low' },
                  { value: 'high', name: 'High' },
                ],
              },
            ],
          },
          { configId: 'auto_approve', name: 'Auto-approve edits', description: null, type: 'boolean', currentValue: false },
        ],
      },
    ],
    expect: (state) =>
      assert.deepEqual(state.configOptions, [
        {
          id: 'effort',
          name: 'Reasoning effort',
          category: 'thought_level',
          type: 'select',
          currentValue: 'high',
          options: [
            { value: 'low', name: 'Low' },
            { value: 'high', name: 'High' },
          ],
        },
        { id: 'auto_approve', name: 'Auto-approve edits', type: 'boolean', currentValue: false, options: [] },
      ]),
  },
  {
    name: 'session_info_update sets the title; a later title replaces it',
    updates: [
      { sessionUpdate: 'session_info_update', title: 'Fix the parser', updatedAt: '2025-01-15T10:30:00Z' },
      { sessionUpdate: 'session_info_update', title: 'Fix the parser and the reducer' },
    ],
    expect: (state) => assert.equal(state.title, 'Fix the parser and the reducer'),
  },
  {
    name: 'session_info_update with title null clears the title',
    updates: [
      { sessionUpdate: 'session_info_update', title: 'Old title' },
      { sessionUpdate: 'session_info_update', title: null },
    ],
    expect: (state) => assert.ok(!('title' in state), 'no title key left'),
  },
  {
    name: 'session_info_update with only updatedAt (or updatedAt null) leaves the title',
    updates: [
      { sessionUpdate: 'session_info_update', title: 'Kept' },
      { sessionUpdate: 'session_info_update', updatedAt: '2025-01-15T10:31:00Z' },
      { sessionUpdate: 'session_info_update', updatedAt: null },
    ],
    expect: (state) => assert.equal(state.title, 'Kept'),
  },
  {
    name: 'usage_update without cost fills the context meter',
    updates: [{ sessionUpdate: 'usage_update', used: 1200, size: 200000 }],
    expect: (state) => assert.deepEqual(state.usage, { used: 1200, size: 200000 }),
  },
  {
    name: 'usage_update with cost; a later update without cost keeps the last cost (v2: omitted leaves it unchanged)',
    updates: [
      { sessionUpdate: 'usage_update', used: 1200, size: 200000, cost: { amount: 0.01, currency: 'USD' } },
      { sessionUpdate: 'usage_update', used: 5000, size: 200000 },
    ],
    expect: (state) => assert.deepEqual(state.usage, { used: 5000, size: 200000, cost: { amount: 0.01, currency: 'USD' } }),
  },
  {
    name: 'usage_update with cost null clears the cost',
    updates: [
      { sessionUpdate: 'usage_update', used: 1200, size: 200000, cost: { amount: 3, currency: 'credits' } },
      { sessionUpdate: 'usage_update', used: 1300, size: 200000, cost: null },
    ],
    expect: (state) => assert.deepEqual(state.usage, { used: 1300, size: 200000 }),
  },
);
for (const severity of ['info', 'warning', 'error'] as const) {
  GOLDEN.push({
    name: `notice with severity ${severity} shows a banner with its title and description`,
    updates: [{ sessionUpdate: 'notice', severity, title: `A ${severity} notice`, description: 'What to do about it' }],
    expect: (state) => {
      assert.deepEqual(state.banner, { severity, title: `A ${severity} notice`, detail: 'What to do about it', id: 1 });
      assert.equal(state.entryCount, 0, 'notices are live events, not transcript history');
    },
  });
}
GOLDEN.push({
  name: 'notice: a second notice replaces the banner with a new id (description null = none); a custom severity shows as info',
  updates: [
    { sessionUpdate: 'notice', severity: 'error', title: 'Rate limited' },
    { sessionUpdate: 'notice', severity: '_vendor_hint', title: 'Retrying', description: null },
  ],
  expect: (state) => assert.deepEqual(state.banner, { severity: 'info', title: 'Retrying', id: 2 }),
});

// ---- plans ----
const ITEMS = [
  { content: 'Read the parser', priority: 'high', status: 'completed' },
  { content: 'Write the tests', priority: 'medium', status: 'in_progress' },
  { content: 'Fix what they find', priority: 'low', status: 'pending' },
];
GOLDEN.push(
  {
    name: 'plan (v1): a second plan replaces the first whole',
    updates: [
      { sessionUpdate: 'plan', entries: [{ content: 'Old step', priority: 'high', status: 'pending' }] },
      { sessionUpdate: 'plan', entries: ITEMS },
    ],
    expect: (state) => {
      const [plan, ...rest] = plans(state);
      assert.deepEqual(rest, []);
      assert.deepEqual([plan?.planId, plan?.body], ['default', { type: 'items', items: ITEMS }]);
    },
  },
  {
    name: 'plan (v1) with no entries empties the plan',
    updates: [
      { sessionUpdate: 'plan', entries: ITEMS },
      { sessionUpdate: 'plan', entries: [] },
    ],
    expect: (state) =>
      assert.deepEqual(
        plans(state).map((p) => p.body),
        [{ type: 'items', items: [] }],
      ),
  },
  {
    name: 'plan_update by planId (v1 unstable / v2 PlanItems) shows the items',
    updates: [{ sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'plan-a', entries: ITEMS } }],
    expect: (state) =>
      assert.deepEqual(
        plans(state).map((p) => [p.key, p.planId, p.body]),
        [['plan:plan-a', 'plan-a', { type: 'items', items: ITEMS }]],
      ),
  },
  {
    name: 'plan_update by id (seed 002 draft spelling) shows the items',
    updates: [{ sessionUpdate: 'plan_update', plan: { type: 'items', id: 'plan-b', entries: ITEMS.slice(0, 1) } }],
    expect: (state) =>
      assert.deepEqual(
        plans(state).map((p) => [p.planId, p.body]),
        [['plan-b', { type: 'items', items: ITEMS.slice(0, 1) }]],
      ),
  },
  {
    name: 'plan_update markdown (PlanMarkdown {planId, content})',
    updates: [{ sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'plan-md', content: '# Plan\n\n1. Read\n2. Write' } }],
    expect: (state) =>
      assert.deepEqual(
        plans(state).map((p) => p.body),
        [{ type: 'markdown', markdown: '# Plan\n\n1. Read\n2. Write' }],
      ),
  },
  {
    name: 'plan_update file (PlanFile {planId, uri})',
    updates: [{ sessionUpdate: 'plan_update', plan: { type: 'file', planId: 'plan-file', uri: 'file:///home/user/project/PLAN.md' } }],
    expect: (state) =>
      assert.deepEqual(
        plans(state).map((p) => p.body),
        [{ type: 'file', path: 'file:///home/user/project/PLAN.md' }],
      ),
  },
  {
    name: 'plan_update of an existing plan replaces it in place (by planId and by id)',
    updates: [
      { sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p1', entries: ITEMS } },
      { sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'p2', content: 'second plan' } },
      { sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p1', entries: ITEMS.slice(2) } },
      { sessionUpdate: 'plan_update', plan: { type: 'markdown', id: 'p2', content: 'second plan, revised' } },
    ],
    expect: (state) =>
      assert.deepEqual(
        plans(state).map((p) => [p.planId, p.body]),
        [
          ['p1', { type: 'items', items: ITEMS.slice(2) }],
          ['p2', { type: 'markdown', markdown: 'second plan, revised' }],
        ],
      ),
  },
  {
    name: 'plan_removed by planId removes that plan only',
    updates: [
      { sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p1', entries: ITEMS } },
      { sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p2', entries: ITEMS } },
      { sessionUpdate: 'plan_removed', planId: 'p1' },
    ],
    expect: (state) =>
      assert.deepEqual(
        plans(state).map((p) => p.planId),
        ['p2'],
      ),
  },
  {
    name: 'plan_removed by id (draft alias) removes that plan; an unknown id changes nothing',
    updates: [
      { sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p1', entries: ITEMS } },
      { sessionUpdate: 'plan_removed', planId: 'never-shown' },
      { sessionUpdate: 'plan_removed', id: 'p1' },
    ],
    expect: (state) => assert.deepEqual(entriesOf(state), []),
  },
);

// ---- compaction ----
for (const status of ['in_progress', 'completed', 'failed', 'cancelled', '_vendor_state']) {
  GOLDEN.push({
    name: `compaction_update with status ${status} shows a compaction entry with that status`,
    updates: [{ sessionUpdate: 'compaction_update', compactionId: 'cmp_1', status }],
    expect: (state) => {
      const entry = compaction(state);
      assert.deepEqual(
        [entry.key, entry.compactionId, entry.status, entry.summary, entry.error],
        ['compaction:cmp_1', 'cmp_1', status, [], undefined],
      );
    },
  });
}
GOLDEN.push(
  {
    name: 'compaction_summary_chunk: a first-seen id creates an in-progress compaction; chunks append to the summary',
    updates: [
      { sessionUpdate: 'compaction_summary_chunk', compactionId: 'cmp_1', content: { type: 'text', text: 'We fixed ' } },
      { sessionUpdate: 'compaction_summary_chunk', compactionId: 'cmp_1', content: { type: 'text', text: 'the parser.' } },
      {
        sessionUpdate: 'compaction_summary_chunk',
        compactionId: 'cmp_1',
        content: { type: 'resource_link', uri: 'file:///p/a.ts', name: 'a.ts' },
      },
    ],
    expect: (state) => {
      const entry = compaction(state);
      assert.equal(entry.status, 'in_progress');
      assert.deepEqual(entry.summary, [
        { type: 'text', text: 'We fixed the parser.' },
        { type: 'resource_link', uri: 'file:///p/a.ts', name: 'a.ts' },
      ]);
    },
  },
  {
    name: 'compaction_update: summary omitted keeps the streamed summary, a summary array replaces it',
    updates: [
      { sessionUpdate: 'compaction_update', compactionId: 'cmp_1', status: 'in_progress' },
      { sessionUpdate: 'compaction_summary_chunk', compactionId: 'cmp_1', content: { type: 'text', text: 'draft' } },
      { sessionUpdate: 'compaction_update', compactionId: 'cmp_1', status: 'in_progress' },
    ],
    expect: (state) => {
      assert.deepEqual(compaction(state).summary, [{ type: 'text', text: 'draft' }]);
      const done = feed(
        [{ sessionUpdate: 'compaction_update', compactionId: 'cmp_1', status: 'completed', summary: [{ type: 'text', text: 'final' }] }],
        state,
      );
      assert.deepEqual([compaction(done).status, compaction(done).summary], ['completed', [{ type: 'text', text: 'final' }]]);
    },
  },
  {
    name: 'compaction_update: summary null or [] clears the summary',
    updates: [
      { sessionUpdate: 'compaction_update', compactionId: 'cmp_1', status: 'completed', summary: [{ type: 'text', text: 'one' }] },
      { sessionUpdate: 'compaction_update', compactionId: 'cmp_1', status: 'completed', summary: null },
    ],
    expect: (state) => {
      assert.deepEqual(compaction(state).summary, []);
      const refilled = feed(
        [{ sessionUpdate: 'compaction_update', compactionId: 'cmp_1', status: 'completed', summary: [{ type: 'text', text: 'two' }] }],
        state,
      );
      const emptied = feed([{ sessionUpdate: 'compaction_update', compactionId: 'cmp_1', status: 'completed', summary: [] }], refilled);
      assert.deepEqual(compaction(emptied).summary, []);
    },
  },
  {
    name: 'compaction_update: error shows; omitted keeps it; null clears it',
    updates: [
      { sessionUpdate: 'compaction_update', compactionId: 'cmp_1', status: 'failed', error: 'Context too large to summarise' },
      { sessionUpdate: 'compaction_update', compactionId: 'cmp_1', status: 'failed' },
    ],
    expect: (state) => {
      assert.equal(compaction(state).error, 'Context too large to summarise');
      const retried = feed([{ sessionUpdate: 'compaction_update', compactionId: 'cmp_1', status: 'in_progress', error: null }], state);
      assert.deepEqual([compaction(retried).status, 'error' in compaction(retried)], ['in_progress', false]);
    },
  },
);

// ---- state_update (v2) ----
GOLDEN.push(
  {
    name: 'state_update running with no turn running starts an agent-initiated turn',
    updates: [{ sessionUpdate: 'state_update', state: 'running' }],
    expect: (state) => assert.deepEqual(state.turn, { phase: 'running', turnId: 'agent-turn-1' }),
  },
  {
    name: 'state_update running / requires_action during a prompt turn leave the turn running',
    before: [TURN],
    updates: [
      { sessionUpdate: 'state_update', state: 'running' },
      { sessionUpdate: 'state_update', state: 'requires_action' },
    ],
    expect: (state) => {
      assert.deepEqual(state.turn, { phase: 'running', turnId: 't1' });
      assert.deepEqual(
        entriesOf(state).map((e) => e.kind),
        ['message'],
      );
    },
  },
  {
    name: 'state_update idle without stopReason ends the turn as end_turn; a repeated idle adds nothing',
    before: [TURN],
    updates: [
      { sessionUpdate: 'state_update', state: 'idle' },
      { sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' },
    ],
    expect: (state) => {
      assert.equal(state.turn.phase, 'idle');
      const ends = entriesOf(state).filter((e) => e.kind === 'turn_end');
      assert.deepEqual(
        ends.map((e) => e.kind === 'turn_end' && e.outcome),
        [{ type: 'stopped', stopReason: 'end_turn' }],
      );
    },
  },
  {
    name: 'state_update idle with stopReason error ends the turn as an error with the JSON-RPC error message',
    before: [TURN],
    updates: [{ sessionUpdate: 'state_update', state: 'idle', stopReason: 'error', error: { code: -32603, message: 'Model overloaded' } }],
    expect: (state) => {
      const end = entriesOf(state).pop();
      assert.deepEqual(end?.kind === 'turn_end' && end.outcome, { type: 'error', message: 'Model overloaded', code: -32603 });
      assert.equal(state.turn.phase, 'idle');
    },
  },
  {
    name: 'state_update with a custom state changes nothing',
    before: [TURN],
    updates: [{ sessionUpdate: 'state_update', state: '_vendor_waiting' }],
    expect: (state) => assert.deepEqual(state.turn, { phase: 'running', turnId: 't1' }),
  },
);
for (const stopReason of ['end_turn', 'max_tokens', 'max_turn_requests', 'refusal', 'cancelled', '_vendor_reason']) {
  GOLDEN.push({
    name: `state_update idle with stopReason ${stopReason} ends the running turn with it`,
    before: [TURN],
    updates: [{ sessionUpdate: 'state_update', state: 'idle', stopReason, background: null }],
    expect: (state) => {
      assert.equal(state.turn.phase, 'idle');
      const end = entriesOf(state).pop();
      assert.deepEqual(end?.kind === 'turn_end' && [end.turnId, end.outcome], ['t1', { type: 'stopped', stopReason }]);
    },
  });
}

// ---- tool calls: every ToolCallContent type, locations, raw input/output, kinds, statuses ----
const call = (fields: Raw): Raw => ({
  sessionUpdate: 'tool_call',
  toolCallId: 'call_001',
  title: 'Edit main.py',
  kind: 'edit',
  status: 'pending',
  ...fields,
});
for (const [type, wire, stored] of BLOCKS) {
  GOLDEN.push({
    name: `tool_call content {type: "content"} wrapping ${type}`,
    updates: [call({ content: [{ type: 'content', content: wire }] })],
    expect: (state) => assert.deepEqual(toolCall(state).content, [{ type: 'content', content: stored }]),
  });
}
const v2Changes = [
  { operation: 'modify', path: '/home/user/project/src/a.ts', fileType: 'text', mimeType: 'text/typescript' },
  { operation: 'add', path: '/home/user/project/src/b.ts' },
  { operation: 'delete', path: '/home/user/project/src/c.ts', fileType: 'binary' },
  { operation: 'move', oldPath: '/home/user/project/src/old.ts', path: '/home/user/project/src/new.ts' },
  { operation: 'copy', oldPath: '/home/user/project/src/d.ts', path: '/home/user/project/src/d2.ts' },
];
const v2Files = [
  { path: '/home/user/project/src/a.ts', operation: 'modify' },
  { path: '/home/user/project/src/b.ts', operation: 'add' },
  { path: '/home/user/project/src/c.ts', operation: 'delete' },
  { path: '/home/user/project/src/new.ts', operation: 'move', oldPath: '/home/user/project/src/old.ts' },
  { path: '/home/user/project/src/d2.ts', operation: 'copy', oldPath: '/home/user/project/src/d.ts' },
];
const PATCH =
  'diff --git a/home/user/project/src/a.ts b/home/user/project/src/a.ts\n--- a/home/user/project/src/a.ts\n+++ b/home/user/project/src/a.ts\n@@ -1 +1 @@\n-old\n+new\n';
GOLDEN.push(
  {
    name: 'tool_call diff (v1 {path, oldText, newText}) of an existing file',
    updates: [call({ content: [{ type: 'diff', path: '/home/user/project/main.py', oldText: 'print(1)\n', newText: 'print(2)\n' }] })],
    expect: (state) =>
      assert.deepEqual(toolCall(state).content, [
        {
          type: 'diff',
          files: [{ path: '/home/user/project/main.py', oldText: 'print(1)\n', newText: 'print(2)\n', operation: 'modify' }],
        },
      ]),
  },
  {
    name: 'tool_call diff (v1) with oldText null is a new file',
    updates: [call({ content: [{ type: 'diff', path: '/home/user/project/new.py', oldText: null, newText: 'x = 1\n' }] })],
    expect: (state) =>
      assert.deepEqual(toolCall(state).content, [
        { type: 'diff', files: [{ path: '/home/user/project/new.py', oldText: null, newText: 'x = 1\n', operation: 'add' }] },
      ]),
  },
  {
    name: 'tool_call_update diff (v2 {changes, patch: {format, text}}): every operation, and the patch text',
    updates: [
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'call_001',
        content: [{ type: 'diff', changes: v2Changes, patch: { format: 'git_patch', text: PATCH } }],
      },
    ],
    expect: (state) => assert.deepEqual(toolCall(state).content, [{ type: 'diff', files: v2Files, patch: PATCH }]),
  },
  {
    name: 'tool_call_update diff (v2) with patch missing or null: the changes only',
    updates: [
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'call_001',
        content: [
          { type: 'diff', changes: v2Changes.slice(0, 1) },
          { type: 'diff', changes: v2Changes.slice(1, 2), patch: null },
        ],
      },
    ],
    expect: (state) =>
      assert.deepEqual(toolCall(state).content, [
        { type: 'diff', files: v2Files.slice(0, 1) },
        { type: 'diff', files: v2Files.slice(1, 2) },
      ]),
  },
  {
    name: 'tool_call terminal {terminalId}: shown in the card and the terminal knows the card',
    updates: [call({ kind: 'execute', content: [{ type: 'terminal', terminalId: 'term_xyz789' }] })],
    expect: (state) => {
      assert.deepEqual(toolCall(state).content, [{ type: 'terminal', terminalId: 'term_xyz789' }]);
      assert.deepEqual(state.terminals['term_xyz789']?.toolCallIds, ['call_001']);
    },
  },
  {
    name: 'tool_call with every content type at once keeps them in order',
    updates: [
      call({
        content: [
          { type: 'content', content: { type: 'text', text: 'Editing' } },
          { type: 'diff', path: '/p/a.py', oldText: 'a', newText: 'b' },
          { type: 'terminal', terminalId: 'term_1' },
        ],
      }),
    ],
    expect: (state) =>
      assert.deepEqual(
        toolCall(state).content.map((c: ToolCallContent) => c.type),
        ['content', 'diff', 'terminal'],
      ),
  },
  {
    name: 'tool_call locations: path + line, path alone, line null',
    updates: [
      call({
        locations: [
          { path: '/home/user/project/main.py', line: 42 },
          { path: '/home/user/project/util.py' },
          { path: '/home/user/project/b.py', line: null },
        ],
      }),
    ],
    expect: (state) =>
      assert.deepEqual(toolCall(state).locations, [
        { path: '/home/user/project/main.py', line: 42 },
        { path: '/home/user/project/util.py' },
        { path: '/home/user/project/b.py' },
      ]),
  },
  {
    name: 'tool_call rawInput and rawOutput are kept; an update without them keeps them; a new rawOutput replaces',
    updates: [
      call({ rawInput: { command: 'pytest', args: ['-q', 'tests/'], env: { CI: '1' } }, rawOutput: 'collecting...' }),
      { sessionUpdate: 'tool_call_update', toolCallId: 'call_001', status: 'in_progress' },
    ],
    expect: (state) => {
      assert.deepEqual(
        [toolCall(state).rawInput, toolCall(state).rawOutput],
        [{ command: 'pytest', args: ['-q', 'tests/'], env: { CI: '1' } }, 'collecting...'],
      );
      const done = feed(
        [
          {
            sessionUpdate: 'tool_call_update',
            toolCallId: 'call_001',
            status: 'completed',
            rawOutput: { exitCode: 0, stdout: '3 passed' },
          },
        ],
        state,
      );
      assert.deepEqual(
        [toolCall(done).rawInput, toolCall(done).rawOutput],
        [
          { command: 'pytest', args: ['-q', 'tests/'], env: { CI: '1' } },
          { exitCode: 0, stdout: '3 passed' },
        ],
      );
    },
  },
  {
    name: 'tool_call title and every ToolKind land on the card',
    updates: ['read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other'].map((kind) => ({
      sessionUpdate: 'tool_call',
      toolCallId: `call_${kind}`,
      title: `A ${kind} call`,
      kind,
    })),
    expect: (state) =>
      assert.deepEqual(
        entriesOf(state).map((e) => e.kind === 'tool_call' && [e.title, e.toolKind]),
        ['read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other'].map((kind) => [
          `A ${kind} call`,
          kind,
        ]),
      ),
  },
  {
    name: 'tool_call_content_chunk (v2) appends a diff and a terminal to the existing content',
    updates: [
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'call_001',
        title: 'Run and edit',
        content: [{ type: 'content', content: { type: 'text', text: 'Working' } }],
      },
      {
        sessionUpdate: 'tool_call_content_chunk',
        toolCallId: 'call_001',
        content: { type: 'diff', changes: v2Changes.slice(0, 1), patch: { format: 'git_patch', text: PATCH } },
      },
      { sessionUpdate: 'tool_call_content_chunk', toolCallId: 'call_001', content: { type: 'terminal', terminalId: 'term_2' } },
    ],
    expect: (state) => {
      assert.deepEqual(toolCall(state).content, [
        { type: 'content', content: { type: 'text', text: 'Working' } },
        { type: 'diff', files: v2Files.slice(0, 1), patch: PATCH },
        { type: 'terminal', terminalId: 'term_2' },
      ]);
      assert.deepEqual(state.terminals['term_2']?.toolCallIds, ['call_001']);
    },
  },
  {
    name: 'tool_call_content_chunk for an unseen id creates the call with that content',
    updates: [
      {
        sessionUpdate: 'tool_call_content_chunk',
        toolCallId: 'call_new',
        content: { type: 'content', content: { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' } },
      },
    ],
    expect: (state) => {
      const entry = toolCall(state, 'call_new');
      assert.deepEqual(
        [entry.status, entry.content],
        ['pending', [{ type: 'content', content: { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' } }]],
      );
    },
  },
);
// ToolCallStatus: v1 pending, in_progress, completed, failed; v2 adds paused (see the gaps below) and cancelled.
for (const [from, status] of [
  ['in_progress', 'pending'],
  ['pending', 'in_progress'],
  ['in_progress', 'completed'],
  ['in_progress', 'failed'],
  ['in_progress', 'cancelled'],
] as const) {
  GOLDEN.push({
    name: `tool_call_update status ${status} (from ${from}) shows on the card, other fields unchanged`,
    updates: [
      call({ status: from, locations: [{ path: '/p/a.py', line: 1 }] }),
      { sessionUpdate: 'tool_call_update', toolCallId: 'call_001', status },
    ],
    expect: (state) => {
      const entry = toolCall(state);
      assert.deepEqual(
        [entry.status, entry.title, entry.toolKind, entry.locations],
        [status, 'Edit main.py', 'edit', [{ path: '/p/a.py', line: 1 }]],
      );
    },
  });
}

describe('golden: every session/update kind beyond the seeds, schema-shaped JSON through parser and reducer', () => {
  for (const row of GOLDEN) {
    it(row.name, () => {
      const start = (row.before ?? []).reduce(reduce, initialState());
      row.expect(feed(row.updates, start));
    });
  }
});

// ------------------------------------------------------------------------------------------------------------------
type Check = (update: SessionUpdate | undefined, problems: readonly string[], state: TranscriptState) => void;
interface MalformedRow {
  readonly name: string;
  readonly before?: readonly Raw[];
  readonly raw: Raw;
  readonly check: Check;
}

/** Applies `before` (clean) then `raw` (malformed): the parse result, its problems and the state it leads to. */
function applyMalformed(row: MalformedRow): { update: SessionUpdate | undefined; problems: readonly string[]; state: TranscriptState } {
  const start = feed(row.before ?? [], reduce(initialState(), TURN));
  const { update, problems } = parseSessionUpdate(row.raw);
  return { update, problems, state: update ? reduce(start, { type: 'session_update', update }) : start };
}
const dropped =
  (field: RegExp): Check =>
  (update, problems) => {
    assert.equal(update, undefined, 'the update is dropped');
    assert.ok(
      problems.some((p) => field.test(p)),
      `a problem names the reason: ${JSON.stringify(problems)}`,
    );
  };
const reported = (problems: readonly string[]): void => assert.ok(problems.length > 0, 'the malformed field is reported');

const MALFORMED: MalformedRow[] = [
  // messages
  {
    name: 'user_message_chunk without content is dropped',
    raw: { sessionUpdate: 'user_message_chunk', messageId: 'u9' },
    check: dropped(/content/),
  },
  {
    name: 'agent_thought_chunk with a content block missing its text is dropped',
    raw: { sessionUpdate: 'agent_thought_chunk', content: { type: 'text' } },
    check: dropped(/text/),
  },
  {
    name: 'agent_thought_chunk with a malformed messageId keeps the thought',
    raw: { sessionUpdate: 'agent_thought_chunk', messageId: 42, content: { type: 'text', text: 'still thinking' } },
    check: (_u, problems, state) => {
      reported(problems);
      const last = entriesOf(state).pop();
      assert.deepEqual(last?.kind === 'message' && [last.role, last.content], ['thought', [{ type: 'text', text: 'still thinking' }]]);
    },
  },
  {
    name: 'agent_thought without messageId is dropped',
    raw: { sessionUpdate: 'agent_thought', content: [{ type: 'text', text: 'x' }] },
    check: dropped(/messageId/),
  },
  {
    name: 'agent_thought with one bad block keeps the good ones',
    raw: {
      sessionUpdate: 'agent_thought',
      messageId: 'th1',
      content: [
        { type: 'image', data: 'AAAA' },
        { type: 'text', text: 'kept' },
      ],
    },
    check: (_u, problems, state) => {
      reported(problems);
      const last = entriesOf(state).pop();
      assert.deepEqual(last?.kind === 'message' && last.content, [{ type: 'text', text: 'kept' }]);
    },
  },
  {
    name: 'an image block with a malformed uri keeps the image',
    raw: { sessionUpdate: 'agent_message_chunk', content: { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png', uri: 17 } },
    check: (update) =>
      assert.deepEqual(update?.sessionUpdate === 'agent_message_chunk' && update.content, {
        type: 'image',
        data: 'iVBORw0KGgo=',
        mimeType: 'image/png',
      }),
  },
  {
    name: 'a resource_link with malformed title and size keeps the link',
    raw: {
      sessionUpdate: 'user_message_chunk',
      content: { type: 'resource_link', uri: 'file:///p/a.ts', name: 'a.ts', title: ['x'], size: 'big' },
    },
    check: (update) =>
      assert.deepEqual(update?.sessionUpdate === 'user_message_chunk' && update.content, {
        type: 'resource_link',
        uri: 'file:///p/a.ts',
        name: 'a.ts',
      }),
  },
  {
    name: 'an embedded resource without a uri is dropped',
    raw: { sessionUpdate: 'agent_message_chunk', content: { type: 'resource', resource: { text: 'orphan' } } },
    check: dropped(/resource/),
  },
  // session-level
  {
    name: 'available_commands_update: a command without a name is dropped; a malformed input loses only the hint',
    raw: {
      sessionUpdate: 'available_commands_update',
      availableCommands: [{ description: 'nameless' }, { name: 'web', description: 'Search', input: { hint: 5 } }],
    },
    check: (_u, problems, state) => {
      reported(problems);
      assert.deepEqual(state.commands, [{ name: 'web', description: 'Search' }]);
    },
  },
  {
    name: 'available_commands_update whose list is not an array is reported and leaves no commands',
    before: [{ sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'web', description: 'Search' }] }],
    raw: { sessionUpdate: 'available_commands_update', availableCommands: 'web' },
    check: (_u, problems, state) => {
      reported(problems);
      assert.deepEqual(state.commands, []);
    },
  },
  {
    name: 'current_mode_update without currentModeId is dropped',
    raw: { sessionUpdate: 'current_mode_update', modeId: 'code' },
    check: dropped(/currentModeId/),
  },
  {
    name: 'config_option_update: an option without an id is dropped, a malformed description or category loses only that',
    raw: {
      sessionUpdate: 'config_option_update',
      configOptions: [
        { name: 'No id', type: 'boolean', currentValue: true },
        { configId: 'verbose', name: 'Verbose', description: 7, category: { x: 1 }, type: 'boolean', currentValue: true },
        {
          id: 'model',
          name: 'Model',
          type: 'select',
          currentValue: 'a',
          options: [{ value: 'a', name: 'A', description: false }, { name: 'no value' }],
        },
      ],
    },
    check: (_u, problems, state) => {
      reported(problems);
      assert.deepEqual(state.configOptions, [
        { id: 'verbose', name: 'Verbose', type: 'boolean', currentValue: true, options: [] },
        { id: 'model', name: 'Model', type: 'select', currentValue: 'a', options: [{ value: 'a', name: 'A' }] },
      ]);
    },
  },
  {
    name: 'config_option_update: an option of an unknown (v2 "other") type is dropped with a problem, the rest kept',
    raw: {
      sessionUpdate: 'config_option_update',
      configOptions: [
        { configId: 'temp', name: 'Temperature', type: '_slider', currentValue: 0.3 },
        { configId: 'v', name: 'V', type: 'boolean', currentValue: false },
      ],
    },
    check: (_u, problems, state) => {
      assert.ok(problems.some((p) => /unsupported type "_slider"/.test(p)));
      assert.deepEqual(
        state.configOptions.map((o) => o.id),
        ['v'],
      );
    },
  },
  {
    name: 'session_info_update with a malformed title leaves the title',
    before: [{ sessionUpdate: 'session_info_update', title: 'Good title' }],
    raw: { sessionUpdate: 'session_info_update', title: 12, updatedAt: '2025-01-15T10:30:00Z' },
    check: (_u, problems, state) => {
      reported(problems);
      assert.equal(state.title, 'Good title');
    },
  },
  { name: 'usage_update without used is dropped', raw: { sessionUpdate: 'usage_update', size: 200000 }, check: dropped(/used/) },
  {
    name: 'usage_update with a negative size is dropped',
    raw: { sessionUpdate: 'usage_update', used: 1, size: -5 },
    check: dropped(/size/),
  },
  {
    name: 'usage_update with a malformed cost keeps the usage and the last good cost',
    before: [{ sessionUpdate: 'usage_update', used: 1, size: 10, cost: { amount: 0.5, currency: 'USD' } }],
    raw: { sessionUpdate: 'usage_update', used: 2, size: 10, cost: { amount: 'lots', currency: 'USD' } },
    check: (_u, problems, state) => {
      reported(problems);
      assert.deepEqual(state.usage, { used: 2, size: 10, cost: { amount: 0.5, currency: 'USD' } });
    },
  },
  { name: 'notice without a title is dropped', raw: { sessionUpdate: 'notice', severity: 'warning' }, check: dropped(/title/) },
  {
    name: 'notice with an empty title is dropped',
    raw: { sessionUpdate: 'notice', severity: 'warning', title: '' },
    check: dropped(/title/),
  },
  {
    name: 'notice with a malformed severity and description still shows its title, as info',
    raw: { sessionUpdate: 'notice', severity: 3, title: 'Heads up', description: { text: 'no' } },
    check: (_u, problems, state) => {
      reported(problems);
      assert.deepEqual(state.banner, { severity: 'info', title: 'Heads up', id: 1 });
    },
  },
  // plans
  {
    name: 'plan: an entry without content is dropped, the others kept; an unknown priority/status falls back',
    raw: {
      sessionUpdate: 'plan',
      entries: [
        { priority: 'high', status: 'pending' },
        { content: 'Kept', priority: 'urgent', status: 'blocked' },
      ],
    },
    check: (_u, problems, state) => {
      reported(problems);
      assert.deepEqual(
        plans(state).map((p) => p.body),
        [{ type: 'items', items: [{ content: 'Kept', priority: 'medium', status: 'pending' }] }],
      );
    },
  },
  {
    name: 'plan_update without a plan id is dropped',
    raw: { sessionUpdate: 'plan_update', plan: { type: 'items', entries: [] } },
    check: dropped(/plan id/),
  },
  { name: 'plan_update without a plan is dropped', raw: { sessionUpdate: 'plan_update' }, check: dropped(/typed plan/) },
  {
    name: 'plan_update of an unknown plan type is dropped',
    raw: { sessionUpdate: 'plan_update', plan: { type: '_kanban', planId: 'p' } },
    check: dropped(/unknown plan type/),
  },
  {
    name: 'plan_update items with one bad entry keeps the others',
    raw: {
      sessionUpdate: 'plan_update',
      plan: { type: 'items', planId: 'p', entries: [{ content: 'ok', priority: 'low', status: 'completed' }, 'junk'] },
    },
    check: (_u, problems, state) => {
      reported(problems);
      assert.deepEqual(
        plans(state).map((p) => p.body),
        [{ type: 'items', items: [{ content: 'ok', priority: 'low', status: 'completed' }] }],
      );
    },
  },
  {
    name: 'plan_removed without planId is dropped and the plan stays',
    before: [{ sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p', entries: [] } }],
    raw: { sessionUpdate: 'plan_removed' },
    check: (update, problems, state) => {
      dropped(/planId/)(update, problems, state);
      assert.deepEqual(
        plans(state).map((p) => p.planId),
        ['p'],
      );
    },
  },
  // compaction
  {
    name: 'compaction_update without compactionId is dropped',
    raw: { sessionUpdate: 'compaction_update', status: 'completed' },
    check: dropped(/compactionId/),
  },
  {
    name: 'compaction_update without status is dropped',
    raw: { sessionUpdate: 'compaction_update', compactionId: 'c' },
    check: dropped(/status/),
  },
  {
    name: 'compaction_update with a malformed error and one bad summary block keeps the rest',
    raw: {
      sessionUpdate: 'compaction_update',
      compactionId: 'c',
      status: 'completed',
      error: 500,
      summary: [{ type: 'text' }, { type: 'text', text: 'Summary' }],
    },
    check: (_u, problems, state) => {
      reported(problems);
      const entry = entriesOf(state).pop();
      assert.deepEqual(entry?.kind === 'compaction' && [entry.status, entry.summary, entry.error], [
        'completed',
        [{ type: 'text', text: 'Summary' }],
        undefined,
      ]);
    },
  },
  {
    name: 'compaction_summary_chunk without compactionId is dropped',
    raw: { sessionUpdate: 'compaction_summary_chunk', content: { type: 'text', text: 'x' } },
    check: dropped(/compactionId/),
  },
  {
    name: 'compaction_summary_chunk without content is dropped',
    raw: { sessionUpdate: 'compaction_summary_chunk', compactionId: 'c' },
    check: dropped(/content/),
  },
  // state_update
  {
    name: 'state_update without state is dropped and the turn keeps running',
    raw: { sessionUpdate: 'state_update', stopReason: 'end_turn' },
    check: dropped(/state/),
  },
  {
    name: 'state_update idle with a malformed stopReason still ends the turn, as not reported',
    raw: { sessionUpdate: 'state_update', state: 'idle', stopReason: { why: 'done' } },
    check: (_u, problems, state) => {
      reported(problems);
      const end = entriesOf(state).pop();
      assert.deepEqual(end?.kind === 'turn_end' && end.outcome, { type: 'stopped', stopReason: 'end_turn' });
      assert.equal(state.turn.phase, 'idle');
    },
  },
  {
    name: 'state_update idle error with a malformed error object still ends the turn as an error',
    raw: { sessionUpdate: 'state_update', state: 'idle', stopReason: 'error', error: 'boom' },
    check: (_u, problems, state) => {
      reported(problems);
      const end = entriesOf(state).pop();
      assert.equal(end?.kind === 'turn_end' && end.outcome.type, 'error');
    },
  },
  // tool calls
  {
    name: 'tool_call with a malformed line keeps the location; one without a path is dropped',
    raw: {
      sessionUpdate: 'tool_call',
      toolCallId: 'c1',
      title: 'Read',
      locations: [{ path: '/p/a.py', line: 'ten' }, { line: 3 }, { path: '/p/b.py', line: 2 }],
    },
    check: (_u, problems, state) => {
      reported(problems);
      assert.deepEqual(toolCall(state, 'c1').locations, [{ path: '/p/a.py' }, { path: '/p/b.py', line: 2 }]);
    },
  },
  {
    name: 'tool_call with content that is not an array keeps title, kind and status',
    raw: { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Read', kind: 'read', status: 'in_progress', content: { type: 'content' } },
    check: (_u, problems, state) => {
      reported(problems);
      const entry = toolCall(state, 'c1');
      assert.deepEqual([entry.title, entry.toolKind, entry.status, entry.content], ['Read', 'read', 'in_progress', []]);
    },
  },
  {
    name: 'tool_call content: a diff of neither shape, a terminal without id, an empty wrapper are dropped; the good item stays',
    raw: {
      sessionUpdate: 'tool_call',
      toolCallId: 'c1',
      title: 'Edit',
      content: [{ type: 'diff', path: '/p/a' }, { type: 'terminal' }, { type: 'content' }, { type: 'diff', path: '/p/b', newText: 'b' }],
    },
    check: (_u, problems, state) => {
      assert.equal(problems.length, 3, JSON.stringify(problems));
      assert.deepEqual(toolCall(state, 'c1').content, [
        { type: 'diff', files: [{ path: '/p/b', oldText: null, newText: 'b', operation: 'add' }] },
      ]);
    },
  },
  {
    name: 'a v2 diff with one change missing its path and a malformed patch keeps the other changes',
    raw: {
      sessionUpdate: 'tool_call_update',
      toolCallId: 'c1',
      content: [
        { type: 'diff', changes: [{ operation: 'modify' }, { operation: 'add', path: '/p/n.ts' }], patch: { format: 'git_patch' } },
      ],
    },
    check: (_u, problems, state) => {
      reported(problems);
      assert.deepEqual(toolCall(state, 'c1').content, [{ type: 'diff', files: [{ path: '/p/n.ts', operation: 'add' }] }]);
    },
  },
  {
    name: 'an unknown tool call content type (v2 "other") is kept as unknown',
    raw: { sessionUpdate: 'tool_call_update', toolCallId: 'c1', content: [{ type: '_preview', url: 'http://localhost:3000' }] },
    check: (_u, problems, state) => {
      assert.deepEqual(problems, []);
      assert.deepEqual(toolCall(state, 'c1').content, [
        { type: 'unknown', originalType: '_preview', raw: { type: '_preview', url: 'http://localhost:3000' } },
      ]);
    },
  },
  {
    name: 'tool_call_update with a malformed title and an unknown status applies its content',
    before: [{ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Run', status: 'in_progress' }],
    raw: {
      sessionUpdate: 'tool_call_update',
      toolCallId: 'c1',
      title: 99,
      status: 'exploded',
      content: [{ type: 'content', content: { type: 'text', text: 'out' } }],
    },
    check: (_u, problems, state) => {
      assert.equal(problems.length, 2, JSON.stringify(problems));
      const entry = toolCall(state, 'c1');
      assert.deepEqual(
        [entry.title, entry.status, entry.content],
        ['Run', 'in_progress', [{ type: 'content', content: { type: 'text', text: 'out' } }]],
      );
    },
  },
  {
    name: 'tool_call_update without toolCallId is dropped',
    raw: { sessionUpdate: 'tool_call_update', status: 'completed' },
    check: dropped(/toolCallId/),
  },
  {
    name: 'tool_call_content_chunk without toolCallId is dropped',
    raw: { sessionUpdate: 'tool_call_content_chunk', content: { type: 'terminal', terminalId: 't' } },
    check: dropped(/toolCallId/),
  },
  {
    name: 'tool_call_content_chunk with malformed content is dropped and the call is unchanged',
    before: [{ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Run' }],
    raw: { sessionUpdate: 'tool_call_content_chunk', toolCallId: 'c1', content: { type: 'terminal' } },
    check: (update, problems, state) => {
      dropped(/content/)(update, problems, state);
      assert.deepEqual(toolCall(state, 'c1').content, []);
    },
  },
  {
    name: 'tool_call_update status paused (v2) pauses the card, and it resumes',
    before: [{ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'in_progress' }],
    raw: { sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'paused', title: 'Waiting for input' },
    check: (_u, problems, state) => {
      assert.deepEqual(problems, []);
      assert.deepEqual([toolCall(state, 'c1').status, toolCall(state, 'c1').title], ['paused', 'Waiting for input']);
      const resumed = reduce(state, {
        type: 'session_update',
        update: { sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'in_progress' },
      });
      assert.equal(toolCall(resumed, 'c1').status, 'in_progress');
    },
  },
  {
    name: 'an unknown tool call status is shown as in progress (v2: treated as still running), and reported',
    before: [{ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'pending' }],
    raw: { sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: '_waiting_on_ci' },
    check: (_u, problems, state) => {
      assert.deepEqual(problems, ['unknown tool call status "_waiting_on_ci" shown as in progress']);
      assert.equal(toolCall(state, 'c1').status, 'in_progress');
    },
  },
];

describe('update kinds: malformed input keeps what is good', () => {
  for (const row of MALFORMED) {
    it(row.name, () => {
      const { update, problems, state } = applyMalformed(row);
      row.check(update, problems, state);
    });
  }
});

// ------------------------------------------------------------------------------------------------------------------
/**
 * The `sessionUpdate` kinds of the SessionUpdate definitions, copied from the ACP schemas of
 * @agentclientprotocol/sdk 2.4.0 (the project's ../shared/acp-schema: v1/schema.json, v1/schema.unstable.json,
 * v2/schema.json, v2/schema.unstable.json; `$defs.SessionUpdate.oneOf/anyOf[*].properties.sessionUpdate.const`).
 * Copied rather than read, so the tests run on a clean clone. Update when the schemas are.
 */
const V1_STABLE_KINDS = [
  'user_message_chunk',
  'agent_message_chunk',
  'agent_thought_chunk',
  'tool_call',
  'tool_call_update',
  'plan',
  'available_commands_update',
  'current_mode_update',
  'config_option_update',
  'session_info_update',
  'usage_update',
  'notice',
  'compaction_update',
  'compaction_summary_chunk',
];
const V2_STABLE_KINDS = [
  'user_message_chunk',
  'user_message',
  'agent_message_chunk',
  'agent_message',
  'agent_thought_chunk',
  'agent_thought',
  'state_update',
  'tool_call_content_chunk',
  'tool_call_update',
  'terminal_update',
  'terminal_output_chunk',
  'plan_update',
  'available_commands_update',
  'config_option_update',
  'session_info_update',
  'usage_update',
  'notice',
  'compaction_update',
  'compaction_summary_chunk',
];
/** What each unstable schema lists beyond its stable one. */
const SUBAGENT_KINDS = ['subagent_update', 'session_message', 'session_message_chunk'];
const SCHEMA_KINDS: Readonly<Record<string, readonly string[]>> = {
  'v1/schema.json': V1_STABLE_KINDS,
  'v1/schema.unstable.json': [...V1_STABLE_KINDS, 'plan_update', 'plan_removed', ...SUBAGENT_KINDS],
  'v2/schema.json': V2_STABLE_KINDS,
  'v2/schema.unstable.json': [...V2_STABLE_KINDS, 'plan_removed', ...SUBAGENT_KINDS],
};

/**
 * Kinds the schemas list that the client does not handle: the parser reports them as unknown (one problem, no
 * update) rather than guessing. The subagent kinds are unstable and gated by the `subagents` client capability,
 * which this client does not advertise.
 */
const KNOWN_GAPS: readonly string[] = SUBAGENT_KINDS;

/**
 * v2 agent-owned terminals: parsed here (patch semantics kept, output still base64), decoded by the host in
 * arrival order into terminal actions (test/unit/session/agent-terminals.test.ts, protocol-versions.test.ts).
 */
const TERMINAL_ROWS: readonly {
  readonly name: string;
  readonly raw: Record<string, unknown>;
  readonly parsed: AgentTerminalUpdate | undefined;
  readonly problems?: readonly string[];
}[] = [
  {
    name: 'terminal_update with every field',
    raw: {
      sessionUpdate: 'terminal_update',
      terminalId: 'term_1',
      command: 'npm test',
      cwd: '/home/user/project',
      output: { data: 'aGk=' },
      exitStatus: { exitCode: 1, signal: null },
      size: { columns: 80, rows: 24 },
      capabilities: { cancel: {} },
    },
    parsed: {
      kind: 'terminal_update',
      terminalId: 'term_1',
      command: 'npm test',
      output: 'aGk=',
      exitStatus: { exitCode: 1, signal: null },
      cancellable: true,
    },
  },
  {
    name: 'terminal_update with only the id changes nothing',
    raw: { sessionUpdate: 'terminal_update', terminalId: 'term_1' },
    parsed: { kind: 'terminal_update', terminalId: 'term_1' },
  },
  {
    name: 'terminal_update nulls clear: command, output, exit, capabilities',
    raw: { sessionUpdate: 'terminal_update', terminalId: 'term_1', command: null, output: null, exitStatus: null, capabilities: null },
    parsed: { kind: 'terminal_update', terminalId: 'term_1', command: null, output: null, exitStatus: null, cancellable: false },
  },
  {
    name: 'terminal_update exitStatus {} still marks the terminal exited',
    raw: { sessionUpdate: 'terminal_update', terminalId: 't', exitStatus: {} },
    parsed: { kind: 'terminal_update', terminalId: 't', exitStatus: { exitCode: null, signal: null } },
  },
  {
    name: 'terminal_update: a malformed field is dropped, the rest kept',
    raw: { sessionUpdate: 'terminal_update', terminalId: 't', command: 42, exitStatus: { exitCode: 0 } },
    parsed: { kind: 'terminal_update', terminalId: 't', exitStatus: { exitCode: 0, signal: null } },
    problems: ['dropped malformed "command": value: Invalid input: expected string, received number'],
  },
  {
    name: 'terminal_update without terminalId is dropped',
    raw: { sessionUpdate: 'terminal_update', command: 'x' },
    parsed: undefined,
    problems: ['terminal_update dropped: "terminalId" is missing or malformed'],
  },
  {
    name: 'terminal_output_chunk',
    raw: { sessionUpdate: 'terminal_output_chunk', terminalId: 'term_1', data: 'aGk=' },
    parsed: { kind: 'terminal_output_chunk', terminalId: 'term_1', data: 'aGk=' },
  },
  {
    name: 'terminal_output_chunk without data is dropped',
    raw: { sessionUpdate: 'terminal_output_chunk', terminalId: 'term_1' },
    parsed: undefined,
    problems: ['terminal_output_chunk dropped: "data" is missing or malformed'],
  },
];

describe('golden: null in a tool_call_update, v1 against v2', () => {
  const full = {
    sessionUpdate: 'tool_call',
    toolCallId: 'c1',
    title: 'Read a.ts',
    kind: 'read',
    status: 'in_progress',
    content: [{ type: 'content', content: { type: 'text', text: 'so far' } }],
    locations: [{ path: '/w/a.ts' }],
    rawInput: { path: '/w/a.ts' },
    rawOutput: { ok: true },
  };
  const nulls = {
    sessionUpdate: 'tool_call_update',
    toolCallId: 'c1',
    title: null,
    kind: null,
    status: null,
    content: null,
    locations: null,
    rawInput: null,
    rawOutput: null,
  };
  const after = (version: 1 | 2): ToolCallEntry => {
    let state = initialState();
    for (const raw of [full, nulls]) {
      const { update, problems } = parseSessionUpdate(raw, version);
      assert.deepEqual(problems, []);
      if (update) state = reduce(state, { type: 'session_update', update });
    }
    return toolCall(state, 'c1');
  };

  it('v2: null clears or resets each field, as the v2 schema defines (title unset, kind other, status pending, collections empty, raw gone)', () => {
    const call = after(2);
    assert.deepEqual(
      [call.title, call.toolKind, call.status, call.content, call.locations, 'rawInput' in call, 'rawOutput' in call],
      ['', 'other', 'pending', [], [], false, false],
    );
  });

  it('v1: null leaves each field as it was', () => {
    const call = after(1);
    assert.deepEqual(
      [call.title, call.toolKind, call.status, call.content.length, call.locations.length, call.rawInput, call.rawOutput],
      ['Read a.ts', 'read', 'in_progress', 1, 1, { path: '/w/a.ts' }, { ok: true }],
    );
  });
});

describe('golden: v2 agent-owned terminal updates', () => {
  for (const row of TERMINAL_ROWS) {
    it(row.name, () => {
      const { update, terminal, problems } = parseSessionUpdate(row.raw);
      assert.equal(update, undefined, 'never a transcript update: the host decodes it');
      assert.deepEqual(terminal, row.parsed);
      assert.deepEqual(problems, row.problems ?? []);
    });
  }
});

describe('golden: the tables cover every session/update kind of the schemas', () => {
  const kindOf = (raw: unknown): string | undefined => {
    const kind = typeof raw === 'object' && raw !== null ? (raw as { sessionUpdate?: unknown }).sessionUpdate : undefined;
    return typeof kind === 'string' ? kind : undefined;
  };
  const seedKinds = (examples as readonly { message: { method?: string; params?: { update?: unknown } } }[])
    .filter((e) => e.message.method === 'session/update')
    .map((e) => kindOf(e.message.params?.update));
  const tableKinds = GOLDEN.flatMap((row) => row.updates.map(kindOf));
  const covered = new Set([...seedKinds, ...tableKinds, ...TERMINAL_ROWS.map((row) => kindOf(row.raw))]);

  for (const [schema, kinds] of Object.entries(SCHEMA_KINDS)) {
    it(`every kind of ${schema} has a golden row (seed-golden or this file) or is a known gap`, () => {
      assert.deepEqual(
        kinds.filter((kind) => !covered.has(kind) && !KNOWN_GAPS.includes(kind)),
        [],
      );
    });
  }

  it('every known gap is still reported as an unknown kind (move it into the tables once it is handled)', () => {
    for (const kind of KNOWN_GAPS) {
      const { update, problems } = parseSessionUpdate({
        sessionUpdate: kind,
        terminalId: 'term_1',
        sessionId: 'sess_child',
        messageId: 'm1',
        data: 'aGk=',
      });
      assert.equal(update, undefined, kind);
      assert.deepEqual(problems, [`unknown session update kind "${kind}"`]);
    }
  });

  it('every kind the tables feed is one the schemas list, and none of them is a known gap', () => {
    const listed = new Set(Object.values(SCHEMA_KINDS).flat());
    assert.deepEqual(
      [...covered].filter((kind) => kind === undefined || !listed.has(kind) || KNOWN_GAPS.includes(kind)),
      [],
    );
  });
});
