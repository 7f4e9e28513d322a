/**
 * Steps the real-agent suites share: run a prompt turn to its end through the extension, answering each
 * permission request in VS Code's quick pick the way the test asks, and read what the chat shows.
 */
import * as vscode from 'vscode';
import type { AcpClientTestApi } from '../../src/api';
import type { Entry, ToolCallEntry, TranscriptState } from '../../src/shared/model';
import { entriesOf } from '../../src/shared/selectors';
import { sleep, textOf, turnEnded, waitFor } from './helpers';

export type PermissionAnswer = 'allow' | 'reject';

export interface FinishedTurn {
  /** The turn's id, which its change set (the files it changed) is keyed by. */
  turnId: string;
  /** Entries the turn added to the transcript (the user's message, the agent's, tool calls, the turn end). */
  entries: Entry[];
  toolCalls: ToolCallEntry[];
  agentText: string;
  stop: unknown;
  /** The options each permission request of the turn offered, and the one the test chose. */
  permissions: { offered: string[]; chosen: string }[];
  ms: number;
}

const awaitingPermission = (state: TranscriptState, answered: ReadonlySet<string>): ToolCallEntry | undefined =>
  entriesOf(state).find(
    (entry): entry is ToolCallEntry =>
      entry.kind === 'tool_call' && entry.permission !== undefined && !answered.has(entry.permission.requestId),
  );

/** Picks the quick pick's item at `index`: the dialog lists the agent's options in the agent's order. */
async function pickQuickPickItem(index: number): Promise<void> {
  await sleep(400);
  for (let step = 0; step < index; step++) await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
  await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
}

function optionIndex(card: ToolCallEntry, answer: PermissionAnswer): number {
  const options = card.permission?.options ?? [];
  // "Allow once" rather than "always": an always-answer can change the agent's mode for the rest of the suite.
  const preference = answer === 'allow' ? ['allow_once', 'allow_always'] : ['reject_once', 'reject_always'];
  for (const kind of preference) {
    const index = options.findIndex((option) => option.kind === kind);
    if (index >= 0) return index;
  }
  throw new Error(`no ${answer} option among ${JSON.stringify(options)}`);
}

export async function runTurn(
  client: AcpClientTestApi,
  prompt: string,
  answer: PermissionAnswer = 'allow',
  timeoutMs = 60_000,
): Promise<FinishedTurn> {
  const before = entriesOf(client.transcript()).length;
  const started = Date.now();
  const answered = new Set<string>();
  const permissions: FinishedTurn['permissions'] = [];
  const verdict = await client.sendPrompt(prompt);
  if (!verdict.accepted) throw new Error(`prompt refused: ${JSON.stringify(verdict)}`);
  const running = client.transcript().turn;
  if (running.phase === 'idle') throw new Error('the prompt was accepted but no turn runs');
  const { turnId } = running;
  for (;;) {
    const state = await waitFor(client, (s) => turnEnded(s) || awaitingPermission(s, answered) !== undefined, timeoutMs);
    const card = awaitingPermission(state, answered);
    if (!card?.permission) break;
    answered.add(card.permission.requestId);
    const index = optionIndex(card, answer);
    permissions.push({ offered: card.permission.options.map((option) => option.kind), chosen: card.permission.options[index]?.kind ?? '' });
    await pickQuickPickItem(index);
  }
  const ms = Date.now() - started;
  const entries = entriesOf(client.transcript()).slice(before);
  const end = entries.filter((entry) => entry.kind === 'turn_end').pop();
  return {
    turnId,
    entries,
    toolCalls: entries.filter((entry): entry is ToolCallEntry => entry.kind === 'tool_call'),
    agentText: entries
      .filter((entry) => entry.kind === 'message' && entry.role === 'agent')
      .map(textOf)
      .join('\n'),
    stop: end?.kind === 'turn_end' ? end.outcome : undefined,
    permissions,
    ms,
  };
}

export const agentTextSoFar = (state: TranscriptState): string =>
  entriesOf(state)
    .filter((entry) => entry.kind === 'message' && entry.role === 'agent')
    .map(textOf)
    .join('\n');
