/**
 * A mark in the environment of everything an agent or a terminal's command starts, so that what left its process
 * group is still found when the tree is ended. A child that calls `setsid` (a daemon, `nohup`-like helpers, a
 * test runner's watcher) leads a group and a session of its own: a signal to the supervisor's group misses it, and
 * once its parent exits it belongs to init, not to the tree. Its environment is still the one it inherited, with the
 * mark in it.
 *
 * Linux only, through /proc (a process's environ is readable by its own user). Elsewhere the group signal alone
 * ends the tree (and on Windows `taskkill /T`). A process that rewrites its environment (`env -i`) is not found:
 * the mark is about leaving nothing behind by accident, not about containing a program that hides on purpose (it
 * runs as the user and could start anything anywhere).
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

/** The variable that carries the mark: set by the host over everything else in the command's environment. */
export const TREE_MARK_VARIABLE = 'ACP_CLIENT_PROCESS_TREE';

export function newTreeMark(): string {
  return randomUUID();
}

/**
 * Live processes (zombies excluded) other than this one that `keep` picks, given each one's process group and a
 * reader of its environment (read only if asked). Undefined where /proc cannot say (not Linux, or unreadable).
 */
export function findProcesses(keep: (group: number, environment: () => string) => boolean): number[] | undefined {
  if (process.platform !== 'linux') return undefined;
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const found: number[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      // pid (comm) state ppid pgrp …: comm may hold spaces and parentheses, so read after its last ')'.
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
      const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state === 'Z') continue;
      if (keep(Number(group), () => readFileSync(`/proc/${name}/environ`, 'latin1'))) found.push(Number(name));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/** Whether an environment (/proc's NUL-separated form) carries `mark`; a value that merely begins with it does not. */
export function carriesMark(environment: string, mark: string): boolean {
  return mark !== '' && `\0${environment}`.includes(`\0${TREE_MARK_VARIABLE}=${mark}\0`);
}

/** Live processes whose environment carries `mark` (none found where /proc cannot say). */
export function processesMarked(mark: string): number[] {
  if (mark === '') return [];
  return findProcesses((_group, environment) => carriesMark(environment(), mark)) ?? [];
}

/**
 * Signals every process carrying `mark`. A pid is signalled only right after its environment was read with the mark
 * in it, so a pid reused by another program in between is the one risk, as small as pid reuse within microseconds.
 */
export function signalMarked(mark: string, signal: NodeJS.Signals): void {
  for (const pid of processesMarked(mark)) {
    try {
      process.kill(pid, signal);
    } catch {
      // gone meanwhile
    }
  }
}
