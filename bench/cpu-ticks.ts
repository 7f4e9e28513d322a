/**
 * The whole machine's CPU ticks since boot, from /proc/stat (Linux): what its own processes used, and what the
 * hypervisor gave another guest (steal). A bench figure taken while a neighbour steals a quarter of the machine is
 * not one taken on an idle one, so the bench says how much was stolen while it ran.
 */
import { readFileSync } from 'node:fs';

export interface CpuTicks {
  /** user + nice + system + irq + softirq: the machine's own work. */
  readonly busy: number;
  readonly steal: number;
  /** busy + idle + iowait + steal (guest and guest_nice are already in user and nice). */
  readonly total: number;
}

export function cpuTicks(): CpuTicks {
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = (
    readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? ''
  )
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const busy = user + nice + system + irq + softirq;
  return { busy, steal, total: busy + idle + iowait + steal };
}

/** The share (0–1) of the machine's time stolen between two readings. */
export function stolenShare(from: CpuTicks, to: CpuTicks): number {
  const total = to.total - from.total;
  return total > 0 ? (to.steal - from.steal) / total : 0;
}
