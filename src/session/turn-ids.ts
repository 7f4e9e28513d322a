/**
 * Turn ids are local (the wire has none in v1): unique per conversation, readable in logs. A conversation restored
 * from history already holds turns: ids it used are skipped, so a new turn never takes an old one's id (its prompt
 * would not show, and its change set would be confused with the old turn's).
 */
export class TurnIds {
  private next = 1;
  take(inUse: (turnId: string) => boolean = () => false): string {
    let turnId = `turn-${this.next++}`;
    while (inUse(turnId)) turnId = `turn-${this.next++}`;
    return turnId;
  }
}
