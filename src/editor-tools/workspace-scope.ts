/**
 * Nothing outside the workspace folders: a path an agent names is confined as an fs read is (after `..` and
 * symlinks, client/path-confinement), and a result pointing outside (a library's .d.ts in the editor's install, a
 * file behind a symlink out) is left out and counted, never shown.
 */
import * as path from 'node:path';
import { lstat } from 'node:fs/promises';
import { confinePath, confineToRealRoots, realRootsOf, type Confinement } from '../client/path-confinement';

export class WorkspaceScope {
  constructor(private readonly roots: () => readonly string[]) {}

  /** The real path of a file an agent names (absolute, or relative to the first workspace folder); throws if outside. */
  async confine(requested: string): Promise<string> {
    const roots = this.roots();
    const absolute = path.isAbsolute(requested) || roots[0] === undefined ? requested : path.join(roots[0], requested);
    const verdict = await confinePath(absolute, roots);
    if (!verdict.allowed) throw new Error(`Refused: ${verdict.reason}`);
    return verdict.realPath;
  }

  /** The items whose path is inside, and how many were left out. */
  async keepInside<T extends { readonly path: string }>(items: readonly T[]): Promise<{ items: T[]; outside: number }> {
    const verdicts = await this.judge(items.map((item) => item.path));
    const kept = items.filter((_, index) => verdicts[index] === true);
    return { items: kept, outside: items.length - kept.length };
  }

  /**
   * Whether each path is inside, in order. Each distinct path is judged once per call (references name one file
   * many times), never remembered across calls: a link may change in between. A file that is no symlink is where
   * its folder's real path says, so each folder is resolved once per call and each file costs one lstat (realpath
   * walks every component). Callers judge one page at a time (inside-page.ts), not everything the services found.
   */
  judge = async (paths: readonly string[]): Promise<boolean[]> => {
    const roots = await realRootsOf(this.roots());
    const folders = new Map<string, Promise<boolean>>();
    const folderInside = (folder: string): Promise<boolean> => {
      let verdict = folders.get(folder);
      if (!verdict) {
        verdict = allowed(confineToRealRoots(folder, roots));
        folders.set(folder, verdict);
      }
      return verdict;
    };
    const judgeOne = async (candidate: string): Promise<boolean> => {
      if (!path.isAbsolute(candidate) || candidate.includes('\0')) return false;
      const plainFile = await lstat(candidate).then(
        (stats) => !stats.isSymbolicLink(),
        () => false,
      );
      return plainFile ? folderInside(path.dirname(candidate)) : allowed(confineToRealRoots(candidate, roots));
    };
    const verdicts = new Map<string, Promise<boolean>>();
    for (const candidate of paths) if (!verdicts.has(candidate)) verdicts.set(candidate, judgeOne(candidate));
    return Promise.all(paths.map((candidate) => verdicts.get(candidate) ?? Promise.resolve(false)));
  };
}

const allowed = (confinement: Promise<Confinement>): Promise<boolean> =>
  confinement.then(
    (result) => result.allowed,
    () => false,
  );
