/**
 * Extracts a tar, gzip'd or bzip2'd, with node-tar, confined to the destination. node-tar would silently skip a
 * `../` entry with a warning; we refuse the whole archive instead, so a tampered build is never half installed.
 */
import { createReadStream } from 'node:fs';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar';
import unbzip2 from 'unbzip2-stream';
import { confinedPath, PathEscapeError } from './confined-path';

export async function extractTar(file: string, destination: string, compression: 'gzip-or-none' | 'bzip2'): Promise<void> {
  let escaped: string | undefined;
  const unpack = tar.x({
    cwd: destination,
    // Permission bits as archived (the agent's executable bit), not masked by our umask.
    preserveOwner: false,
    strict: true,
    filter: (entryPath, entry) => {
      const target = confinedPath(destination, entryPath);
      const link = 'linkpath' in entry && typeof entry.linkpath === 'string' && entry.linkpath ? entry.linkpath : undefined;
      const linkEscapes =
        target && link !== undefined && !confinedPath(destination, path.relative(destination, path.resolve(path.dirname(target), link)));
      if (!target || linkEscapes) escaped ??= link ? `${entryPath} -> ${link}` : entryPath;
      return escaped === undefined;
    },
  });
  const source = createReadStream(file);
  // tar.x detects gzip by its magic bytes; bzip2 it does not know.
  await (compression === 'bzip2' ? pipeline(source, unbzip2(), unpack) : pipeline(source, unpack));
  if (escaped !== undefined) throw new PathEscapeError(escaped);
}
