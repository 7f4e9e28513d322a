/**
 * Nothing outside the workspace folders: a path an agent names is confined as an fs read is (after `..` and
 * symlinks, client/path-confinement), and a result pointing outside (a library's .d.ts in the editor's install, a
 * file behind a symlink out) is left out and counted, never shown.
 */
import * as path from 'node:path';
import { confinePath } from '../client/path-confinement';

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

  /**
   * The items whose path is inside, and how many were left out. Each distinct path is judged once per call
   * (references name one file many times), never remembered across calls: a link may change in between.
   */
  async keepInside<T extends { readonly path: string }>(items: readonly T[]): Promise<{ items: T[]; outside: number }> {
    const roots = this.roots();
    const verdicts = new Map<string, Promise<boolean>>();
    for (const { path: candidate } of items)
      if (!verdicts.has(candidate))
        verdicts.set(
          candidate,
          confinePath(candidate, roots).then(
            (result) => result.allowed,
            () => false,
          ),
        );
    const inside = new Map<string, boolean>();
    for (const [candidate, verdict] of verdicts) inside.set(candidate, await verdict);
    const kept = items.filter((item) => inside.get(item.path) === true);
    return { items: kept, outside: items.length - kept.length };
  }
}
