/**
 * Where a file link the agent wrote (in its markdown, a tool call's location) leads, before the editor opens it:
 * a path on another machine or with a NUL is never opened; a relative path is the workspace's; a path whose real
 * location (after `..` and symlinks) is outside every workspace folder is the user's to confirm, never opened
 * silently. Editor-free: the roots are passed in.
 */
import { lstat, realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { confinePath } from '../client/path-confinement';
import { refusedLinkPath } from '../shared/link-paths';

export type LinkDestination =
  | { readonly kind: 'inside'; readonly path: string }
  | { readonly kind: 'outside'; readonly path: string }
  | { readonly kind: 'refused'; readonly reason: string };

export async function linkDestination(requested: string, workspaceRoots: readonly string[]): Promise<LinkDestination> {
  const refused = refusedLinkPath(requested);
  if (refused) return { kind: 'refused', reason: refused };
  const root = workspaceRoots[0];
  if (!path.isAbsolute(requested) && root === undefined)
    return { kind: 'refused', reason: 'no workspace folder is open to find a relative path in' };
  const absolute = root === undefined ? path.resolve(requested) : path.resolve(root, requested);
  const confinement = await confinePath(absolute, workspaceRoots);
  if (!confinement.allowed || (await danglingLink(absolute))) return { kind: 'outside', path: absolute };
  return { kind: 'inside', path: absolute };
}

/** A symlink whose target does not exist: where it leads cannot be judged, and a save would write through it. */
async function danglingLink(absolute: string): Promise<boolean> {
  const stat = await lstat(absolute).catch(() => undefined);
  if (!stat?.isSymbolicLink()) return false;
  return realpath(absolute).then(
    () => false,
    () => true,
  );
}
