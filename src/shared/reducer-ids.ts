/** Deterministic ids from state, so host and webview generate the same keys for the same actions. */
import type { TranscriptState } from './model';

export function takeLocalId(state: TranscriptState, prefix: string): [string, TranscriptState] {
  return [`${prefix}${state.nextLocalId}`, { ...state, nextLocalId: state.nextLocalId + 1 }];
}
