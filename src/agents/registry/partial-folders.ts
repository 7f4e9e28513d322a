/**
 * Unpack folders (`.partial-…`) and their downloads, named so that a later start-up can tell a crashed install's
 * leftovers from another VS Code window's install under way: the name carries the pid of the extension host that
 * made it. A leftover goes when that process is gone, or after a day whatever its pid says (pids are reused).
 */
import { randomBytes } from 'node:crypto';
import { lstat, readdir, rm } from 'node:fs/promises';
import * as path from 'node:path';

const PARTIAL = /^\.partial-.*-(\d+)-[0-9a-f]{8}(?:\.download)?$/;
const STALE_AFTER_MS = 24 * 3600 * 1000;

export const partialName = (version: string): string => `.partial-${version}-${process.pid}-${randomBytes(4).toString('hex')}`;

/** Removes every stale partial folder and download under `<agentsRoot>/<id>/`; never follows a link. */
export async function removeStalePartials(agentsRoot: string, now = Date.now()): Promise<void> {
  const agents = await readdir(agentsRoot, { withFileTypes: true }).catch(() => []);
  for (const agent of agents) {
    if (!agent.isDirectory()) continue;
    const folder = path.join(agentsRoot, agent.name);
    for (const name of await readdir(folder).catch(() => [])) {
      const match = PARTIAL.exec(name);
      if (!match) continue;
      const file = path.join(folder, name);
      const stat = await lstat(file).catch(() => undefined);
      if (!stat) continue;
      const pid = Number(match[1]);
      const stale = now - stat.mtimeMs > STALE_AFTER_MS || (pid !== process.pid && !processExists(pid));
      if (stale) await rm(file, { recursive: true, force: true });
    }
  }
}

/** Signal 0 sends nothing: it only asks whether the pid exists (EPERM: it does, and is someone else's). */
function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}
