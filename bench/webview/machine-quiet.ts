/**
 * Waits for the machine to go quiet before an open is timed (issue 31). A click on a workbench that is still
 * starting (its extension host, the browser's own start-up, the last window's teardown) raced that work for the
 * 2 cores, and that race, not either extension, swung single pairs by −1.4 s to +1.6 s. Neither extension is
 * active before its view's click (no activation events), so waiting here keeps both activations in what is timed
 * and takes only the workbench's own start-up out of it. Read from /proc/stat: every process on the machine, and
 * only their work: steal (time the hypervisor gave another guest) stayed at a quarter of the machine for minutes
 * under a busy neighbour, and counted as busy it made every wait run to its limit (20 s, four times in one open
 * bench) without the machine's own work getting any quieter.
 */
import { contention } from '../contention';
import { cpuTicks } from '../cpu-ticks';

export interface QuietOptions {
  /** The share of all cores that counts as quiet (0–1). */
  readonly busyBelow: number;
  /** How long the machine must have stayed under it. */
  readonly forMs: number;
  /** Give up waiting (and go on) after this long. */
  readonly atMostMs: number;
}

/** A machine whose other work takes under a fifth of its cores for half a second: the workbench has settled. */
export const SETTLED: QuietOptions = { busyBelow: 0.2, forMs: 500, atMostMs: 20_000 };

/** Resolves with the ms waited once the machine has been quiet for `forMs` (or `atMostMs` passed). */
export async function machineQuiet(options: QuietOptions = SETTLED): Promise<number> {
  // The bench's own busy loops (BENCH_CONTEND) would keep the machine from ever going quiet: ended meanwhile.
  const loops = contention();
  loops?.pause();
  try {
    return await quietFor(options);
  } finally {
    loops?.resume();
  }
}

async function quietFor(options: QuietOptions): Promise<number> {
  const started = Date.now();
  const step = 100;
  let quietSince = started;
  let last = cpuTicks();
  while (Date.now() - started < options.atMostMs) {
    await new Promise((resolve) => setTimeout(resolve, step));
    const now = cpuTicks();
    const total = now.total - last.total;
    const busy = total > 0 ? (now.busy - last.busy) / total : 0;
    last = now;
    if (busy >= options.busyBelow) quietSince = Date.now();
    else if (Date.now() - quietSince >= options.forMs) break;
  }
  return Date.now() - started;
}
