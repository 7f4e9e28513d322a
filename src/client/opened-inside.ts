/**
 * Whether a file opened for a snapshot (changes/snapshot-read.ts) or for an agent's read (open-for-read.ts) lies
 * inside a workspace folder once every link on its way is resolved. Opening with O_NOFOLLOW refuses a link in the
 * last component only: a folder of the repository that is a link (`docs -> ~/.ssh`, which git checks out as such),
 * or a folder swapped for one while the walk goes on, would still have the file behind it read (copied into storage,
 * or answered to the agent) when a tool call names `docs/id_rsa`.
 *
 * The question is asked of the opened file, after the open, so a swap before or after it cannot pass: on Linux the
 * kernel's own path of the descriptor (/proc/self/fd); elsewhere the real path of the folder it was opened in, and
 * the entry found there must be the very file opened (same device and inode).
 */
import { lstatSync, readlinkSync, realpathSync, type Stats } from 'node:fs';
import { lstat, readlink, realpath } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isAtOrInside } from './path-inside';

/** Where Linux shows the path of an open descriptor, as the kernel resolved it. */
const descriptorPath = (descriptor: number): string => `/proc/self/fd/${descriptor}`;
const KERNEL_PATHS = process.platform === 'linux';

/** Whether the file open as `descriptor` (fstat: `opened`), opened as `absolutePath`, is inside one of `realRoots`. */
export async function openedInside(
  descriptor: number,
  absolutePath: string,
  opened: Stats,
  realRoots: readonly string[],
): Promise<boolean> {
  try {
    if (KERNEL_PATHS) return insideAny(await readlink(descriptorPath(descriptor)), realRoots);
    return await openedInsideByFolder(absolutePath, opened, realRoots);
  } catch {
    return false;
  }
}

/** `openedInside` without the kernel's path (macOS, Windows): the real folder, and the very file opened in it. */
export async function openedInsideByFolder(absolutePath: string, opened: Stats, realRoots: readonly string[]): Promise<boolean> {
  try {
    const folder = await realpath(dirname(absolutePath));
    return insideAny(folder, realRoots) && sameFile(await lstat(join(folder, basename(absolutePath))), opened);
  } catch {
    return false;
  }
}

/** `openedInside` on the event loop. */
export function openedInsideNow(descriptor: number, absolutePath: string, opened: Stats, realRoots: readonly string[]): boolean {
  try {
    if (KERNEL_PATHS) return insideAny(readlinkSync(descriptorPath(descriptor)), realRoots);
    const folder = realpathSync.native(dirname(absolutePath));
    return insideAny(folder, realRoots) && sameFile(lstatSync(join(folder, basename(absolutePath))), opened);
  } catch {
    return false;
  }
}

function insideAny(realPath: string, realRoots: readonly string[]): boolean {
  return realRoots.some((root) => isAtOrInside(root, realPath));
}

function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}
