/**
 * Streamed chunks that arrive together reach the transcript store as one action. One read of an agent's output
 * holds hundreds of chunk lines, all handled in one task; reducing, recording and posting each of them cost the
 * host more than parsing them. A run of chunks that `canMergeChunks` joins is held until the task's work is done
 * (a microtask), until any other action comes, or until the owner flushes (the store does before anything reads
 * its state or dispatches past the batch). So the store applies the same text in the same order, in fewer
 * actions, and nothing ever sees a state without a chunk that arrived before it.
 */
import type { TranscriptAction } from '../shared/actions';
import { ChunkRun } from '../shared/coalesce';

export class ChunkBatch {
  private readonly run = new ChunkRun();
  private readonly flushSoon = (): void => this.flush();

  constructor(private readonly dispatch: (action: TranscriptAction) => void) {}

  push(action: TranscriptAction): void {
    if (this.run.extend(action)) return;
    this.flush();
    if (!this.run.start(action)) return this.dispatch(action);
    queueMicrotask(this.flushSoon);
  }

  /** Dispatches the held run now (before anything that reads the store's state or dispatches itself). */
  flush(): void {
    const run = this.run.take();
    if (run) this.dispatch(run);
  }
}
