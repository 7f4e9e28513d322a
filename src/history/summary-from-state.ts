/** What the session index shows, taken from the transcript state as it is written (cheap: no full scan). */
import type { TranscriptState } from '../shared/model';
import { DROPPED_HISTORY_KEY } from '../shared/history-trim';
import type { SessionStatus, SessionSummary } from './format';

/** Enough to recognise a conversation in a list; the index stays small however long prompts are. */
export const FIRST_PROMPT_CHARS = 200;
/** How far into the transcript the first prompt is looked for (it is normally entry 0 or 1). */
const FIRST_PROMPT_SEARCH = 16;

/** `updatedAt` is the conversation's last activity (LastActivity), not the time of this write. */
export function summaryFromState(previous: SessionSummary, state: TranscriptState, updatedAt: number): SessionSummary {
  const agentName = state.agent.phase === 'none' ? previous.agentName : state.agent.agentName;
  const firstPrompt = previous.firstPrompt ?? firstPromptText(state);
  const title = state.title ?? previous.title;
  const agentSessionId = state.sessionId ?? previous.agentSessionId;
  return {
    ...previous,
    agentName,
    updatedAt,
    status: statusOf(state),
    ...(firstPrompt !== undefined ? { firstPrompt } : {}),
    ...(title !== undefined ? { title } : {}),
    ...(agentSessionId !== undefined ? { agentSessionId } : {}),
  };
}

function statusOf(state: TranscriptState): SessionStatus {
  return state.turn.phase === 'idle' ? 'idle' : 'running';
}

export function firstPromptText(state: TranscriptState): string | undefined {
  const firstPage = state.pages[0] ?? [];
  for (const entry of firstPage.slice(0, FIRST_PROMPT_SEARCH)) {
    if (entry.key === DROPPED_HISTORY_KEY) return undefined;
    if (entry.kind !== 'message' || entry.role !== 'user') continue;
    const text = entry.content
      .flatMap((block) => (block.type === 'text' ? [block.text] : []))
      .join(' ')
      .trim();
    if (text) return text.slice(0, FIRST_PROMPT_CHARS);
  }
  return undefined;
}
