/**
 * The host's copy of the transcript: applies actions with the shared reducer and tells subscribers (the
 * webview poster, context keys) about each applied action. The host is the source of truth.
 */
import type { TranscriptAction } from '../shared/actions';
import type { TranscriptState } from '../shared/model';
import { initialState, reduce } from '../shared/reducer';
import { ChunkBatch } from './chunk-batch';

export type TranscriptListener = (action: TranscriptAction, state: TranscriptState, previous: TranscriptState) => void;

export class TranscriptStore {
  private current: TranscriptState;
  private readonly listeners = new Set<TranscriptListener>();
  private readonly streamed = new ChunkBatch((action) => this.apply(action));

  /** `initial`: a transcript loaded from history, which this store continues. */
  constructor(initial: TranscriptState = initialState()) {
    this.current = initial;
  }

  /** Reading the state applies any chunks held by `dispatchStreamed` first: nobody sees the state without them. */
  get state(): TranscriptState {
    this.streamed.flush();
    return this.current;
  }

  dispatch(action: TranscriptAction): void {
    this.streamed.flush();
    this.apply(action);
  }

  /**
   * An action from the agent's stream: a text chunk may be held and merged with the chunks that follow it in the
   * same task (see ChunkBatch); any other action, a read of the state or a `dispatch` applies the held ones first.
   */
  dispatchStreamed(action: TranscriptAction): void {
    this.streamed.push(action);
  }

  subscribe(listener: TranscriptListener): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private apply(action: TranscriptAction): void {
    const previous = this.current;
    const next = reduce(previous, action);
    if (next === previous) return;
    this.current = next;
    for (const listener of this.listeners) listener(action, next, previous);
  }
}
