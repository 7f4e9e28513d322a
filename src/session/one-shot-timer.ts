/** A timer that is armed at most once at a time: arming again replaces it; `clear` is safe whenever. */
export class OneShotTimer {
  private handle: ReturnType<typeof setTimeout> | undefined;

  arm(delayMs: number, fire: () => void): void {
    this.clear();
    this.handle = setTimeout(() => {
      this.handle = undefined;
      fire();
    }, delayMs);
  }

  clear(): void {
    if (this.handle) clearTimeout(this.handle);
    this.handle = undefined;
  }
}
