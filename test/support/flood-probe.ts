/**
 * What the host-under-floods probe (test/integration/host-floods.test.ts) measured in one case, in the shape the
 * bench's real-VS Code flood lines read back (bench/vscode-floods.ts).
 */
import { percentile } from '../../bench/webview/percentile';

export interface FloodProbeFigures {
  readonly name: string;
  /** Probes answered while the flood streamed (one fell due every 100 ms, whether or not the last had answered). */
  readonly probes: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly maxMs: number;
  /**
   * The extension host's longest event-loop block while the flood streamed (perf_hooks' event-loop delay): the
   * host's own share of a probe's wait, the real-host counterpart of the plain-Node bench lines.
   */
  readonly hostBlockMaxMs: number;
  /** The same probe with nothing streaming, just before. */
  readonly idleMaxMs: number;
  /** From the prompt to the end of the turn. */
  readonly floodMs: number;
}

export function floodProbeFigures(
  name: string,
  answers: readonly number[],
  idle: readonly number[],
  floodMs: number,
  hostBlockMaxMs: number,
): FloodProbeFigures {
  const round = (value: number): number => Math.round(value * 10) / 10;
  return {
    name,
    probes: answers.length,
    p50Ms: round(percentile(answers, 0.5)),
    p95Ms: round(percentile(answers, 0.95)),
    maxMs: round(Math.max(0, ...answers)),
    hostBlockMaxMs: round(hostBlockMaxMs),
    idleMaxMs: round(Math.max(0, ...idle)),
    floodMs: Math.round(floodMs),
  };
}
