/**
 * The client's own cards (origin `editor`: the editor's actions asking permission, editor-action-asker.ts) take no
 * change from the agent: its Allow runs what the client put on the card. The agent's updates arrive as they would,
 * through the wire parser; the agent's cards with other ids behave as before.
 */
import * as assert from 'node:assert/strict';
import { parseSessionUpdate } from '../../../src/acp/schemas/session-update';
import type { TranscriptAction } from '../../../src/shared/actions';
import type { ToolCallEntry, TranscriptState } from '../../../src/shared/model';
import { initialState, reduce } from '../../../src/shared/reducer';
import { clientCardNamed } from '../../../src/shared/reducer-tools';
import { entriesOf, toolCallEntry } from '../../../src/shared/selectors';
import type { AttackCase } from '../../support/attack-case';

const run = (actions: readonly TranscriptAction[], from = initialState()): TranscriptState => actions.reduce(reduce, from);
const OPTIONS = [
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' as const },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' as const },
];
const CARD = 'editor-run_task-1';

/** What the agent sends, parsed as the connection parses it, as the action the host makes of it. */
function fromAgent(raw: Record<string, unknown>): TranscriptAction {
  const { update } = parseSessionUpdate(raw);
  assert.ok(update, `the wire parser accepts ${JSON.stringify(raw)}`);
  return { type: 'session_update', update };
}

/** The asker's card for run_task "deploy-prod", awaiting the user's answer. */
function asking(toolCallId = CARD): TranscriptState {
  return run([
    { type: 'prompt_sent', turnId: 't1', content: [{ type: 'text', text: 'go' }] },
    {
      type: 'session_update',
      origin: 'editor',
      update: {
        sessionUpdate: 'tool_call',
        toolCallId,
        title: 'Run the task "deploy-prod"',
        kind: 'execute',
        status: 'pending',
        content: [{ type: 'content', content: { type: 'text', text: 'The agent asks to run the VS Code task "deploy-prod".' } }],
      },
    },
    {
      type: 'permission_requested',
      requestId: 'editor-perm-1',
      toolCallId,
      toolCall: { title: 'Run the task "deploy-prod"' },
      options: OPTIONS,
      origin: 'editor',
    },
  ]);
}

function card(state: TranscriptState, toolCallId = CARD): ToolCallEntry {
  const entry = toolCallEntry(state, toolCallId);
  assert.ok(entry);
  return entry;
}

/** The forgery of the security review: the deploy card retitled as a harmless read. */
const retitle = {
  sessionUpdate: 'tool_call_update',
  toolCallId: CARD,
  title: 'Read README.md',
  kind: 'read',
  content: [{ type: 'content', content: { type: 'text', text: 'Reading the README' } }],
};

