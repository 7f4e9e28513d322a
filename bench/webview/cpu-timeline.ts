/**
 * Verbose: which process used the CPU when, over a stretch of a real-VS Code bench (a reload: the old window's
 * extension host going, the new one starting, the agents, the browser's renderers), one column per second. Read
 * from /proc every quarter second (processTree), so it costs the bench a few ms of CPU per read.
 */
import { processTree } from './process-cpu';

const STEP_MS = 250;
const BUCKET_MS = 1_000;

export interface CpuTimeline {
  /** Stops sampling; the table: one row per process that used ≥ 100 ms, its CPU ms in each second since the start. */
  stop(): string;
}

export function startCpuTimeline(): CpuTimeline {
  const started = Date.now();
  const rows = new Map<number, { label: string; buckets: number[] }>();
  const last = new Map<number, number>();
  let firstRead = true;
  const read = (): void => {
    const bucket = Math.floor((Date.now() - started) / BUCKET_MS);
    for (const info of processTree([1])) {
      // A process there at the start used its CPU so far before it; one that started since used all of it since.
      const before = last.get(info.pid) ?? (firstRead ? info.cpuMs : 0);
      last.set(info.pid, info.cpuMs);
      const row = rows.get(info.pid) ?? { label: info.label, buckets: [] };
      rows.set(info.pid, row);
      row.buckets[bucket] = (row.buckets[bucket] ?? 0) + info.cpuMs - before;
    }
    firstRead = false;
  };
  read();
  const timer = setInterval(read, STEP_MS);
  // A reload that fails leaves it unstopped: it must not keep the bench alive.
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      read();
      const seconds = Math.ceil((Date.now() - started) / BUCKET_MS);
      const lines = [...rows.entries()]
        .map(([pid, row]) => ({ pid, row, total: row.buckets.reduce((sum, value) => sum + (value ?? 0), 0) }))
        .filter((entry) => entry.total >= 100)
        .sort((a, b) => b.total - a.total)
        .map(
          ({ pid, row, total }) =>
            `    ${`${row.label} ${pid}`.padEnd(36)} ${String(Math.round(total)).padStart(6)} |` +
            Array.from({ length: seconds }, (_, second) => String(Math.round(row.buckets[second] ?? 0)).padStart(5)).join(''),
        );
      return [`    ${'process'.padEnd(36)} ${'CPU ms'.padStart(6)} | per second since the start`, ...lines].join('\n');
    },
  };
}
