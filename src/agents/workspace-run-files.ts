/**
 * The workspace's own files a workspace definition names on its command line (`node scripts/agent.js`,
 * `./tools/agent.sh`, `--config=agent.json`), with a hash of each one's content. The approval of the definition
 * covers them: approved once, `git pull` could otherwise put anything in `scripts/agent.js` and it would run without
 * asking, since the definition's text did not change. Only what the command line names is covered, not what those
 * files load in turn.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
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
  const info = real === undefined ? undefined : await stat(real).catch(() => undefined);
  if (real === undefined || !info?.isFile()) return undefined;
  const content = info.size > HASHED_BYTES ? `size ${info.size}, modified ${info.mtimeMs}` : await sha256Of(real);
  return content === undefined ? undefined : { path: resolved, content };
}

function isInside(file: string, folder: string): boolean {
  const relative = path.relative(folder, file);
  return relative !== '' && relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

async function sha256Of(file: string): Promise<string | undefined> {
  const hash = createHash('sha256');
  try {
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  } catch {
    return undefined;
  }
  return hash.digest('hex');
}
