/**
 * Issue 29 with the real Claude Code ACP agent (offline, mock Messages API): a review comment on a line of the
 * agent's diff reaches the model in the next prompt with its file and lines; a conversation's changes reviewed as
 * one set, and undone all at once; Edit on a sent message restores the files and runs it again with only the
 * history before it.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AcpClientTestApi } from '../../src/api';
import type { ChangeSetEntry, Entry, TranscriptState } from '../../src/shared/model';
import { entriesOf } from '../../src/shared/selectors';
import { startMockAnthropic, type MockAnthropic } from '../fixtures/mock-anthropic/server';
import { claudeAgentBin, claudeAgentEnv } from '../support/claude-agent';
import { sleep, useAgent, waitFor, workspaceRoot } from './helpers';

const changeSet = (state: TranscriptState, turnId: string): ChangeSetEntry | undefined =>
  entriesOf(state).find((e): e is ChangeSetEntry => e.kind === 'changes' && e.turnId === turnId);

interface SentMessage {
  readonly role: string;
  readonly content: string | readonly { readonly type: string; readonly text?: string }[];
}

/** Every text the model got in a request's messages, by role (its system reminders included). */
function messagesOf(body: string): { role: string; text: string }[] {
  const parsed = JSON.parse(body) as { messages?: SentMessage[]; output_config?: unknown };
  return (parsed.messages ?? []).map((m) => ({
    role: m.role,
    text: typeof m.content === 'string' ? m.content : m.content.map((b) => b.text ?? '').join('\n'),
  }));
}

/** The agent's title generation asks for structured output; a turn does not. */
function isTitleRequest(body: string): boolean {
  const parsed = JSON.parse(body) as { output_config?: { format?: { type?: string } } };
  return parsed.output_config?.format?.type === 'json_schema';
}

