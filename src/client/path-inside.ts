/**
 * Whether one absolute path lies under another, by their text: the callers resolve links first where that matters.
 * One rule for the agent's reads and writes (path-confinement.ts, write-target.ts), the files opened for snapshots
 * and for the agent's reads (opened-inside.ts) and the files a turn reports (editor/change-files.ts). A name that
 * only begins with two dots (`..cache`, `..env.local`) is a name like any other, inside.
 */
import * as path from 'node:path';

/** `candidate`'s path from `root` ('' for `root` itself) if it is `root` or lies under it, else undefined. */
export function pathInside(root: string, candidate: string): string | undefined {
  const relative = path.relative(root, candidate);
  if (relative === '') return relative;
  return relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative) ? relative : undefined;
}

/** `candidate` is `root` itself or lies under it. */
export function isAtOrInside(root: string, candidate: string): boolean {
  return pathInside(root, candidate) !== undefined;
}

/** `candidate` lies under `root`, and is not `root` itself. */
export function isStrictlyInside(root: string, candidate: string): boolean {
  return !!pathInside(root, candidate);
}
