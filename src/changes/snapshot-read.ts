/**
 * Reading a file for a snapshot, bounded: a file up to the store's per-file cap is read whole; a larger one is only
 * hashed, streaming, so memory stays bounded by the cap whatever size of file an agent writes.
 */
import { createHash } from 'node:crypto';
import { createReadStream, lstatSync, readFileSync, statSync } from 'node:fs';
import type { Dirent } from 'node:fs';
import { lstat, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChangeFiles, ReadNow, SnapshotRead } from './change-ports';
import type { ContentStore } from './content-store';
import { ABSENT, type FileState } from './file-state';

export async function readForSnapshot(absolutePath: string, maxBytes: number): Promise<SnapshotRead> {
  try {
    // A link is not followed: what it points at may be outside the workspace, and is never copied into storage.
    const info = await lstat(absolutePath);
    if (!info.isFile()) return undefined;
    if (info.size <= maxBytes) return await readFile(absolutePath);
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(absolutePath)) hash.update(chunk as Buffer);
    return { size: info.size, hash: hash.digest('hex') };
  } catch {
    return undefined;
  }
}

/**
 * `readForSnapshot` on the event loop, for a file no larger than `maxBytes` (undefined for a larger one: it is read
 * the usual way). For the few files a tool call names just before it runs (baseline.ts): an async read queues in
 * the file-system thread pool and can come after the agent's write.
 */
export function readSmallNow(absolutePath: string, maxBytes: number): ReadNow | undefined {
  try {
    const info = lstatSync(absolutePath);
    if (!info.isFile()) return { read: undefined, modifiedAfter: undefined };
    if (info.size > maxBytes) return undefined;
    const read = readFileSync(absolutePath);
    // Grown since the lstat: too big to have been read here after all.
    if (read.length > maxBytes) return undefined;
    return { read, modifiedAfter: statSync(absolutePath, { throwIfNoEntry: false })?.mtimeMs };
  } catch {
    return { read: undefined, modifiedAfter: undefined };
  }
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
