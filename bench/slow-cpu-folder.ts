/**
 * Ending a `BENCH_SLOW_CPU` cgroup folder (bench/slow-cpu.ts): shared by the watcher as it ends and by the sweep of
 * folders a killed bench left. A folder with tasks cannot be removed, so what still runs goes back to the root cgroup
 * first. Best effort: a thread that ends as it moves (an exiting thread stays counted in its cgroup until it is
 * reaped, so its folder cannot be removed yet), or a folder already gone, is left to the next call.
 */
import { existsSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

/** Returns whether the folder is gone. */
export function removeSlowCpuFolder(folder: string): boolean {
  const root = path.dirname(folder);
  const groups = existsSync(folder) ? readdirSync(folder).filter((name) => /^\d+$/.test(name)) : [];
  for (const name of groups) {
    const group = path.join(folder, name);
    // Each thread on its own: one that cannot move (it is ending) must not keep the others in the folder.
    for (const thread of tasksOf(group)) attempt(() => writeFileSync(path.join(root, 'tasks'), thread));
    attempt(() => rmdirSync(group));
  }
  attempt(() => rmdirSync(folder));
  return !existsSync(folder);
}

function tasksOf(group: string): string[] {
  try {
    return readFileSync(path.join(group, 'tasks'), 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

function attempt(step: () => void): void {
  try {
    step();
  } catch {
    // As above: the next call.
  }
}
