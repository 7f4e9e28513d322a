/** Derived facts about the transcript. "Generating" and "awaiting permission" are derived, never stored. */
import { allEntries, entryAtPosition, positionOf } from './pages';
import type { Entry, EntryKey, ToolCallEntry, TranscriptState } from './model';

export { allEntries as entriesOf };

export function entryByKey(state: TranscriptState, key: EntryKey): Entry | undefined {
  const position = positionOf(state, key);
  return position === undefined ? undefined : entryAtPosition(state, position);
}

/** Every tool call entry's key: one spelling, used by the reducer and everything that looks a card up. */
export function toolKey(toolCallId: string): EntryKey {
  return `tool:${toolCallId}`;
}

export function toolCallEntry(state: TranscriptState, toolCallId: string): ToolCallEntry | undefined {
  const entry = entryByKey(state, toolKey(toolCallId));
  return entry?.kind === 'tool_call' ? entry : undefined;
}

/** The turn running or being cancelled, if any: prompts wait for it, and its entries belong to it. */
export function activeTurnId(state: TranscriptState): string | undefined {
  return state.turn.phase === 'idle' ? undefined : state.turn.turnId;
}
