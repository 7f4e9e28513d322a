/**
 * CPU time of the processes a real-VS Code bench runs, read from /proc (Linux): the extension host, the agent, the
 * code-server server, and each Chromium process by type (the workbench and its webviews share a renderer when they
 * share an origin, as in code-server). A snapshot before and after a stretch gives each one's share of it.
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

interface ProcessInfo {
  readonly pid: number;
  readonly parent: number;
  readonly label: string;
  /** User + system CPU, ms. */
  readonly cpuMs: number;
}

function read(pid: number): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: the fields after it are split.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return {
      pid,
      parent: Number(fields[1]),
      label: labelOf(cmdline),
      cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND,
    };
  } catch {
    return undefined;
  }
}

function labelOf(cmdline: readonly string[]): string {
  const all = cmdline.join(' ');
  if (all.includes('--type=extensionHost') || all.includes('extensionHostProcess')) return 'extension host';
  if (all.includes('flood-agent')) return 'agent';
  if (/chrom/.test(cmdline[0] ?? '')) {
    const type = /--type=([\w-]+)/.exec(all)?.[1];
    if (!type) return 'chromium browser';
    const utility = /--utility-sub-type=([\w.]+)/.exec(all)?.[1];
    return `chromium ${type}${utility ? ` ${utility.split('.').pop() ?? ''}` : ''}`;
  }
  if (all.includes('code-server') || all.includes('entry.js')) return 'code-server';
  return cmdline[0]?.split('/').pop() ?? '?';
}

/** Every process under `roots` (them included). */
export function processTree(roots: readonly number[]): ProcessInfo[] {
  const all = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => read(Number(name)))
    .filter((info): info is ProcessInfo => info !== undefined);
  const inTree = new Set(roots);
  for (let grew = true; grew; ) {
    grew = false;
    for (const info of all)
      if (!inTree.has(info.pid) && inTree.has(info.parent)) {
        inTree.add(info.pid);
        grew = true;
      }
  }
  return all.filter((info) => inTree.has(info.pid));
}

/** CPU ms per process from `before` to `after`, by label (renderers one by one, busiest first), ignoring idle ones. */
export function cpuBetween(before: readonly ProcessInfo[], after: readonly ProcessInfo[]): { label: string; cpuMs: number }[] {
  const start = new Map(before.map((info) => [info.pid, info.cpuMs]));
  return after
    .map((info) => ({ label: info.label, cpuMs: Math.round(info.cpuMs - (start.get(info.pid) ?? 0)) }))
    .filter((entry) => entry.cpuMs >= 50)
    .sort((a, b) => b.cpuMs - a.cpuMs);
}
