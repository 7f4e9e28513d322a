/** Turn ids are local (the wire has none in v1): unique per controller, readable in logs. */
export class TurnIds {
  private next = 1;
  take(): string {
    return `turn-${this.next++}`;
  }
}
