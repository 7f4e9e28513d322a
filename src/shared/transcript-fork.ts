/**
 * "Restore and fork": a new conversation whose transcript is an earlier one up to (not including) one of the user's
 * messages. Pure: the host computes the history, and one action (`history_copied`) puts it in the new store, so the
 * history log records it like anything else and it survives a reload.
 */
import type { TranscriptAction } from './actions';
import type { ContentBlock } from './content';
import type { Entry, TerminalRecord, TranscriptState } from './model';
import { fromEntries } from './pages';

type HistoryCopied = Extract<TranscriptAction, { type: 'history_copied' }>;

/** The user message that started turn `turnId`, if the transcript holds it. */
export function userMessageOf(state: TranscriptState, turnId: string): (Entry & { kind: 'message' }) | undefined {
  return state.pages.flat().find((e): e is Entry & { kind: 'message' } => e.kind === 'message' && e.role === 'user' && e.turnId === turnId);
}

/** The entries before the user message of `turnId` and the terminals they show; undefined without that message. */
export function historyBefore(
  state: TranscriptState,
  turnId: string,
): { readonly entries: readonly Entry[]; readonly terminals: Readonly<Record<string, TerminalRecord>> } | undefined {
  const entries = state.pages.flat();
  const at = entries.findIndex((e) => e.kind === 'message' && e.role === 'user' && e.turnId === turnId);
  if (at < 0) return undefined;
  const kept = entries.slice(0, at);
  const shown = new Set(
    kept.flatMap((e) => (e.kind === 'tool_call' ? e.content.flatMap((c) => (c.type === 'terminal' ? [c.terminalId] : [])) : [])),
  );
  const terminals = Object.fromEntries(Object.entries(state.terminals).filter(([id]) => shown.has(id)));
  return { entries: kept, terminals };
}

/** The text of a user message, for the composer's draft (attachments are not carried over). */
export function messageText(content: readonly ContentBlock[]): string {
  return content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
}

/** The reducer's part: the copied history, continuing the agent's forked session, its agent not running yet. */
export function applyHistoryCopied(state: TranscriptState, action: HistoryCopied): TranscriptState {
  const next = fromEntries(state, action.entries);
  return {
    ...next,
    terminals: action.terminals,
    sessionId: action.sessionId,
    agent: { phase: 'stopped', agentName: action.agentName },
  };
}
