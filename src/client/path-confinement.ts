/**
 * Decides whether a path an agent names may be touched: it must lie inside a workspace folder after `..` and
 * symlinks are resolved, so neither `/ws/../etc/passwd` nor a link `/ws/out -> /etc` gets out. A path that does
 * not exist yet (a file the agent creates) is judged by its nearest existing ancestor's real location; a dangling
 * link is not "missing" (writing to it would create its target, wherever that is) and is refused, as is a NUL.
 * No vscode here: the roots are passed in, so this is unit-testable.
 */
import { lstat, realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { isAtOrInside } from './path-inside';

export type Confinement =
  | { readonly allowed: true; readonly realPath: string; readonly root: string }
  | { readonly allowed: false; readonly reason: string };

export async function confinePath(requested: string, workspaceRoots: readonly string[]): Promise<Confinement> {
  return confineToRealRoots(requested, await realRootsOf(workspaceRoots));
}

/** The workspace folders' real locations, once for a batch of paths to judge with `confineToRealRoots`. */
export async function realRootsOf(workspaceRoots: readonly string[]): Promise<readonly string[]> {
  return Promise.all(workspaceRoots.map(async (root) => (await realPathAllowingMissing(path.resolve(root))) ?? path.resolve(root)));
}

/** `confinePath` against roots already resolved by `realRootsOf`. */
export async function confineToRealRoots(requested: string, realRoots: readonly string[]): Promise<Confinement> {
  if (!path.isAbsolute(requested)) {
    return { allowed: false, reason: `path must be absolute, got "${requested}"` };
  }
  if (requested.includes('\0')) {
    return { allowed: false, reason: 'the path contains a NUL character' };
  }
  if (realRoots.length === 0) {
    return { allowed: false, reason: 'no workspace folder is open' };
  }
  const real = await realPathAllowingMissing(path.resolve(requested));
  if (real === undefined) {
    return { allowed: false, reason: `${requested} goes through a symbolic link whose target is missing` };
  }
  for (const realRoot of realRoots) {
    if (isAtOrInside(realRoot, real)) return { allowed: true, realPath: real, root: realRoot };
  }
  return { allowed: false, reason: `${requested} is outside the workspace folders` };
}

/**
 * realpath of the path, or of its nearest existing ancestor joined with the missing rest; undefined when a component
 * exists but cannot be resolved (a dangling link, a loop).
 */
async function realPathAllowingMissing(absolute: string): Promise<string | undefined> {
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      const real = await realpath(current);
      return missing.length ? path.join(real, ...missing.reverse()) : real;
    } catch {
      const present = await lstat(current).then(
        () => true,
        () => false,
      );
      if (present) return undefined;
      const parent = path.dirname(current);
      if (parent === current) return absolute;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}
