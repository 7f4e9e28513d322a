/**
 * Reading a file for a snapshot, bounded: a file up to the store's per-file cap is read whole; a larger one is only
 * hashed, streaming, so memory stays bounded by the cap whatever size of file an agent writes.
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, lstatSync, openSync, readSync } from 'node:fs';
import type { Dirent } from 'node:fs';
import { lstat, open, readdir, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChangeFiles, ReadNow, SnapshotRead } from './change-ports';
import type { ContentStore } from './content-store';
import { ABSENT, type FileState } from './file-state';
import { CHECK_LINK_FIRST, OPEN_WITHOUT_FOLLOWING } from '../client/open-for-read';
import { openedInside, openedInsideNow } from '../client/opened-inside';

/**
 * How a snapshot opens a file: as the agent's reads do (read only, a link at the path not followed, without waiting
 * for a writer when the path turned out to be a FIFO). What the path is, is then asked of the opened file (fstat), so
 * a file swapped for a link between a check and the read cannot have the link's target read: what it points at may be
 * outside the workspace, and is never copied into storage.
 */
const OPEN_FOR_SNAPSHOT = OPEN_WITHOUT_FOLLOWING;

/**
 * The file at `absolutePath` for a snapshot: its bytes up to `maxBytes`, else its size and hash; undefined when it is
 * missing, not a regular file, or (given `realRoots`, the workspace folders' real paths) lies outside them once the
 * links on its way are resolved.
 */
