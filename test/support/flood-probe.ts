/**
 * What the host-under-floods probe (test/integration/host-floods.test.ts) measured in one case, in the shape the
 * bench's real-VS Code flood lines read back (bench/vscode-floods.ts).
 */
import { percentile } from '../../bench/webview/percentile';

/**
 * chat: the flood with the chat on screen; mirror: and the command's VS Code terminal opened from its card;
 * baseline: VS Code opening a terminal on a pseudoterminal of nothing of ours (the window's first: quiet), probed the
 * same way.
 */
export type FloodProbeKind = 'chat' | 'mirror' | 'baseline';

export interface ProbeAnswers {
  /** Probes answered in the span (one fell due every 100 ms, whether or not the last had answered). */
  readonly probes: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly maxMs: number;
}

export interface FloodProbeFigures extends ProbeAnswers {
  readonly name: string;
  readonly kind: FloodProbeKind;
  /**
   * The extension host's longest event-loop block while the flood streamed (perf_hooks' event-loop delay): the
   * host's own share of a probe's wait, the real-host counterpart of the plain-Node bench lines.
   */
  readonly hostBlockMaxMs: number;
  /** The same probe with nothing streaming, just before. */
  readonly idleMaxMs: number;
  /** From the prompt to the end of the turn (a baseline: the span it probed). */
  readonly floodMs: number;
  /**
   * Mirror cases: VS Code opening a terminal repainted as the mirror repaints a flood, right after, probed over the
   * same span (as many probes).
   */
  readonly baseline?: ProbeAnswers;
}

const round = (value: number): number => Math.round(value * 10) / 10;

export function probeAnswers(answers: readonly number[]): ProbeAnswers {
  return {
    probes: answers.length,
    p50Ms: round(percentile(answers, 0.5)),
    p95Ms: round(percentile(answers, 0.95)),
    maxMs: round(Math.max(0, ...answers)),
  };
}

export function floodProbeFigures(
  name: string,
  kind: FloodProbeKind,
  answers: readonly number[],
  idle: readonly number[],
  floodMs: number,
  hostBlockMaxMs: number,
): FloodProbeFigures {
  return {
    name,
    kind,
    ...probeAnswers(answers),
    hostBlockMaxMs: round(hostBlockMaxMs),
    idleMaxMs: round(Math.max(0, ...idle)),
    floodMs: Math.round(floodMs),
  };
}
