/** Where a session's files live, and the one way snapshot and index files are replaced: atomically. */
import { promises as fs, renameSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

export const SNAPSHOT_FILE = 'snapshot.json';
const LOG_NAME = /^log-(\d+)\.ndjson$/;

export function sessionsDir(root: string): string {
  return path.join(root, 'sessions');
}

/** Ids are ours (UUIDs); anything else is refused rather than joined into a path. */
const SESSION_ID = /^[A-Za-z0-9-]{1,64}$/;

export function sessionDir(root: string, id: string): string {
  if (!SESSION_ID.test(id)) throw new Error(`not a stored session id: ${JSON.stringify(id)}`);
  return path.join(sessionsDir(root), id);
}

export function logFile(dir: string, generation: number): string {
  return path.join(dir, `log-${generation}.ndjson`);
}

/** The session's log generations, oldest first. */
export async function logGenerations(dir: string): Promise<number[]> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
  return names
    .map((name) => LOG_NAME.exec(name)?.[1])
    .filter((digits): digits is string => digits !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

/**
 * Written to a temporary name, flushed to disk, then renamed over the old file: a reader (or a crash) sees the
 * old file or the new one, never half of one. The temporary name is unique so two writers never share it.
 */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  const handle = await fs.open(temporary, 'w');
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(temporary, file);
}

/** For deactivate, when nothing asynchronous will run again. */
export function writeFileAtomicSync(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(temporary, text, { flush: true });
  renameSync(temporary, file);
}

export async function readFileIfExists(file: string): Promise<Buffer | undefined> {
  try {
    return await fs.readFile(file);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

function isMissing(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ENOENT';
}

/** Temporaries a killed writer left mid-compaction; only the session's (single) writer calls this. */
export async function removeStaleTemporaries(dir: string): Promise<void> {
  const names = await fs.readdir(dir).catch(() => []);
  await Promise.all(names.filter((name) => name.endsWith('.tmp')).map((name) => fs.rm(path.join(dir, name), { force: true })));
}