export async function readForSnapshot(absolutePath: string, maxBytes: number, realRoots?: readonly string[]): Promise<SnapshotRead> {
  let handle: FileHandle | undefined;
  try {
    if (CHECK_LINK_FIRST && !(await lstat(absolutePath)).isFile()) return undefined;
    handle = await open(absolutePath, OPEN_FOR_SNAPSHOT);
    const info = await handle.stat();
    if (!info.isFile()) return undefined;
    if (realRoots && !(await openedInside(handle.fd, absolutePath, info, realRoots))) return undefined;
    if (info.size <= maxBytes) {
      const opened = handle;
      const read = await readUpTo(maxBytes, info.size, (buffer, at) =>
        opened.read(buffer, at, buffer.length - at, at).then((done) => done.bytesRead),
      );
      if (read !== undefined) return read;
    }
    const hash = createHash('sha256');
    let size = 0;
    for await (const chunk of handle.createReadStream({ start: 0, autoClose: false })) {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
    return { size, hash: hash.digest('hex') };
  } catch {
    return undefined;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * `readForSnapshot` on the event loop, for a file no larger than `maxBytes` (undefined for a larger one: it is read
 * the usual way). For the few files a tool call names just before it runs (baseline.ts): an async read queues in
 * the file-system thread pool and can come after the agent's write. The modification time is the opened file's,
 * taken after the read, so a write that lands after it shows as a later time.
 */
export function readSmallNow(absolutePath: string, maxBytes: number, realRoots?: readonly string[]): ReadNow | undefined {
  let descriptor: number | undefined;
  try {
    if (CHECK_LINK_FIRST && !lstatSync(absolutePath).isFile()) return { read: undefined, modifiedAfter: undefined };
    descriptor = openSync(absolutePath, OPEN_FOR_SNAPSHOT);
    const info = fstatSync(descriptor);
    if (!info.isFile()) return { read: undefined, modifiedAfter: undefined };
    // Too large to read here: the usual read asks everything again.
    if (info.size > maxBytes) return undefined;
    if (realRoots && !openedInsideNow(descriptor, absolutePath, info, realRoots)) return { read: undefined, modifiedAfter: undefined };
    const opened = descriptor;
    const read = readUpToNow(maxBytes, info.size, (buffer, at) => readSync(opened, buffer, at, buffer.length - at, at));
    // Grown past the cap since the fstat: too big to have been read here after all.
    if (read === undefined) return undefined;
    return { read, modifiedAfter: fstatSync(descriptor).mtimeMs };
  } catch {
    return { read: undefined, modifiedAfter: undefined };
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

/** Fills `buffer` from `at` on; how many bytes it read (0 at the end of the file). */
type ReadInto = (buffer: Buffer, at: number) => number;

/**
 * The whole file, read through `readInto` into a buffer sized by what fstat said (`expected`) plus one byte to see
 * that it grew meanwhile, enlarged while it keeps growing; undefined once it holds more than `maxBytes`.
 */
function readUpToNow(maxBytes: number, expected: number, readInto: ReadInto): Buffer | undefined {
  let buffer: Buffer = Buffer.alloc(Math.min(expected, maxBytes) + 1);
  let filled = 0;
  for (;;) {
    const bytesRead = readInto(buffer, filled);
    if (bytesRead === 0) return buffer.subarray(0, filled);
    filled += bytesRead;
    if (filled > maxBytes) return undefined;
    if (filled === buffer.length) buffer = enlarged(buffer, maxBytes);
  }
}

/** `readUpToNow` with reads that resolve later. */
async function readUpTo(
  maxBytes: number,
  expected: number,
  readInto: (buffer: Buffer, at: number) => Promise<number>,
): Promise<Buffer | undefined> {
  let buffer: Buffer = Buffer.alloc(Math.min(expected, maxBytes) + 1);
  let filled = 0;
  for (;;) {
    const bytesRead = await readInto(buffer, filled);
    if (bytesRead === 0) return buffer.subarray(0, filled);
    filled += bytesRead;
    if (filled > maxBytes) return undefined;
    if (filled === buffer.length) buffer = enlarged(buffer, maxBytes);
  }
}

/** Twice the room (at most the cap and one byte), what was read kept. */
function enlarged(buffer: Buffer, maxBytes: number): Buffer {
  const larger = Buffer.alloc(Math.min(buffer.length * 2, maxBytes + 1));
  buffer.copy(larger);
  return larger;
}

/** The file's modification time, or undefined when it is missing. */
export async function modifiedAt(absolutePath: string): Promise<number | undefined> {
  try {
    return (await stat(absolutePath)).mtimeMs;
  } catch {
    return undefined;
  }
}

/**
 * When the file's inode last changed (ctime: created, written, renamed, chmod-ed), or undefined when missing. Unlike
 * the modification time, no tool can set it back (`cp -p`, `tar x`, `touch -d` keep or set old mtimes, not ctimes).
 */
export async function statusChangedAt(absolutePath: string): Promise<number | undefined> {
  try {
    return (await stat(absolutePath)).ctimeMs;
  } catch {
    return undefined;
  }
}

/**
 * When the file was made (its birth time), or undefined when missing or when the filesystem does not record it
 * (Node reports 0 then).
 */
export async function bornAt(absolutePath: string): Promise<number | undefined> {
  try {
    const born = (await stat(absolutePath)).birthtimeMs;
    return born > 0 ? born : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The files in a folder (and, `recursive`, its subfolders), links not followed, at most `limit`, without the ones
 * `skip` names; none when the path is not a folder.
 */
export async function filesInFolder(
  absolutePath: string,
  limit: number,
  skip: (path: string) => boolean,
  recursive = true,
): Promise<string[]> {
  const found: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (found.length >= limit) return;
      const full = join(folder, entry.name);
      if (skip(full)) continue;
      if (entry.isDirectory()) {
        if (recursive) await walk(full);
      } else if (entry.isFile()) found.push(full);
    }
  };
  try {
    if (!(await lstat(absolutePath)).isDirectory()) return [];
  } catch {
    return [];
  }
  await walk(absolutePath);
  return found;
}

/** The file's state now: stored when it fits, else by hash only. */
export async function snapshotFile(files: ChangeFiles, store: ContentStore, absolutePath: string): Promise<FileState> {
  return stateOfRead(store, await files.read(absolutePath, store.maxFileBytes));
}

/** What was read, as a state (stored when it fits). */
export async function stateOfRead(store: ContentStore, read: SnapshotRead): Promise<FileState> {
  if (read === undefined) return ABSENT;
  if (read instanceof Uint8Array) return store.put(read);
  return { kind: 'file', hash: read.hash, size: read.size, stored: false, binary: false };
}