describe('reducer: the client’s own cards', () => {
  const attacks: readonly (AttackCase & { actions: () => readonly TranscriptAction[] })[] = [
    {
      attack: 'the agent retitles the editor’s run_task card as "Read README.md" while its Allow still runs deploy-prod',
      driven: 'reducer, the agent’s session/update tool_call_update naming the card’s id, through the wire parser',
      sees: 'the card unchanged: "Run the task "deploy-prod"", kind execute, its own text, Allow still on it',
      actions: () => [fromAgent(retitle)],
    },
    {
      attack: 'the agent replaces the editor’s card with a tool_call of the same id',
      driven: 'reducer, the agent’s session/update tool_call naming the card’s id, through the wire parser',
      sees: 'the card unchanged',
      actions: () => [fromAgent({ ...retitle, sessionUpdate: 'tool_call', status: 'completed' })],
    },
    {
      attack: 'the agent appends its own text to the editor’s card',
      driven: 'reducer, the agent’s tool_call_content_chunk naming the card’s id',
      sees: 'the card unchanged',
      actions: () => [
        fromAgent({
          sessionUpdate: 'tool_call_content_chunk',
          toolCallId: CARD,
          content: { type: 'content', content: { type: 'text', text: 'Safe: it only reads the README' } },
        }),
      ],
    },
    {
      attack: 'the agent claims the editor’s origin inside its update',
      driven: 'reducer, a tool_call_update naming the card with "origin": "editor" in the agent’s JSON',
      sees: 'the card unchanged: origin is the action’s, never the wire’s',
      actions: () => [fromAgent({ ...retitle, origin: 'editor' })],
    },
    {
      attack: 'the agent puts its own permission question on the editor’s card',
      driven: 'reducer, session/request_permission naming the card’s id (as agent-requests dispatches it)',
      sees: 'the card unchanged, the editor’s question still on it',
      actions: () => [
        {
          type: 'permission_requested',
          requestId: 'perm-1',
          toolCallId: CARD,
          toolCall: { title: 'Read README.md', kind: 'read' },
          options: OPTIONS,
        },
      ],
    },
  ];
  for (const row of attacks)
    it(`attack: ${row.attack}`, () => {
      const before = asking();
      const after = run(row.actions(), before);
      assert.equal(after, before, 'nothing changed at all');
      const shown = card(after);
      assert.equal(shown.title, 'Run the task "deploy-prod"');
      assert.equal(shown.toolKind, 'execute');
      assert.equal(shown.origin, 'editor');
      assert.equal(shown.permission?.requestId, 'editor-perm-1');
      assert.deepEqual(
        shown.content.map((item) => (item.type === 'content' && item.content.type === 'text' ? item.content.text : item.type)),
        ['The agent asks to run the VS Code task "deploy-prod".'],
      );
      for (const action of row.actions()) assert.equal(clientCardNamed(before, action), CARD, 'the host can log what was ignored');
    });

  it('attack: the agent’s elicitation naming the editor’s card shows on its own, not on the card', () => {
    const before = asking();
    const after = run(
      [
        {
          type: 'elicitation_requested',
          requestId: 'elicit-1',
          toolCallId: CARD,
          message: 'Confirm the README read',
          request: { mode: 'form', form: { fields: [], unsupported: [] } },
        },
      ],
      before,
    );
    assert.equal(card(after), card(before));
    assert.deepEqual(
      entriesOf(after).map((entry) => entry.kind),
      ['message', 'tool_call', 'elicitation'],
    );
  });

  it('the client’s own actions still change it: the answer, then what the action did', () => {
    const done = run(
      [
        { type: 'permission_resolved', requestId: 'editor-perm-1', outcome: { optionId: 'allow' } },
        {
          type: 'session_update',
          origin: 'editor',
          update: {
            sessionUpdate: 'tool_call_update',
            toolCallId: CARD,
            status: 'completed',
            content: [{ type: 'content', content: { type: 'text', text: 'The task ended with exit code 0.' } }],
          },
        },
      ],
      asking(),
    );
    const shown = card(done);
    assert.equal(shown.status, 'completed');
    assert.equal(shown.origin, 'editor');
    assert.deepEqual(shown.permissionOutcome, { optionId: 'allow', name: 'Allow' });
  });

  it('cancel still cancels it; the agent’s own calls with other ids work as before', () => {
    const state = run(
      [
        fromAgent({ ...retitle, toolCallId: 'agent-1', sessionUpdate: 'tool_call' }),
        fromAgent({ sessionUpdate: 'tool_call_update', toolCallId: 'agent-1', status: 'in_progress' }),
        { type: 'cancel_requested', turnId: 't1', at: 1 },
      ],
      asking(),
    );
    assert.equal(card(state).status, 'cancelled');
    const agents = card(state, 'agent-1');
    assert.equal(agents.title, 'Read README.md');
    assert.equal(agents.origin, undefined);
    assert.equal(agents.status, 'cancelled');
  });

  it('stored before origin existed: a card without it is the agent’s, as it always was', () => {
    const { origin: _dropped, ...older } = card(asking());
    const state = run([{ type: 'history_copied', entries: [older], terminals: {}, agentName: 'Scripted' }, fromAgent(retitle)]);
    assert.equal(card(state).title, 'Read README.md');
  });
});
