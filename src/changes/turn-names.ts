/**
 * The paths a turn's tool calls named (their locations and diffs): what the agent said it was working on, used to
 * tell which conversation's agent changed a file when turns of several run at once.
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