describe('the review loop with a real agent: Claude Code', function () {
  this.timeout(600_000);
  let mock: MockAnthropic;
  let home: string | undefined;
  let client: AcpClientTestApi;
  const dir = (): string => path.join(workspaceRoot(), 'claude-review-loop');
  const file = (name: string): string => (path.isAbsolute(name) ? name : path.join(dir(), name));
  /** The user's own file, in the workspace from the start (the fixture), so the editor has known it all along. */
  const kept = (): string => path.join(workspaceRoot(), 'review-loop', 'kept.txt');
  const agentConfig = (): { command: string; args: string[]; env: Record<string, string> } => {
    const agentEnv = claudeAgentEnv(mock.url);
    home = agentEnv.home;
    return { command: process.execPath, args: [claudeAgentBin()], env: agentEnv.env };
  };
  const freshConversation = async (): Promise<void> => {
    client = await useAgent('Claude Code (mock API)', agentConfig(), 60_000);
  };

  /** One turn that writes `name` with `content`, the Write allowed in VS Code's quick pick; answers the turn id. */
  async function writeTurn(name: string, content: string): Promise<string> {
    assert.equal(client.transcript().turn.phase, 'idle');
    assert.deepEqual(await client.sendPrompt(`write ${file(name)} with ${content}`), { accepted: true });
    const running = client.transcript().turn;
    assert.ok(running.phase !== 'idle');
    const turnId = running.turnId;
    const asking = (s: TranscriptState): boolean =>
      entriesOf(s).some((e) => e.kind === 'tool_call' && e.turnId === turnId && e.status === 'awaiting_permission');
    await waitFor(client, asking, 120_000);
    await sleep(500);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await waitFor(client, (s) => s.turn.phase === 'idle' && changeSet(s, turnId) !== undefined, 150_000).catch((error: unknown) => {
      throw new Error(`no change set for ${turnId} (${name}): ${whatHappened(name)}; ${String(error).slice(0, 300)}`);
    });
    return turnId;
  }

  /** A failed turn's facts: change sets, tool calls, turn ends and notices, the file on disk, the mock's last requests. */
  function whatHappened(name: string): string {
    const facts = entriesOf(client.transcript()).flatMap((e) => {
      if (e.kind === 'changes') return [`changes ${e.turnId}: ${e.files.map((f) => path.basename(f.path)).join(',')}`];
      if (e.kind === 'tool_call') return [`tool ${e.toolCallId} ${e.turnId ?? '?'} ${e.status} ${e.title}`];
      if (e.kind === 'turn_end') return [`end ${e.turnId} ${JSON.stringify(e.outcome)}`];
      if (e.kind === 'notice') return [`notice ${e.title}: ${(e.detail ?? '').slice(0, 200)}`];
      return [];
    });
    const disk = existsSync(file(name)) ? JSON.stringify(readFileSync(file(name), 'utf8')) : 'absent';
    const last = mock.requests.slice(-3).map((r) => `${r.url} ${r.body.length}B`);
    return `${facts.join(' | ')}; on disk: ${disk}; mock's last requests: ${last.join(', ')}`;
  }

  /** The model's requests since `mark` that are turns (not the agent's title generation). */
  const turnRequests = (mark: number): string[] =>
    mock.requests
      .slice(mark)
      .filter((r) => r.url.startsWith('/v1/messages') && !r.url.includes('count_tokens') && !isTitleRequest(r.body))
      .map((r) => r.body);

  before(async () => {
    rmSync(dir(), { recursive: true, force: true });
    mkdirSync(dir(), { recursive: true });
    mock = await startMockAnthropic();
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await client?.stopAgents();
    await mock?.close();
    if (home) rmSync(home, { recursive: true, force: true });
    rmSync(dir(), { recursive: true, force: true });
    writeFileSync(kept(), 'the original\n');
  });

  it("a comment on a line of the agent's diff reaches the model in the next prompt, with its file and lines", async () => {
    await freshConversation();
    const turnId = await writeTurn('review.txt', 'alpha one\nalpha two\nalpha three');
    // The change card's file opens the diff editor; the agent's side is the file itself.
    client.postFromChat({ type: 'open_change', turnId, path: file('review.txt') });
    for (let i = 0; i < 160 && vscode.window.activeTextEditor?.document.uri.fsPath !== file('review.txt'); i++) await sleep(250);
    const editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document.uri.fsPath, file('review.txt'), "the agent's side of the diff is active");
    assert.ok(vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputTextDiff, 'in the diff editor');
    editor.selection = new vscode.Selection(1, 0, 1, 0);
    const thread = await vscode.commands.executeCommand<{ anchor: { startLine: number; endLine: number; lines: string[] } }>(
      'acpClient.addReviewComment',
      'Rename alpha two to beta',
    );
    assert.deepEqual(thread?.anchor, { startLine: 2, endLine: 2, lines: ['alpha two'] });

    const mark = mock.requests.length;
    // "Send to agent" on the chat's bar, with what is typed in the composer.
    client.postFromChat({ type: 'send_review_comments', text: 'Keep the rest as it is.', attachments: [] });
    await waitFor(client, (s) => s.turn.phase !== 'idle', 20_000);
    await waitFor(client, (s) => s.turn.phase === 'idle', 60_000);
    const sent = turnRequests(mark);
    assert.ok(
      sent.length > 0,
      `the model got the prompt: ${mock.requests
        .slice(mark)
        .map((r) => r.url)
        .join(', ')}`,
    );
    const lastUser = messagesOf(sent[0]!)
      .filter((m) => m.role === 'user')
      .pop()?.text;
    assert.ok(lastUser, 'a user message');
    assert.match(lastUser, /claude-review-loop\/review\.txt, line 2:\n```\nalpha two\n```\n> Rename alpha two to beta/);
    assert.match(lastUser, /Keep the rest as it is\./);
    // Sent threads are resolved: nothing is left to send.
    assert.equal(await vscode.commands.executeCommand('acpClient.sendReviewComments', ''), undefined);
    assert.equal(turnRequests(mark).length, sent.length, 'no second prompt');
  });

  it("the conversation review lists the union of three turns' files, and Undo of all restores them", async () => {
    await freshConversation();
    await writeTurn('one.txt', 'first');
    await writeTurn(kept(), 'rewritten by the agent');
    await writeTurn('three.txt', 'third');
    const cards = entriesOf(client.transcript()).flatMap((e) =>
      e.kind === 'changes' ? e.files.map((f) => `${path.basename(f.path)} ${f.change}${f.note ? ` (${f.note})` : ''}`) : [],
    );
    assert.ok(cards.includes('kept.txt modified'), `the user's file is modified, never created: ${cards.join('; ')}`);
    const count = await vscode.commands.executeCommand<number>('acpClient.reviewConversation');
    assert.equal(count, 3);
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label));
    assert.ok(
      tabs.some((label) => label.includes('Conversation changes (3 files)')),
      `the multi-file diff is open: ${tabs.join(', ')}`,
    );
    const undone = await vscode.commands.executeCommand<{ kind: string; paths: string[] }>('acpClient.undoConversationChanges');
    assert.equal(undone?.kind, 'applied');
    assert.deepEqual([...(undone?.paths ?? [])].sort(), [kept(), file('one.txt'), file('three.txt')].sort());
    assert.equal(existsSync(file('one.txt')), false);
    assert.equal(existsSync(file('three.txt')), false);
    assert.equal(readFileSync(kept(), 'utf8'), 'the original\n');
  });

  it('Edit on the second of three messages restores the files, and the next request holds only the first exchange', async () => {
    await freshConversation();
    const original = client.shownConversation();
    assert.ok(original);
    const first = await writeTurn('e1.txt', 'first edit');
    const second = await writeTurn('e2.txt', 'second edit');
    await writeTurn('e3.txt', 'third edit');
    const mark = mock.requests.length;
    const resent = vscode.commands.executeCommand<{ accepted: boolean }>('acpClient.resendEditedMessage', second, 'say hello instead');
    await sleep(1000);
    // The restore's preview: its first (safe) choice.
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    assert.equal((await resent)?.accepted, true, 'sent (queued while the new session starts)');
    assert.equal(readFileSync(file('e1.txt'), 'utf8'), 'first edit', 'the first turn stays');
    assert.equal(existsSync(file('e2.txt')), false, 'the edited message’s turn is rewound');
    assert.equal(existsSync(file('e3.txt')), false, 'and the one after it');
    const edited = client.shownConversation();
    assert.ok(edited && edited !== original, 'a new conversation');
    const isCarriedNotice = (e: Entry): boolean => e.kind === 'notice' && e.title === 'Continued from an edited message';
    await waitFor(client, (s) => entriesOf(s).some(isCarriedNotice), 5_000);
    const notice = entriesOf(client.transcript()).find(isCarriedNotice);
    assert.ok(notice?.kind === 'notice', 'the chat says how it continues');
    assert.match(notice.detail ?? '', /cannot fork a session at a message/);
    assert.match(notice.detail ?? '', /original conversation is unchanged in the Sessions view/);
    // The new conversation shows the first exchange (copied, its turn ended): wait for the edited message's own turn.
    await waitFor(client, (s) => s.turn.phase === 'idle' && entriesOf(s).some((e) => e.kind === 'turn_end' && e.turnId !== first), 120_000);
    const sent = turnRequests(mark);
    assert.ok(
      sent.length > 0,
      `the edited message reached the model: ${mock.requests
        .slice(mark)
        .map((r) => r.url)
        .join(', ')}`,
    );
    // The next request: a fresh session, so one user message and no earlier assistant turn; the first exchange is
    // carried as text in it, and nothing of the second exchange or after.
    const messages = messagesOf(sent[0]!);
    assert.deepEqual(
      messages.filter((m) => m.role !== 'system').map((m) => m.role),
      ['user'],
      'a fresh session: one prompt, no earlier turn of the agent',
    );
    const all = messages.map((m) => m.text).join('\n');
    assert.match(all, /say hello instead/);
    assert.match(all, new RegExp(`User: write ${file('e1.txt').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} with first edit`));
    assert.match(all, /Assistant: Mock Claude writes the file\./);
    assert.doesNotMatch(all, /e2\.txt|e3\.txt|second edit|third edit/, 'nothing of the second exchange or after');
    // The original branch stays, as its own conversation, with its three exchanges.
    const listed = client.conversations().find((c) => c.id === original);
    assert.ok(listed?.prompted, 'the original conversation stays listed in the Sessions view');
    const originalState = client.transcriptOf(original);
    assert.ok(originalState, 'the original is still loaded');
    const originalPrompts = entriesOf(originalState).filter((e) => e.kind === 'message' && e.role === 'user').length;
    assert.equal(originalPrompts, 3, 'the original keeps its three messages');
    assert.ok(
      client.conversations().some((c) => c.id === edited && c.prompted),
      'the edited branch is listed beside it',
    );
  });
});
