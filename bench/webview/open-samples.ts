/**
 * The open-time lines' arithmetic (bench/webview/open-bench.ts): samples of ours and of the baseline taken
 * interleaved, in pairs (A B, then B A, …), so that the machine's drift over the run (a workbench warming up,
 * another process waking) lands on both alike. Each phase is reported as a median with its spread, and the
 * difference as the median of the pairs' differences: a pair's two samples were taken next to each other, so
 * their difference is our cost with the least of the browser's own noise in it.
 */

export type Which = 'ours' | 'baseline';

/** Where a restored transcript entry first on screen came from (bench/webview/open-probe.ts). */
export type EntrySource = 'html' | 'preview' | 'chat';

export const ENTRY_SOURCE: Record<EntrySource, string> = {
  html: "the saved preview in the page's HTML",
  preview: 'the saved preview drawn by the chat script',
  chat: "the host's snapshot",
};

/** How many of `samples` (ours) first showed an entry from each source, e.g. "5 of 5 the saved preview in the page's HTML". */
export function entrySources(samples: readonly Sample[]): string {
  const ours = samples.filter((sample) => sample.which === 'ours');
  const counts = new Map<EntrySource, number>();
  for (const sample of ours)
    if (sample.phases.entryFrom) counts.set(sample.phases.entryFrom, (counts.get(sample.phases.entryFrom) ?? 0) + 1);
  return [...counts].map(([source, count]) => `${count} of ${ours.length} ${ENTRY_SOURCE[source]}`).join(', ') || 'none';
}

/** Phases of one open, in ms after the click (or the reload). */
export interface Phases {
  /** The activity-bar icon shown (after a navigation or a reload; not measured for a click on a shown workbench). */
  readonly icon: number | undefined;
  /** The webview's inner frame made: VS Code handed it the HTML. */
  readonly html: number;
  /** The page's last script had arrived. */
  readonly fetched: number | undefined;
  /** The page's script ran. */
  readonly script: number | undefined;
  /** The first frame with the prompt painted. */
  readonly painted: number;
  /** The first frame with the prompt painted and enabled. */
  readonly typeable: number;
  /** A transcript entry on screen (ours after a reload). */
  readonly entry: number | undefined;
  /**
   * Where that entry came from: the page's HTML (the host put the saved preview there), the saved preview drawn by
   * the chat's script, or the chat (the host's snapshot).
   */
  readonly entryFrom?: EntrySource;
}

export interface Sample {
  readonly which: Which;
  readonly phases: Phases;
}

/** The order of pair `pair` (from 0): ours first in even pairs, the baseline first in odd ones. */
function pairOrder(pair: number): readonly Which[] {
  return pair % 2 ? ['baseline', 'ours'] : ['ours', 'baseline'];
}

/** A B B A A B …: `pairs` pairs, each with one of each, the first of a pair alternating. */
export function interleaved(pairs: number): Which[] {
  const order: Which[] = [];
  for (let pair = 0; pair < pairs; pair++) order.push(...pairOrder(pair));
  return order;
}

/** How many pairs a round may take, and the time (ms from the round's start) its pairs past `least` must end within. */
export interface PairLimits {
  readonly least: number;
  readonly most: number;
  readonly allowedMs: number;
}

/**
 * `interleaved`, for as many pairs as `limits` allow: at least `least`, then more up to `most` while the round's
 * pairs so far say one more ends within `allowedMs`. On a fast machine every round takes `most`; on a slow one,
 * where a reload sample took 25-40 s (BENCH_SLOW_CPU=0.3), the open part alone ran 13-15 minutes, most of a bench
 * meant to take under 10. `now` is the clock (ms), for tests.
 */
export function* interleavedWithin(limits: PairLimits, now: () => number = Date.now): Generator<Which> {
  const started = now();
  for (let pair = 0; pair < limits.most; pair++) {
    if (pair >= limits.least) {
      const elapsed = now() - started;
      if (elapsed + elapsed / pair > limits.allowedMs) return;
    }
    yield* pairOrder(pair);
  }
}

/** The middle value (the mean of the two middle ones for an even count); undefined for none. */
export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const value = sorted.length % 2 ? sorted[middle] : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
  return value === undefined ? undefined : Math.round(value);
}

/** "median (min–max)" of the values, or "-" for none. */
export function spread(values: readonly number[]): string {
  const middle = median(values);
  if (middle === undefined) return '-';
  return values.length === 1 ? `${middle}` : `${middle} (${Math.min(...values)}–${Math.max(...values)})`;
}

const PHASES: readonly Exclude<keyof Phases, 'entryFrom'>[] = ['icon', 'html', 'painted', 'typeable', 'fetched', 'script', 'entry'];

/** Each phase measured in these samples as "name median (min–max)". */
export function describePhases(samples: readonly Phases[]): string {
  const parts: string[] = [];
  for (const phase of PHASES) {
    const values = samples.map((sample) => sample[phase]).filter((value): value is number => value !== undefined && value >= 0);
    if (values.length) parts.push(`${phase} ${spread(values)}`);
  }
  return parts.join(' / ');
}

/** Per pair (two consecutive samples, one of each): ours' `measure` minus the baseline's. */
export function pairedDifferences(samples: readonly Sample[], measure: (sample: Sample) => number): number[] {
  const differences: number[] = [];
  for (let index = 0; index + 1 < samples.length; index += 2) {
    const pair = [samples[index], samples[index + 1]];
    const ours = pair.find((sample) => sample?.which === 'ours');
    const baseline = pair.find((sample) => sample?.which === 'baseline');
    if (ours && baseline) differences.push(measure(ours) - measure(baseline));
  }
  return differences;
}
