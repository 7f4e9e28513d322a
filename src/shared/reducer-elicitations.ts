/**
 * Elicitations in the transcript: on the tool call's card when the request names a tool call the transcript
 * shows (a card is never invented for one) and the agent owns, otherwise an entry of its own. An answer is final:
 * once resolved, only a URL elicitation's later `completed` changes it, so nothing can answer twice.
 */
import type { ElicitationEntry, ElicitationOutcome, ElicitationRequest, ElicitationView } from './elicitation-model';
import type { TranscriptState } from './model';
import { appendEntry, entryAtPosition, positionOf, replaceEntry } from './pages';
import { activeTurnId, toolKey } from './selectors';

export const elicitationKey = (requestId: string): string => `elicitation:${requestId}`;

export function requestElicitation(
  state: TranscriptState,
  requestId: string,
  toolCallId: string | undefined,
  message: string,
  request: ElicitationRequest,
): TranscriptState {
  const elicitation: ElicitationView = { requestId, message, request };
  const cardPosition = toolCallId === undefined ? undefined : positionOf(state, toolKey(toolCallId));
  const card = cardPosition === undefined ? undefined : entryAtPosition(state, cardPosition);
  // Not on a card of the client's own (see ToolCallOrigin): the agent's question would sit beside the client's Allow.
  if (cardPosition !== undefined && card?.kind === 'tool_call' && card.origin === undefined)
    return replaceEntry(state, cardPosition, { ...card, elicitation });
  if (positionOf(state, elicitationKey(requestId)) !== undefined) return state;
  const turnId = activeTurnId(state);
  const entry: ElicitationEntry = { kind: 'elicitation', key: elicitationKey(requestId), ...(turnId ? { turnId } : {}), elicitation };
  return appendEntry(state, entry);
}

export function resolveElicitation(state: TranscriptState, requestId: string, outcome: ElicitationOutcome): TranscriptState {
  const own = positionOf(state, elicitationKey(requestId));
  if (own !== undefined) return settleAt(state, own, outcome);
  // Pending elicitations are few and recent: search the cards from the end.
  for (let position = state.entryCount - 1; position >= 0; position--) {
    const entry = entryAtPosition(state, position);
    if (entry?.kind === 'tool_call' && entry.elicitation?.requestId === requestId) return settleAt(state, position, outcome);
  }
  return state;
}

function settleAt(state: TranscriptState, position: number, outcome: ElicitationOutcome): TranscriptState {
  const entry = entryAtPosition(state, position);
  const settled = (view: ElicitationView | undefined): ElicitationView | undefined =>
    view && canBecome(view, outcome) ? { ...view, outcome } : undefined;
  if (entry?.kind === 'tool_call') {
    const elicitation = settled(entry.elicitation);
    return elicitation ? replaceEntry(state, position, { ...entry, elicitation }) : state;
  }
  if (entry?.kind === 'elicitation') {
    const elicitation = settled(entry.elicitation);
    return elicitation ? replaceEntry(state, position, { ...entry, elicitation }) : state;
  }
  return state;
}

function canBecome(view: ElicitationView, outcome: ElicitationOutcome): boolean {
  if (view.outcome === undefined) return true;
  return view.request.mode === 'url' && view.outcome === 'accepted' && outcome === 'completed';
}
