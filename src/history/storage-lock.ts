/**
 * VS Code's lock on a workspace storage folder (`workspaceStorage/<id>/vscode.lock`), read and taken by VS Code's own
 * protocol (its node extension host's storage paths): a file created exclusively holding `{pid, willReleaseAt}`,
 * its mtime refreshed every second by the holder; `willReleaseAt` set when the holder's host starts shutting down;
 * the file removed when that host exits. A lock is free when absent, unreadable, scheduled to have been released,
 * held by a pid that is gone, or not refreshed for 10 minutes. The pure verdict is here with the file work.
 */
import { constants, lstatSync, promises as fs, readFileSync, unlinkSync } from 'node:fs';

export const LOCK_FILE = 'vscode.lock';
/** VS Code refreshes a held lock's mtime this often. */
const REFRESH_MS = 1_000;
/** VS Code's own staleness bound for a lock whose holder stopped refreshing it. */
const STALE_MS = 10 * 60_000;
/** A lock file is a few dozen bytes: anything larger is not one, and is not read whole. */
const MAX_LOCK_BYTES = 1_024;

export interface LockContents {
  readonly pid: number;
  /** 0: held with no release scheduled; otherwise when (ms since the epoch) the holder will have let it go. */
  readonly willReleaseAt: number;
}

/** What is on disk: no lock, one that cannot be read as a lock, or a lock and when it was last refreshed. */
export type LockState =
  | { readonly kind: 'absent' }
  | { readonly kind: 'unreadable' }
  | { readonly kind: 'held'; readonly contents: LockContents; readonly mtimeMs: number };

/** free: take it now. releasing: the holder is going, wait until `until`. held: a live holder not going anywhere. */
export type LockVerdict = { readonly kind: 'free' } | { readonly kind: 'releasing'; readonly until: number } | { readonly kind: 'held' };

export function parseLock(text: string): LockContents | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const pid: unknown = Reflect.get(value, 'pid');
  const willReleaseAt: unknown = Reflect.get(value, 'willReleaseAt');
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0) return undefined;
  return { pid, willReleaseAt: typeof willReleaseAt === 'number' && Number.isFinite(willReleaseAt) ? willReleaseAt : 0 };
}

/** VS Code's rules for whether a lock may be taken (its checkStaleAndTryAcquireLock), as a pure function. */
export function lockVerdict(state: LockState, now: number, alive: (pid: number) => boolean): LockVerdict {
  if (state.kind !== 'held') return { kind: 'free' };
  const { pid, willReleaseAt } = state.contents;
  if (willReleaseAt > 0) return willReleaseAt <= now ? { kind: 'free' } : { kind: 'releasing', until: willReleaseAt };
  if (!alive(pid)) return { kind: 'free' };
  if (now - state.mtimeMs > STALE_MS) return { kind: 'free' };
  return { kind: 'held' };
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, owned by someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Reads the lock without following a link: a symlink or anything but a small regular file is unreadable. */
export async function readLock(file: string): Promise<LockState> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? { kind: 'absent' } : { kind: 'unreadable' };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size > MAX_LOCK_BYTES) return { kind: 'unreadable' };
    const buffer = Buffer.alloc(MAX_LOCK_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, MAX_LOCK_BYTES, 0);
    const contents = parseLock(buffer.subarray(0, bytesRead).toString('utf8'));
    return contents ? { kind: 'held', contents, mtimeMs: info.mtimeMs } : { kind: 'unreadable' };
  } catch {
    return { kind: 'unreadable' };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** A lock this process holds: its mtime kept fresh, removed (if still ours) on release. */
export class HeldLock {
  private readonly timer: NodeJS.Timeout;

  constructor(readonly file: string) {
    this.timer = setInterval(() => {
      const now = new Date();
      // lutimes: a link put in the lock's place is not followed.
      fs.lutimes(this.file, now, now).catch(() => undefined);
    }, REFRESH_MS);
    this.timer.unref();
  }

  /** Synchronous (deactivate): the next window may take the folder as soon as this returns. */
  release(): void {
    clearInterval(this.timer);
    // Removed only while it is still ours: another host may have taken it after judging it stale.
    try {
      if (!lstatSync(this.file).isFile() || lstatSync(this.file).size > MAX_LOCK_BYTES) return;
      if (parseLock(readFileSync(this.file, 'utf8'))?.pid === process.pid) unlinkSync(this.file);
    } catch {
      // already gone
    }
  }
}

/**
 * Takes a free lock by VS Code's protocol: remove what is there (stale), create the file exclusively with our pid,
 * read it back. Undefined when another host won the race.
 */
export async function takeLock(file: string, stale: boolean): Promise<HeldLock | undefined> {
  if (stale) await fs.unlink(file).catch(() => undefined);
  try {
    await fs.writeFile(file, JSON.stringify({ pid: process.pid, willReleaseAt: 0 }), { flag: 'wx' });
  } catch {
    return undefined;
  }
  const state = await readLock(file);
  return state.kind === 'held' && state.contents.pid === process.pid ? new HeldLock(file) : undefined;
}
