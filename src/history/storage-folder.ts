/**
 * Which workspace storage folder holds this window's history. VS Code gives each extension host the first folder
 * of `workspaceStorage/<id>`, `<id>-1`, … `<id>-9` whose lock (storage-lock.ts) it can take. After Reload Window
 * on a remote (code-server, SSH, WSL, Codespaces) the old window's extension host may still be shutting down: it
 * holds `<id>` while the new host looks, so the new host is given `<id>-1`, an empty folder, and the chat would come
 * back without its history. So when we are given a suffixed folder and `<id>`'s holder is going away (its lock says
 * when it will be released, or it is about to say so), we wait for it, bounded, and take `<id>` by the same
 * protocol: by then the old window has flushed what it recorded (it does so on deactivate, before its host exits).
 * A holder that stays (another live window on the same workspace, e.g. a second browser tab) keeps `<id>`, and
 * this window stays in its own folder: two windows never write one history.
 *
 * Every path is checked, never followed: `<id>` must be a real directory beside ours holding our folder as a real
 * directory (else there is nothing to restore), and its meta.json, when there is one, must name it.
 */
import { constants, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { LOCK_FILE, lockVerdict, processAlive, readLock, takeLock, type HeldLock } from './storage-lock';
import { suffixedFolder } from './stand-in-folder';

const POLL_MS = 100;
/**
 * A holder rewriting its lock (to say when it will release it) truncates the file first: an empty or half-written
 * lock is judged free (VS Code's rule) only once it has stayed unreadable this long.
 */
const UNREADABLE_MS = 500;
const MAX_META_BYTES = 64 * 1024;

export interface StorageWait {
  /** How long a live holder with no release scheduled is given to start releasing (its host busy when reloaded). */
  readonly heldMs: number;
  /** The most the whole wait may take, whatever the lock says (a `willReleaseAt` far off is not believed). */
  readonly maxMs: number;
}

export const STORAGE_WAIT: StorageWait = { heldMs: 6_000, maxMs: 12_000 };

export interface ChosenStorage {
  /** The extension's storage folder to use. */
  readonly dir: string;
  /** Held when `dir` is not the one VS Code gave: release it on deactivate, after the last flush. */
  readonly lock?: HeldLock;
  /** What happened, for the log. */
  readonly note?: string;
}

/**
 * The folder to keep history in, given the extension's storage folder (`workspaceStorage/<folder>/<extension>`)
 * as VS Code gave it. Waits only when VS Code gave a suffixed folder.
 */
export async function chooseStorageFolder(given: string, wait: StorageWait = STORAGE_WAIT): Promise<ChosenStorage> {
  const folder = path.dirname(given);
  const suffixed = suffixedFolder(path.basename(folder));
  if (!suffixed) return { dir: given };
  const baseFolder = path.join(path.dirname(folder), suffixed.base);
  const dir = path.join(baseFolder, path.basename(given));
  // Only a folder we kept history in is worth waiting for; and never one another workspace's meta.json claims.
  if (!(await isOwnDirectory(baseFolder)) || !(await isOwnDirectory(dir)) || (await metaOf(baseFolder, suffixed.base)) === 'other')
    return { dir: given, note: `${suffixed.base} holds nothing of ours to restore` };
  const lockFile = path.join(baseFolder, LOCK_FILE);
  const started = Date.now();
  const deadline = started + wait.maxMs;
  let unreadableSince: number | undefined;
  for (;;) {
    const state = await readLock(lockFile);
    const now = Date.now();
    unreadableSince = state.kind === 'unreadable' ? (unreadableSince ?? now) : undefined;
    const verdict = lockVerdict(state, now, processAlive);
    if (verdict.kind === 'free' && (unreadableSince === undefined || now - unreadableSince >= UNREADABLE_MS)) {
      const lock = await takeLock(lockFile, state.kind !== 'absent');
      if (lock) {
        // Checked again under the lock: it may have been replaced while we waited.
        if (await isOwnDirectory(dir)) return { dir, lock, note: `took ${suffixed.base} after ${now - started} ms` };
        lock.release();
        return { dir: given, note: `${dir} is not a plain directory` };
      }
      // Another host took it first: judge its lock next time round.
    } else if (verdict.kind === 'held' && now - started >= wait.heldMs) {
      return { dir: given, note: `${suffixed.base} is held by another window (pid ${heldPid(state)})` };
    }
    if (now >= deadline) return { dir: given, note: `${suffixed.base} was not released within ${wait.maxMs} ms` };
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function heldPid(state: Awaited<ReturnType<typeof readLock>>): string {
  return state.kind === 'held' ? String(state.contents.pid) : '?';
}

async function isOwnDirectory(dir: string): Promise<boolean> {
  const info = await fs.lstat(dir).catch(() => undefined);
  return info?.isDirectory() === true;
}

/**
 * VS Code writes `{id, …}` to a storage folder's meta.json, though not always (code-server's web window did not in
 * one run of the e2e): absent is fine; one naming another id, or anything but a small regular file, is not.
 */
async function metaOf(baseFolder: string, id: string): Promise<'absent' | 'ours' | 'other'> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(path.join(baseFolder, 'meta.json'), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'absent' : 'other';
  }
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size > MAX_META_BYTES) return 'other';
    const meta: unknown = JSON.parse(await handle.readFile('utf8'));
    return typeof meta === 'object' && meta !== null && Reflect.get(meta, 'id') === id ? 'ours' : 'other';
  } catch {
    return 'other';
  } finally {
    await handle.close().catch(() => undefined);
  }
}
