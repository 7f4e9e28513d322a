/** Derived facts about the transcript. "Generating" and "awaiting permission" are derived here, never stored. */
import { allEntries, entryAtPosition, positionOf } from './pages';
import type { Entry, EntryKey, ToolCallEntry, TranscriptState } from './model';

export { allEntries as entriesOf };

export function entryAt(state: TranscriptState, index: number): Entry | undefined {
  return entryAtPosition(state, index);
}

export function entryByKey(state: TranscriptState, key: EntryKey): Entry | undefined {
  const position = positionOf(state, key);
  return position === undefined ? undefined : entryAtPosition(state, position);
}

export function isGenerating(state: TranscriptState): boolean {
  return state.turn.phase !== 'idle';
}

export function pendingPermissions(state: TranscriptState): ToolCallEntry[] {
  return allEntries(state).filter((entry): entry is ToolCallEntry => entry.kind === 'tool_call' && entry.permission !== undefined);
}

export function isAwaitingPermission(state: TranscriptState): boolean {
  return state.turn.phase === 'running' && pendingPermissions(state).length > 0;
}
