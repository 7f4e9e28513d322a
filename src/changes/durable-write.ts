/**
 * Writing a file so that after a crash or power cut its name holds either the old content or the whole new one:
 * written to a temporary file beside it, flushed, renamed over it, and the folder flushed so the rename lasts.
 * Readable by the user only: the change store's copies and logs may hold the workspace's secrets.
 */
import { open, rename, rm } from 'node:fs/promises';
import * as path from 'node:path';

export async function writeFileDurably(target: string, data: Uint8Array | string): Promise<void> {
  const temp = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    const handle = await open(temp, 'w', 0o600);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await syncFolder(path.dirname(target));
}

/** Flushes a folder's entries (the rename); not every platform can open a folder for it (Windows), which is fine. */
async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r').catch(() => undefined);
  if (!handle) return;
  await handle
    .sync()
    .catch(() => undefined)
    .finally(() => handle.close());
}
