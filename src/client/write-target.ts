/**
 * Whether a path may be written (or deleted) back into the workspace, judged on the disk as it is now, not on the
 * path as text: every component is `lstat`-ed from the workspace folder down. A folder that became a link is
 * followed only while it stays inside the workspace; the file itself must be a regular file of its own (not a link,
 * dangling or not, and not hard-linked elsewhere) or absent. Undo, "Restore to here" and fs/write_text_file use it
 * right before they write, so a link planted after the path was recorded (`a.txt -> ~/.bash_login`) never carries
 * a write out. No vscode here: unit-testable on real folders.
 */
import { lstat, readdir, realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { visibleText } from '../shared/visible-text';
import { isAtOrInside, isStrictlyInside } from './path-inside';

export type WriteTarget =
  | { readonly kind: 'file' }
  | { readonly kind: 'absent' }
  /** Not written: `reason` completes "it ..." / "...: <reason>" in a message to the user. */
  | { readonly kind: 'blocked'; readonly reason: string };

/** The directory lookups the check needs (node's, unless a test stands in a case-insensitive disk). */
export interface DirectoryLookup {
  lstat(target: string): Promise<{ isSymbolicLink(): boolean; isDirectory(): boolean; isFile(): boolean; nlink: number }>;
  readdir(dir: string): Promise<string[]>;
  realpath(target: string): Promise<string>;
}

const nodeLookup: DirectoryLookup = { lstat, readdir: (dir) => readdir(dir), realpath };

/** `write`: the file gets new content; `delete`: it is removed (a hard link elsewhere is then harmless). */
export async function inspectWriteTarget(
  target: string,
  roots: readonly string[],
  action: 'write' | 'delete',
  disk: DirectoryLookup = nodeLookup,
): Promise<WriteTarget> {
  if (target.includes('\0')) return blocked('its name contains a NUL character');
  if (!path.isAbsolute(target)) return blocked('the path is not absolute');
  const wanted = path.resolve(target);
  const realRoots = await Promise.all(roots.map((root) => disk.realpath(path.resolve(root)).catch(() => path.resolve(root))));
  const start = [...roots.map((r) => path.resolve(r)), ...realRoots].find((root) => isStrictlyInside(root, wanted));
  if (start === undefined) return blocked('it is outside the workspace folders');
  const names = path.relative(start, wanted).split(path.sep);
  let folder = start;
  for (const [index, name] of names.entries()) {
    const last = index === names.length - 1;
    // Names on disk are the repository's or the agent's choice; the reason is shown in notifications and pickers.
    const shown = visibleText(path.join(...names.slice(0, index + 1)));
    const child = path.join(folder, name);
    const info = await disk.lstat(child).catch((error: unknown) => (isMissing(error) ? undefined : Promise.reject(error)));
    if (info === undefined) return { kind: 'absent' };
    // A case-insensitive disk finds `Readme.md` for `README.md`: that is another file than the one recorded.
    const listed = await disk.readdir(folder);
    if (!listed.includes(name)) {
      const actual = listed.find((entry) => entry.toLowerCase() === name.toLowerCase());
      return blocked(`${shown} now exists under another case${actual === undefined ? '' : ` (${visibleText(actual)})`}`);
    }
    if (info.isSymbolicLink()) {
      if (last) return blocked(`it is now a symbolic link${(await dangling(disk, child)) ? ' whose target is missing' : ''}`);
      const resolved = await disk.realpath(child).catch(() => undefined);
      if (resolved === undefined) return blocked(`its folder ${shown} is now a symbolic link whose target is missing`);
      if (!realRoots.some((root) => isAtOrInside(root, resolved)))
        return blocked(`its folder ${shown} is now a link to outside the workspace`);
      folder = resolved;
      continue;
    }
    if (!last) {
      if (!info.isDirectory()) return blocked(`${shown} is not a folder`);
      folder = child;
      continue;
    }
    if (info.isDirectory()) return blocked('it is now a folder');
    if (!info.isFile()) return blocked('it is not a regular file');
    // Writing in place would change every other name of the same file, wherever it is.
    if (action === 'write' && info.nlink > 1)
      return blocked('it is now a hard link (another name of the same file may be outside the workspace)');
    return { kind: 'file' };
  }
  return { kind: 'absent' };
}

function blocked(reason: string): WriteTarget {
  return { kind: 'blocked', reason };
}

async function dangling(disk: DirectoryLookup, link: string): Promise<boolean> {
  return disk.realpath(link).then(
    () => false,
    () => true,
  );
}

function isMissing(error: unknown): boolean {
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
