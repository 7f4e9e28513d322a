/**
 * A lock file beside the index, so two windows on one workspace (two extension hosts) never read-merge-write the
 * index at the same time: one would rename its merge over the other's and lose a conversation. The lock is a file
 * created exclusively; one left by a host that died holding it is broken once it is older than any real write.
 */
import { closeSync, openSync, promises as fs, rmSync, statSync } from 'node:fs';

/** No real merge-and-write of the index takes this long: a lock this old was left by a host that died. */
const STALE_AFTER_MS = 5_000;
const RETRY_MS = 10;

export async function withIndexLock<T>(file: string, work: () => Promise<T>): Promise<T> {
  const lock = `${file}.lock`;
  for (;;) {
    try {
      await (await fs.open(lock, 'wx')).close();
      break;
    } catch (error) {
      if (!isTaken(error)) throw error;
      if (await isStale(lock)) await fs.rm(lock, { force: true });
      else await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }
  try {
    return await work();
  } finally {
    await fs.rm(lock, { force: true });
  }
}

/**
 * For deactivate, where nothing asynchronous runs again: waits at most `patienceMs` for the other window, then
 * writes anyway (losing the race is better than losing this window's changes).
 */
export function withIndexLockSync<T>(file: string, work: () => T, patienceMs = 500): T {
  const lock = `${file}.lock`;
  const until = Date.now() + patienceMs;
  let held = false;
  while (!held) {
    try {
      closeSync(openSync(lock, 'wx'));
      held = true;
    } catch (error) {
      if (!isTaken(error)) throw error;
      if (Date.now() > until || isStaleSync(lock)) rmSync(lock, { force: true });
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, RETRY_MS);
    }
  }
  try {
    return work();
  } finally {
    rmSync(lock, { force: true });
  }
}

function isTaken(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'EEXIST';
}

async function isStale(lock: string): Promise<boolean> {
  const stat = await fs.stat(lock).catch(() => undefined);
  return stat !== undefined && Date.now() - stat.mtimeMs > STALE_AFTER_MS;
}

function isStaleSync(lock: string): boolean {
  try {
    return Date.now() - statSync(lock).mtimeMs > STALE_AFTER_MS;
  } catch {
    return false;
  }
}
