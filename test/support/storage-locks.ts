/**
 * Who holds a workspace storage folder: VS Code's extension host writes its pid into workspaceStorage/<id>/vscode.lock
 * and refreshes it while it lives. Benches and e2e suites wait on it: a window opened while a closed window's host
 * still holds the folder is given another one (<id>-1), with other storage.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pids of the live processes that hold a workspace storage lock under `userDataDir`. */
export function storageLockHolders(userDataDir: string): number[] {
  const storage = path.join(userDataDir, 'User', 'workspaceStorage');
  if (!existsSync(storage)) return [];
  const holders: number[] = [];
  for (const folder of readdirSync(storage)) {
    let pid: unknown;
    try {
      pid = (JSON.parse(readFileSync(path.join(storage, folder, 'vscode.lock'), 'utf8')) as { pid?: unknown }).pid;
    } catch {
      continue; // no lock, or one being written: nobody holds it for long
    }
    if (typeof pid === 'number' && alive(pid)) holders.push(pid);
  }
  return holders;
}

/** Until no live process holds a workspace storage lock under `userDataDir`; throws naming them after `timeoutMs`. */
export async function storageLocksReleased(userDataDir: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (storageLockHolders(userDataDir).length > 0) {
    if (Date.now() > deadline)
      throw new Error(`still held after ${timeoutMs / 1000} s by pids ${storageLockHolders(userDataDir).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
