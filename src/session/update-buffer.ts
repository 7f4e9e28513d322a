/**
 * Some agents send `session/update` for a session before answering `session/new` (available commands, usage).
 * Those updates are kept here, bounded in count and age, and replayed once the session id is known.
 */
export class EarlyUpdateBuffer<T> {
  private items: { sessionId: string; update: T; at: number }[] = [];

  constructor(
    private readonly maxItems = 1000,
    private readonly maxAgeMs = 30_000,
  ) {}

  hold(sessionId: string, update: T, now: number): void {
    this.items.push({ sessionId, update, at: now });
    if (this.items.length > this.maxItems) this.items.shift();
  }

  /** Removes and returns the updates held for the session, oldest first, within the age limit. */
  release(sessionId: string, now: number): T[] {
    const released = this.items.filter((item) => item.sessionId === sessionId && now - item.at <= this.maxAgeMs);
    this.items = this.items.filter((item) => item.sessionId !== sessionId && now - item.at <= this.maxAgeMs);
    return released.map((item) => item.update);
  }

  clear(): void {
    this.items = [];
  }
}
