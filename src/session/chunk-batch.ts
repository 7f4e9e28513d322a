/**
 * Streamed chunks that arrive together reach the transcript store as one action. One read of an agent's output
 * holds hundreds of chunk lines, all handled in one task; reducing, recording and posting each of them cost the
 * host more than parsing them. A run of chunks that `canMergeChunks` joins is held until the task's work is done
 * (a microtask), until any other action comes, or until the owner flushes (the store does before anything reads
 * its state or dispatches past the batch). So the store applies the same text in the same order, in fewer
 * actions, and nothing ever sees a state without a chunk that arrived before it.
 */
import type { TranscriptAction } from '../shared/actions';
import { canMergeChunks, chunkText, withChunkText } from '../shared/coalesce';

export class ChunkBatch {
  private first: TranscriptAction | undefined;
  private texts: string[] = [];
  private readonly flushSoon = (): void => this.flush();

  constructor(private readonly dispatch: (action: TranscriptAction) => void) {}

  push(action: TranscriptAction): void {
    const text = chunkText(action);
    if (text !== undefined && this.first && canMergeChunks(this.first, action)) {
      this.texts.push(text);
      return;
    }
    this.flush();
    if (text === undefined) return this.dispatch(action);
    this.first = action;
    this.texts = [text];
    queueMicrotask(this.flushSoon);
  }

  /** Dispatches the held run now (before anything that reads the store's state or dispatches itself). */
  flush(): void {
    const first = this.first;
    if (!first) return;
    const texts = this.texts;
    this.first = undefined;
    this.texts = [];
    this.dispatch(texts.length > 1 ? withChunkText(first, texts.join('')) : first);
  }
}
