/** Where an archive entry lands, or undefined when its name would put it outside the install folder (zip-slip). */
import * as path from 'node:path';

export function confinedPath(root: string, entryName: string): string | undefined {
  // Archives use '/', Windows-made zips sometimes '\'; both separate segments.
  const normalized = entryName.replace(/\\/g, '/');
  if (normalized.startsWith('/') || /^[a-zA-Z]:/.test(normalized)) return undefined;
  const target = path.resolve(root, normalized);
  const relative = path.relative(root, target);
  if (relative === '') return target;
  if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) return undefined;
  return target;
}

export class PathEscapeError extends Error {
  constructor(readonly entryName: string) {
    super(`The archive is unsafe: its entry "${entryName}" would be written outside the install folder; nothing was installed.`);
  }
}
