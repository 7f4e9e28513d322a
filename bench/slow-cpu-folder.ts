/**
 * Ending a `BENCH_SLOW_CPU` cgroup folder (bench/slow-cpu.ts): shared by the watcher as it ends and by the sweep of
 * folders a killed bench left. A folder with tasks cannot be removed, so what still runs goes back to the root cgroup
 * first. Best effort: a thread that ends as it moves, or a folder already gone, is left to the next sweep.
 */
import { existsSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

export function removeSlowCpuFolder(folder: string): void {
  const root = path.dirname(folder);
  const groups = existsSync(folder) ? readdirSync(folder).filter((name) => /^\d+$/.test(name)) : [];
  for (const name of groups) {
    const group = path.join(folder, name);
    try {
      for (const thread of readFileSync(path.join(group, 'tasks'), 'utf8').split('\n').filter(Boolean))
        writeFileSync(path.join(root, 'tasks'), thread);
      rmdirSync(group);
    } catch {
      // As above: the next sweep.
    }
  }
  try {
    rmdirSync(folder);
  } catch {
    // As above.
  }
}
