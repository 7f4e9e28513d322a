/**
 * The session's disk work, one operation at a time in order: appends to a log generation and compactions. Kept
 * as a list (not a bare promise chain) so the shutdown flush can see what has not reached the disk yet.
 */
export type WriteOperation =
  | { readonly kind: 'append'; readonly generation: number; readonly text: string }
  | { readonly kind: 'compact'; readonly run: () => Promise<void> };

export class WriteQueue {
  private readonly waiting: WriteOperation[] = [];
  private running: WriteOperation | undefined;
  private idle: Promise<void> = Promise.resolve();
  private wakeIdle: (() => void) | undefined;

  constructor(
    private readonly append: (generation: number, text: string) => Promise<void>,
    private readonly onError: (error: unknown) => void,
  ) {}

  push(operation: WriteOperation): void {
    this.waiting.push(operation);
    if (!this.running) {
      this.idle = new Promise((resolve) => (this.wakeIdle = resolve));
      void this.drain();
    }
  }

  /** Resolves once every operation pushed so far (and since) has finished. */
  whenIdle(): Promise<void> {
    return this.idle;
  }

  /** Appends not on disk yet, in order (the running one included: it may be cut short by an exit). Stops the rest. */
  takeUnwritten(): string[] {
    const pending = [this.running, ...this.waiting.splice(0)];
    return pending.flatMap((operation) => (operation?.kind === 'append' ? [operation.text] : []));
  }

  private async drain(): Promise<void> {
    for (let next = this.waiting.shift(); next; next = this.waiting.shift()) {
      this.running = next;
      try {
        if (next.kind === 'append') await this.append(next.generation, next.text);
        else await next.run();
      } catch (error) {
        this.onError(error);
      }
    }
    this.running = undefined;
    this.wakeIdle?.();
  }
}
