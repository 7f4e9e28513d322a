/**
 * What a turn's tool calls said about files: the paths they named (their locations and diffs), used to tell which
 * conversation's agent changed a file when turns of several run at once, and the new texts their diffs reported.
 */
import type { TranscriptState } from '../shared/model';
import { entriesOf } from '../shared/selectors';

export function pathsNamedByTurn(state: TranscriptState, turnId: string): Set<string> {
  const paths = new Set<string>();
  for (const entry of entriesOf(state)) {
    if (entry.kind !== 'tool_call' || entry.turnId !== turnId) continue;
    for (const location of entry.locations) paths.add(location.path);
    for (const content of entry.content) if (content.type === 'diff') for (const file of content.files) paths.add(file.path);
  }
  return paths;
}

/** The new text each of the turn's tool calls reported for a file (its `diff` content), by path. */
export function reportedTexts(state: TranscriptState, turnId: string): Map<string, string | undefined> {
  const texts = new Map<string, string | undefined>();
  for (const entry of entriesOf(state)) {
    if (entry.kind !== 'tool_call' || entry.turnId !== turnId) continue;
    for (const content of entry.content) if (content.type === 'diff') for (const file of content.files) texts.set(file.path, file.newText);
  }
  return texts;
}
