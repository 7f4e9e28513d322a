/**
 * Turns: a prompt starts one, its answer (or a v2 `state_update idle`) ends it with a stop reason, an error ends
 * it as failed. A finished turn clears only its own id, so a late answer never ends a newer turn. Cancel marks
 * every non-finished tool call of the turn cancelled at once and drops pending permission buttons; updates that
 * arrive afterwards are still applied.
 */
import type { ContentBlock } from './content';
import type { TranscriptState, TurnEndEntry } from './model';
import { appendEntry, entryAtPosition, positionOf, replaceEntry } from './pages';
import { isFinished } from './reducer-tools';

export function userPromptKey(turnId: string): string {
  return `msg:user:prompt-${turnId}`;
}

export function startTurn(state: TranscriptState, turnId: string, content: readonly ContentBlock[]): TranscriptState {
  const { turnToolCalls: _previousTurnsCalls, ...rest } = state;
  const running: TranscriptState = { ...rest, turn: { phase: 'running', turnId } };
  if (positionOf(state, userPromptKey(turnId)) !== undefined) return running;
  return appendEntry(running, { kind: 'message', key: userPromptKey(turnId), role: 'user', content, turnId });
}

/** A message the user steered into the running turn: their words, where the turn has got to. */
export function steerTurn(state: TranscriptState, turnId: string, steerId: string, content: readonly ContentBlock[]): TranscriptState {
  const key = `steer:${turnId}:${steerId}`;
  if (positionOf(state, key) !== undefined) return state;
  return appendEntry(state, { kind: 'message', key, role: 'user', content, turnId });
}

export function endTurn(state: TranscriptState, turnId: string, outcome: TurnEndEntry['outcome']): TranscriptState {
  const key = `end:${turnId}`;
  let next = state;
  if (positionOf(state, key) === undefined) next = appendEntry(state, { kind: 'turn_end', key, turnId, outcome });
  if (next.turn.phase !== 'idle' && next.turn.turnId === turnId) next = { ...next, turn: { phase: 'idle' } };
  return next;
}

export function cancelTurn(state: TranscriptState, turnId: string, at: number): TranscriptState {
  if (state.turn.phase !== 'running' || state.turn.turnId !== turnId) return state;
  let next: TranscriptState = { ...state, turn: { phase: 'cancelling', turnId, since: at } };
  const start = positionOf(state, userPromptKey(turnId)) ?? 0;
  for (let position = start; position < state.entryCount; position++) {
    const entry = entryAtPosition(next, position);
    if (entry?.kind !== 'tool_call' || entry.turnId !== turnId) continue;
    if (isFinished(entry.status) && !entry.permission) continue;
    const { permission, ...rest } = entry;
    next = replaceEntry(next, position, {
      ...rest,
      status: isFinished(entry.status) ? entry.status : 'cancelled',
      ...(permission ? { permissionOutcome: 'cancelled' as const } : {}),
    });
  }
  return next;
}
