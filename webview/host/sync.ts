/**
 * Keeping the webview's copy of the transcript in step with the host: a snapshot replaces it, numbered actions
 * are reduced in order, numbers already applied are dropped, and a gap asks for a fresh snapshot (once: further
 * actions are ignored until it comes). Pure; the reducer is passed in.
 */
import type { TranscriptAction } from '../../src/shared/actions';
import type { TranscriptState } from '../../src/shared/model';

export type Reducer = (state: TranscriptState, action: TranscriptAction) => TranscriptState;

export interface SyncState {
  readonly state: TranscriptState | undefined;
  /** Sequence number of the last action reflected in `state`. */
  readonly seq: number;
  /** True before the first snapshot and after a gap, until a snapshot arrives. */
  readonly awaitingSnapshot: boolean;
}

export interface SyncStep {
  readonly sync: SyncState;
  /** Post `resync` to the host. */
  readonly resync: boolean;
}

export function initialSync(): SyncState {
  return { state: undefined, seq: 0, awaitingSnapshot: true };
}

export function applySnapshot(_sync: SyncState, seq: number, state: TranscriptState): SyncState {
  return { state, seq, awaitingSnapshot: false };
}

export function applyActions(sync: SyncState, firstSeq: number, actions: readonly TranscriptAction[], reduce: Reducer): SyncStep {
  if (sync.awaitingSnapshot || sync.state === undefined) return { sync, resync: false };
  if (firstSeq > sync.seq + 1) return { sync: { ...sync, awaitingSnapshot: true }, resync: true };
  let state = sync.state;
  let seq = sync.seq;
  actions.forEach((action, index) => {
    const actionSeq = firstSeq + index;
    if (actionSeq <= seq) return;
    state = reduce(state, action);
    seq = actionSeq;
  });
  return { sync: { state, seq, awaitingSnapshot: false }, resync: false };
}
