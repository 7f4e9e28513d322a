/**
 * Where the editor's action question goes when the call names no conversation (the process's own token) or one
 * that is gone: the one conversation running a turn, else a refusal that says why and shows nothing.
 */
import * as assert from 'node:assert/strict';
import { PermissionBroker } from '../../../src/client/permission-broker';
import type { ActionQuestion } from '../../../src/editor-tools/action-ports';
import { editorActionAsker, type AskableEndpoint } from '../../../src/session/editor-action-asker';
import type { AgentAction } from '../../../src/session/agent-requests';
import type { TranscriptAction } from '../../../src/shared/actions';
import type { ToolCallEntry, TranscriptState } from '../../../src/shared/model';
import { initialState, reduce } from '../../../src/shared/reducer';
import { entriesOf, toolCallEntry } from '../../../src/shared/selectors';
import { ScriptedPermissionPrompt } from '../../support/host-harness';

class Endpoint implements AskableEndpoint {
  readonly actions: AgentAction[] = [];
  readonly prompt: ScriptedPermissionPrompt;
  readonly permissions: PermissionBroker;
  readonly files = { claimWrites: (): Promise<void> => Promise.resolve() };
  readonly sessionId: string | undefined;
  /** `opened` false: `session/new` has not answered yet. `answer`: the dialog's; 'never' leaves it open. */
  constructor(
    readonly editorCaller: string,
    readonly turnRunning: boolean,
    { opened = true, answer = 'allow' }: { opened?: boolean; answer?: string } = {},
  ) {
    this.sessionId = opened ? `session-${editorCaller}` : undefined;
    this.prompt = new ScriptedPermissionPrompt(answer === 'never' ? undefined : answer);
    this.permissions = new PermissionBroker(this.prompt);
  }
  onAction(action: AgentAction): void {
    this.actions.push(action);
  }
}

const question: ActionQuestion = {
  tool: 'rename_symbol',
  title: 'Rename to "b": 1 edit in 1 file',
  detail: 'a.ts (1 edit)',
  paths: ['/w/a.ts'],
  kind: 'edit',
};

describe('the editor action asker', () => {
  it('unnamed, with no turn running: refused, naming the agent; nothing shown', async () => {
    const endpoints = [new Endpoint('a', false), new Endpoint('b', false)];
    const verdict = await editorActionAsker('Claude', () => endpoints).ask(question, new AbortController().signal);
    assert.deepEqual(verdict, {
      allowed: false,
      reason: "Refused: rename_symbol needs the user's permission, and no turn of Claude is running to ask it in. Nothing was changed.",
    });
    assert.deepEqual(
      endpoints.flatMap((endpoint) => endpoint.actions),
      [],
    );
  });

  it('unnamed, with two turns running: refused (which one asked is unknown); nothing shown', async () => {
    const endpoints = [new Endpoint('a', true), new Endpoint('b', true)];
    const verdict = await editorActionAsker('Claude', () => endpoints).ask(question, new AbortController().signal);
    assert.equal(verdict.allowed, false);
    assert.match(verdict.allowed ? '' : verdict.reason, /^Refused: 2 conversations of Claude are running a turn/);
    assert.deepEqual(
      endpoints.flatMap((endpoint) => endpoint.actions),
      [],
    );
  });

  it('unnamed, with one turn running (and one still opening): asked there, on a card and in the dialog', async () => {
    const running = new Endpoint('a', true);
    const opening = new Endpoint('b', true, { opened: false });
    const verdict = await editorActionAsker('Claude', () => [opening, running]).ask(question, new AbortController().signal);
    assert.equal(verdict.allowed, true);
    assert.deepEqual(
      running.actions.map((action) => action.type),
      ['session_update', 'permission_requested', 'permission_resolved'],
    );
    assert.deepEqual(running.prompt.shown, [
      { agentName: 'Claude', toolTitle: question.title, paths: question.paths, options: running.prompt.shown[0]?.options },
    ]);
    assert.deepEqual(opening.actions, []);
  });

  it('named by a conversation no longer open: refused', async () => {
    const verdict = await editorActionAsker('Claude', () => [new Endpoint('a', true)]).ask(question, new AbortController().signal, 'gone');
    assert.deepEqual(verdict, {
      allowed: false,
      reason: 'Refused: the conversation that made this call is no longer open. Nothing was changed.',
    });
  });

  it('the agent withdrawing the call before it is answered: cancelled, refused', async () => {
    const silent = new Endpoint('a', true, { answer: 'never' });
    const withdraw = new AbortController();
    const verdict = editorActionAsker('Claude', () => [silent]).ask(question, withdraw.signal);
    withdraw.abort();
    const settled = await verdict;
    assert.equal(settled.allowed, false);
    assert.match(settled.allowed ? '' : settled.reason, /was cancelled/);
    assert.deepEqual(silent.actions.at(-1), { type: 'permission_resolved', requestId: 'editor-perm-1', outcome: 'cancelled' });
  });

  it('attack: the agent retitles the card asking for its run_task ("Read README.md" over "deploy-prod")', async () => {
    const endpoint = new Endpoint('a', true, { answer: 'never' });
    const asker = editorActionAsker('Claude', () => [endpoint]);
    const withdraw = new AbortController();
    const deploy: ActionQuestion = {
      tool: 'run_task',
      title: 'Run the task "deploy-prod"',
      detail: 'deploy-prod',
      paths: [],
      kind: 'execute',
    };
    const verdict = asker.ask(deploy, withdraw.signal);
    const turn: TranscriptAction = { type: 'prompt_sent', turnId: 't1', content: [{ type: 'text', text: 'go' }] };
    const asking = [turn, ...endpoint.actions].reduce(reduce, initialState());
    const card = editorCard(asking);
    // The old id was `editor-run_task-1`, the first the agent would try; now it cannot be guessed.
    assert.match(card.toolCallId, /^editor-run_task-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.equal(card.origin, 'editor');
    // Even an agent that somehow learnt the id changes nothing (the security review's forgery, as the host makes it).
    for (const toolCallId of ['editor-run_task-1', card.toolCallId]) {
      const forged = reduce(asking, {
        type: 'session_update',
        update: {
          sessionUpdate: 'tool_call_update',
          toolCallId,
          title: 'Read README.md',
          kind: 'read',
          content: [{ type: 'content', content: { type: 'text', text: 'Reading the README' } }],
        },
      });
      assert.equal(toolCallEntry(forged, card.toolCallId), card, `the card unchanged after an update naming ${toolCallId}`);
    }
    withdraw.abort();
    assert.equal((await verdict).allowed, false);
    const second = asker.ask(deploy, new AbortController().signal);
    const next = [turn, ...endpoint.actions].reduce(reduce, initialState());
    assert.notEqual(
      entriesOf(next)
        .filter((entry) => entry.kind === 'tool_call')
        .at(-1)?.key,
      card.key,
      'each question a card of its own, with a new id',
    );
    endpoint.permissions.cancelAll();
    await second;
  });
});

function editorCard(state: TranscriptState): ToolCallEntry {
  const card = entriesOf(state).find((entry): entry is ToolCallEntry => entry.kind === 'tool_call');
  assert.ok(card);
  return card;
}
