/**
 * The workspace's own files a workspace definition names on its command line (`node scripts/agent.js`,
 * `./tools/agent.sh`, `--config=agent.json`), with a hash of each one's content. The approval of the definition
 * covers them: approved once, `git pull` could otherwise put anything in `scripts/agent.js` and it would run without
 * asking, since the definition's text did not change. Only what the command line names is covered, not what those
 * files load in turn.
 */
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import * as path from 'node:path';

export interface RunFile {
  /** As the command line names it, resolved against the workspace folder. */
  readonly path: string;
  /** SHA-256 of its content; size and modification time for a file too large to read at each start. */
  readonly content: string;
}

/** Larger files (an agent's own binary committed to the repository) are known by size and time, not read. */
const HASHED_BYTES = 64 * 1024 * 1024;

/**
 * Each string of the command line that names a regular file inside a workspace folder (relative names resolved
 * against the first folder, the agent's working folder). A bare command (`node`, `npx`) is looked up on PATH, not in
 * the workspace, so it is not one of them; a bare argument (`agent.js`) is.
 */
export async function workspaceRunFiles(command: string, args: readonly string[], folders: readonly string[]): Promise<readonly RunFile[]> {
  const [cwd] = folders;
  if (cwd === undefined) return [];
  const candidates = new Set<string>();
  if (command.includes('/') || command.includes('\\')) candidates.add(command);
  for (const arg of args) {
    candidates.add(arg);
    // `--config=agent.json`: the value after the first `=`.
    const value = arg.slice(arg.indexOf('=') + 1);
    if (arg.includes('=') && value !== '') candidates.add(value);
  }
  const files: RunFile[] = [];
  for (const candidate of candidates) {
    const file = await workspaceFile(candidate, cwd, folders);
    if (file) files.push(file);
  }
  return files;
}

async function workspaceFile(candidate: string, cwd: string, folders: readonly string[]): Promise<RunFile | undefined> {
  if (candidate === '' || candidate.includes('\0')) return undefined;
  const resolved = path.resolve(cwd, candidate);
  if (!folders.some((folder) => isInside(resolved, folder))) return undefined;
  // What runs is what the name leads to: a link is followed, and its target's content is what is hashed (a pull
  // that points the link elsewhere changes that content too).
  const real = await realpath(resolved).catch(() => undefined);
  const content = real === undefined ? undefined : await contentOf(real);
  return content === undefined ? undefined : { path: resolved, content };
}

/** client/path-inside.ts's rule (`..cache` is inside), which this layer sits below and cannot import. */
function isInside(file: string, folder: string): boolean {
  const relative = path.relative(folder, file);
  return relative !== '' && relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

/**
 * A regular file's SHA-256 (size and time above HASHED_BYTES), read from the one handle its type was checked on;
 * opened without blocking, so a FIFO put in its place is refused instead of waiting for a writer forever.
 */
async function contentOf(file: string): Promise<string | undefined> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK).catch(() => undefined);
  if (!handle) return undefined;
  try {
    const info = await handle.stat();
    if (!info.isFile()) return undefined;
    if (info.size > HASHED_BYTES) return `size ${info.size}, modified ${info.mtimeMs}`;
    const hash = createHash('sha256');
    for await (const chunk of handle.createReadStream({ start: 0, autoClose: false })) hash.update(chunk as Buffer);
    return hash.digest('hex');
  } catch {
    return undefined;
  } finally {
    await handle.close().catch(() => undefined);
  }
}
