/**
 * The host's copy of the transcript: applies actions with the shared reducer and tells subscribers (the
 * webview poster, context keys) about each applied action. The host is the source of truth.
 */
import type { TranscriptAction } from '../shared/actions';
import type { TranscriptState } from '../shared/model';
import { initialState, reduce } from '../shared/reducer';

export type TranscriptListener = (action: TranscriptAction, state: TranscriptState, previous: TranscriptState) => void;

export class TranscriptStore {
  private current: TranscriptState;
  private readonly listeners = new Set<TranscriptListener>();

  /** `initial`: a transcript loaded from history, which this store continues. */
  constructor(initial: TranscriptState = initialState()) {
    this.current = initial;
  }

  get state(): TranscriptState {
    return this.current;
  }

  dispatch(action: TranscriptAction): void {
    const previous = this.current;
    const next = reduce(previous, action);
    if (next === previous) return;
    this.current = next;
    for (const listener of this.listeners) listener(action, next, previous);
  }

  subscribe(listener: TranscriptListener): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }
}
