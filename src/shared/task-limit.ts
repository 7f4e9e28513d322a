/**
 * Runs at most a fixed number of async tasks at once; the rest wait and start in the order they came (FIFO), each as
 * soon as an earlier one settles, whether it resolved or threw. It bounds what the tasks hold together (memory,
 * descriptors) when the number of callers is not ours to choose, as with requests an agent sends.
 */
export class TaskLimit {
  private running = 0;
  /** Each waiting task's start. A Set keeps insertion order and removes its first entry in O(1), unlike Array.shift. */
  private readonly waiting = new Set<() => void>();

  constructor(private readonly most: number) {
    if (!Number.isInteger(most) || most < 1) throw new RangeError(`TaskLimit needs a whole number of at least 1, not ${most}`);
  }

  /** `task`'s outcome, once a turn is free; the turn is given back however it ends. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.turn();
    try {
      return await task();
    } finally {
      this.giveBack();
    }
  }

  private turn(): Promise<void> {
    if (this.running < this.most) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((start) => this.waiting.add(start));
  }

  /** The turn passes straight to the first waiting task, so none that arrives later can take it first. */
  private giveBack(): void {
    const next = this.waiting.values().next();
    if (next.done) {
      this.running--;
      return;
    }
    this.waiting.delete(next.value);
    next.value();
  }
}
