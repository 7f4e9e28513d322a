/**
 * What the host-under-floods probe (test/integration/host-floods.test.ts) measured in one case, in the shape the
 * bench's real-VS Code flood lines read back (bench/vscode-floods.ts).
 */
import { percentile } from '../../bench/webview/percentile';

export interface FloodProbeFigures {
  readonly name: string;
  /** Probes answered while the flood streamed. */
  readonly probes: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  /**
   * The 95th percentile of what a command given at any moment of the flood waits: a probe late by `a` ms also stands
   * for the probes that fell due while it waited (each waiting what was left of it), so one long stall weighs by its
   * length, not as one probe among many.
   */
  readonly anyMomentP95Ms: number;
  readonly maxMs: number;
  /** The same probe with nothing streaming, just before. */
  readonly idleMaxMs: number;
  /** From the prompt to the end of the turn. */
  readonly floodMs: number;
}

/** Each answer time, plus one for every probe slot (`everyMs` apart) that fell due while it was outstanding. */
export function anyMomentWaits(answers: readonly number[], everyMs: number): number[] {
  return answers.flatMap((answer) => {
    const waits = [answer];
    for (let left = answer - everyMs; left > 0; left -= everyMs) waits.push(left);
    return waits;
  });
}

export function floodProbeFigures(
  name: string,
  answers: readonly number[],
  idle: readonly number[],
  floodMs: number,
  everyMs: number,
): FloodProbeFigures {
  const round = (value: number): number => Math.round(value * 10) / 10;
  return {
    name,
    probes: answers.length,
    p50Ms: round(percentile(answers, 0.5)),
    p95Ms: round(percentile(answers, 0.95)),
    anyMomentP95Ms: round(percentile(anyMomentWaits(answers, everyMs), 0.95)),
    maxMs: round(Math.max(0, ...answers)),
    idleMaxMs: round(Math.max(0, ...idle)),
    floodMs: Math.round(floodMs),
  };
}
