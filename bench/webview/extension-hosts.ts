/**
 * The extension hosts of windows already closed. code-server keeps a window's extension host for its reconnection
 * grace time after the browser goes, and that host keeps its lock on the workspace's storage folder
 * (workspaceStorage/<id>/vscode.lock, a pid refreshed every second). A window opened meanwhile gets the next free
 * folder (<id>-1) instead: another history, so a conversation made in it was not the one the window restored
 * after a reload (which took <id> back once the old host had gone), and the old host's shutdown ran during the
 * next sample. The open bench stops them (stopClosedExtensionHosts) before it opens the next window: waiting
 * for code-server to let them go took 4.9-5.1 s a window, 50 s of the open bench's cold round.
 */
import { storageLockHolders } from '../../test/support/storage-locks';

/**
 * Once every window is closed: stops the extension hosts still holding a storage lock, and resolves when none
 * does; throws naming the holders after `timeoutMs`. A closed window's host has nothing left to do for a user (no
 * window can reconnect to it: the browser is gone), and what it would still do (deactivate, end its agents) is
 * what a host told to stop does too.
 */
export async function stopClosedExtensionHosts(userDataDir: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const stopped = new Set<number>();
  for (;;) {
    const holders = storageLockHolders(userDataDir);
    if (holders.length === 0) return;
    for (const pid of holders.filter((holder) => !stopped.has(holder))) {
      stopped.add(pid);
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // gone meanwhile
      }
    }
    if (Date.now() > deadline)
      throw new Error(
        `extension hosts of closed windows still hold the workspace storage after ${timeoutMs / 1000} s: pids ${holders.join(', ')}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
