/**
 * The transcript of the conversation on screen, as one store-like object that follows switches: context keys,
 * the palette's pickers and the test API read "the chat" without tracking which conversation that is.
 */
import type { TranscriptState } from '../shared/model';
import { initialState } from '../shared/reducer';
import type { TranscriptListener } from '../session/transcript-store';
import type { Conversations } from './conversations';

export class ShownTranscript {
  private readonly listeners = new Set<TranscriptListener>();
  private readonly switchListeners = new Set<(state: TranscriptState) => void>();
  private storeSubscription: { dispose(): void } | undefined;
  private readonly switchSubscription: { dispose(): void };
  private readonly empty = initialState();

  constructor(private readonly conversations: Conversations) {
    this.follow();
    this.switchSubscription = conversations.onDidSwitch(() => {
      this.follow();
      for (const listener of [...this.switchListeners]) listener(this.state);
    });
  }

  get state(): TranscriptState {
    return this.conversations.shown?.store.state ?? this.empty;
  }

  /** Actions of whichever conversation is shown. */
  subscribe(listener: TranscriptListener): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Another conversation is shown: `state` is its transcript. */
  onDidSwitch(listener: (state: TranscriptState) => void): { dispose(): void } {
    this.switchListeners.add(listener);
    return { dispose: () => this.switchListeners.delete(listener) };
  }

  dispose(): void {
    this.storeSubscription?.dispose();
    this.switchSubscription.dispose();
    this.listeners.clear();
    this.switchListeners.clear();
  }

  private follow(): void {
    this.storeSubscription?.dispose();
    this.storeSubscription = this.conversations.shown?.store.subscribe((action, state, previous) => {
      for (const listener of [...this.listeners]) listener(action, state, previous);
    });
  }
}
