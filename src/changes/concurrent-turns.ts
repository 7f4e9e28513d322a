/**
 * The conversations whose turns may run at the same time on one workspace. A change on disk does not say which
 * agent made it, so each conversation capturing a turn sees it; this registry lets each one ask, at its turn's end,
 * whether another conversation's agent named the file (a write or read through us, a tool call's locations or
 * diff) and whether another turn was running when the change was seen.
 *
 * The rule, chosen so that no change is ever lost and none is shown as certainly someone's when it is not:
 * - named by this conversation's agent: this turn's change (whoever else also named it);
 * - named only by another conversation's agent: that conversation's change, not this one's;
 * - named by nobody, with another turn running at the time: kept in every such turn, each marked as possibly
 *   another conversation's agent's (dropping it from all, or guessing one, could lose it or mislead);
 * - named by nobody, with no other turn running: this turn's.
 */

export interface TurnParticipant {
  readonly id: string;
  /** A turn is running (or settling): disk changes now are captured by it. */
  capturing(): boolean;
  /** Whether this conversation's current or last turn named the path. */
  names(path: string): boolean;
}

export type Attribution = 'own' | 'others' | 'shared';

export class ConcurrentTurns {
  private readonly participants = new Map<string, TurnParticipant>();

  join(participant: TurnParticipant): { dispose(): void } {
    this.participants.set(participant.id, participant);
    return { dispose: () => this.participants.get(participant.id) === participant && this.participants.delete(participant.id) };
  }

  /** The other conversations capturing a turn now (asked when a change is seen). */
  othersCapturing(id: string): string[] {
    return [...this.participants.values()].filter((p) => p.id !== id && p.capturing()).map((p) => p.id);
  }

  /**
   * Whose a disk change is, asked by `id` at its turn's end. `alongside`: the conversations that were capturing
   * when the change was seen.
   */
  attribute(id: string, path: string, alongside: readonly string[]): Attribution {
    const others = [...this.participants.values()].filter((p) => p.id !== id);
    // One conversation alone on the workspace: nothing to tell apart (and no transcript to search).
    if (others.length === 0) return 'own';
    if (this.participants.get(id)?.names(path)) return 'own';
    if (others.some((p) => p.names(path))) return 'others';
    return alongside.length > 0 ? 'shared' : 'own';
  }
}
