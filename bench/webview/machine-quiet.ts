/**
 * Waits for the machine to go quiet before an open is timed (issue 31). A click on a workbench that is still
 * starting (its extension host, the browser's own start-up, the last window's teardown) raced that work for the
 * 2 cores, and that race, not either extension, swung single pairs by −1.4 s to +1.6 s. Neither extension is
 * active before its view's click (no activation events), so waiting here keeps both activations in what is timed
 * and takes only the workbench's own start-up out of it. Read from /proc/stat: every process on the machine.
 */
import { readFileSync } from 'node:fs';

/**
 * Busy and total CPU ticks of the whole machine since boot. Steal (time the hypervisor gave another guest) is in the
 * total but not busy: it is no process's work here, and under a busy neighbour it stayed at a quarter of the
 * machine for minutes, so counting it made every wait run to its limit (20 s, four times in one open bench) without
 * the machine's own work getting any quieter. guest and guest_nice are left out: they are already in user and nice.
 */
function cpuTicks(): { busy: number; total: number } {
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = (
    readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? ''
  )
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const busy = user + nice + system + irq + softirq;
  return { busy, total: busy + idle + iowait + steal };
}

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
