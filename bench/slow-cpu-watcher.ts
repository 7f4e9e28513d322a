/**
 * The watcher `BENCH_SLOW_CPU` starts (bench/slow-cpu.ts), a process of its own so that its polling never blocks the
 * bench's event loop, which times things. A machine whose cores are `share` as fast, in CFS bandwidth terms: the
 * bench's folder may use `share` of every core (its quota: the cores' worth together), and each thread of the bench's
 * tree (the bench, VS Code, Chromium's processes and their compositor and raster threads, agents) gets a cgroup of its
 * own below it that may use `share` of one core, so that a thread runs at most as fast as on a slower core, and the
 * threads together no faster than the slower cores could. Quotas are per period of 2–3 ms, so a task of a few milliseconds
 * is stretched as a slower CPU would stretch it, not stalled for a long slice. Every 100 ms the watcher moves threads
 * it has not seen yet; a thread started meanwhile runs in its creator's cgroup (on its budget) until then.
 *
 * Arguments: the cgroup folder to fill (under the cgroup v1 cpu hierarchy) and the share (0.3–1). Prints `ready`
 * once the bench itself is placed. Ends, moving whatever is left back to the root cgroup and removing its
 * folders, on SIGTERM or once the bench is gone. It stops placing threads first, and tries again for a while: the
 * bench asks it to end as the bench itself exits, and an exiting thread keeps its folder busy until it is reaped
 * (a run left one empty per-thread folder behind when the watcher tried only once).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import * as path from 'node:path';
import { removeSlowCpuFolder } from './slow-cpu-folder';

const [folder, shareText] = process.argv.slice(2);
const share = Number(shareText);
if (!folder || !(share >= 0.3 && share <= 1)) throw new Error('usage: slow-cpu-watcher <cgroup folder> <share 0.3-1>');

/** The kernel's smallest quota is 1 ms: the period is as short as that allows, so stalls stay about a millisecond. */
const PERIOD_US = Math.max(2000, Math.ceil(1000 / share));
const QUOTA_US = Math.round(PERIOD_US * share);
const ALL_CORES_QUOTA_US = Math.round(PERIOD_US * share * cpus().length);
const benchPid = process.ppid;
const placed = new Set<number>();

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: the fields after it start past its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[1]);
  } catch {
    return undefined;
  }
}

/** The bench and every process below it, but not this watcher. */
function benchTree(): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    const parent = parentOf(pid);
    if (parent === undefined) continue;
    children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  const tree: number[] = [];
  const queue = [benchPid];
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    if (pid === process.pid) continue;
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

function threadsOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).map(Number);
  } catch {
    return [];
  }
}

function limit(group: string, quotaUs: number): void {
  writeFileSync(path.join(group, 'cpu.cfs_period_us'), String(PERIOD_US));
  writeFileSync(path.join(group, 'cpu.cfs_quota_us'), String(quotaUs));
}

function place(thread: number): void {
  const group = path.join(folder as string, String(thread));
  try {
    if (!existsSync(group)) mkdirSync(group);
    limit(group, QUOTA_US);
    writeFileSync(path.join(group, 'tasks'), String(thread));
    placed.add(thread);
  } catch {
    // The thread ended between the scan and the move: nothing to slow.
  }
}

function poll(): void {
  for (const pid of benchTree()) for (const thread of threadsOf(pid)) if (!placed.has(thread)) place(thread);
}

/** How long the end keeps trying to remove the folder while threads of the bench's tree are still exiting. */
const CLEAN_UP_FOR_MS = 5_000;
const CLEAN_UP_EVERY_MS = 50;

let ending = false;

function end(): void {
  if (ending) return;
  ending = true;
  clearInterval(timer);
  const giveUpAt = Date.now() + CLEAN_UP_FOR_MS;
  const tryAgain = (): void => {
    // What is left after the last try is the next bench's sweep's (slow-cpu.ts).
    if (removeSlowCpuFolder(folder as string) || Date.now() >= giveUpAt) process.exit(0);
    setTimeout(tryAgain, CLEAN_UP_EVERY_MS);
  };
  tryAgain();
}

process.on('SIGTERM', end);
mkdirSync(folder, { recursive: true });
limit(folder, ALL_CORES_QUOTA_US);
poll();
process.stdout.write('ready\n');
const timer = setInterval(() => (process.ppid === benchPid ? poll() : end()), 100);
