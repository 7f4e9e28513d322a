/**
 * Opening a file an agent asked to read, so that what is read is what was checked. The path was judged already
 * (path-confinement.ts), but by its text and a realpath: before it is opened, the agent's own tools can swap a
 * folder on the way for a link to `~/.ssh`, or the file for a link or a FIFO. So the file is opened first and the
 * questions are asked of the opened file: does it lie inside a workspace folder once every link on its way is
 * resolved (opened-inside.ts), and is it a regular file (fstat). Its bytes are then read from that descriptor, never
 * through the path again.
 */
import { constants, type Stats } from 'node:fs';
import { lstat, open, type FileHandle } from 'node:fs/promises';
import { openedInside } from './opened-inside';

/**
 * Read only; a link at the path not followed (the open fails); a FIFO opened at once rather than waiting for a
 * writer, which would hold one of libuv's four file-system threads (and every extension's file I/O queued behind it)
 * for as long as the agent likes. Windows has no O_NOFOLLOW: an lstat first is all it has (CHECK_LINK_FIRST).
 */
export const OPEN_WITHOUT_FOLLOWING = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
export const CHECK_LINK_FIRST = constants.O_NOFOLLOW === undefined;

/** Large enough that scanning a big file takes few turns of the loop, small enough that each turn is short. */
const READ_CHUNK_BYTES = 1024 * 1024;
/** The least read at once, for a file that grew past the size it had when opened. */
const MIN_CHUNK_BYTES = 64 * 1024;

/** A regular file inside the workspace, open: read it with `chunks`, then `close` it. */
export interface OpenedFile {
  /** Its size when opened (fstat). */
  readonly size: number;
  /** Its bytes from the start; breaking out early is fine (the file stays open until `close`). */
  chunks(): AsyncIterable<Uint8Array>;
  close(): Promise<void>;
}

export type OpenForRead =
  | { readonly kind: 'opened'; readonly file: OpenedFile }
  /**
   * Not read: `reason` completes "Refused to read <path>: ...". `outside`: the file opened lies outside the
   * workspace folders (a link on its way leads out), the user is told as of any read outside.
   */
  | { readonly kind: 'refused'; readonly reason: string; readonly outside: boolean };

/** Opens `absolutePath` (a confined real path) for reading; rejects as `open` does when it is missing or unreadable. */
export async function openForRead(absolutePath: string, realRoots: readonly string[]): Promise<OpenForRead> {
  if (CHECK_LINK_FIRST && (await lstat(absolutePath)).isSymbolicLink()) return becameLink();
  let handle: FileHandle;
  try {
    handle = await open(absolutePath, OPEN_WITHOUT_FOLLOWING);
  } catch (error) {
    // The path was resolved before: a link in its last component now was put there since.
    if (codeOf(error) === 'ELOOP') return becameLink();
    throw error;
  }
  let kept = false;
  try {
    const info = await handle.stat();
    // Asked first, so nothing is said about a file outside (not even what kind it is).
    if (!(await openedInside(handle.fd, absolutePath, info, realRoots)))
      return {
        kind: 'refused',
        reason: 'it lies outside the workspace folders once the links on its way are resolved (a folder on its way changed?)',
        outside: true,
      };
    const notRegular = notRegularFile(info);
    if (notRegular !== undefined) return { kind: 'refused', reason: notRegular, outside: false };
    kept = true;
    const opened = handle;
    return { kind: 'opened', file: { size: info.size, chunks: () => chunksOf(opened, info.size), close: () => opened.close() } };
  } finally {
    if (!kept) await handle.close().catch(() => undefined);
  }
}

function becameLink(): OpenForRead {
  return { kind: 'refused', reason: 'it is a symbolic link now (it changed after it was checked)', outside: false };
}

/** Why a file that is not a regular one is not read, or undefined for a regular file. */
function notRegularFile(info: Stats): string | undefined {
  if (info.isFile()) return undefined;
  if (info.isDirectory()) return 'it is a folder, not a file';
  if (info.isFIFO()) return 'it is a named pipe (FIFO), not a regular file';
  if (info.isSocket()) return 'it is a socket, not a regular file';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'it is a device, not a regular file';
  return 'it is not a regular file';
}

/** The file's bytes from the start, read from the descriptor; a fresh buffer each time, as readers keep slices. */
async function* chunksOf(handle: FileHandle, size: number): AsyncGenerator<Uint8Array> {
  let position = 0;
  for (;;) {
    // Sized by what is left; a file that grew since the fstat is still read in large steps.
    const buffer = Buffer.alloc(Math.min(READ_CHUNK_BYTES, Math.max(MIN_CHUNK_BYTES, size - position + 1)));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
    if (bytesRead === 0) return;
    position += bytesRead;
    yield buffer.subarray(0, bytesRead);
  }
}

function codeOf(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}
