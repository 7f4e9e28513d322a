/**
 * Extracts a tar (plain, gzip'd or bzip2'd) into a ConfinedTree: node-tar only parses, every write is ours and
 * judged on disk. We decompress ourselves so that gzip and bzip2 take the same path; the tree charges the unpack
 * budget as bytes land, and a refusal stops the stream at once (the rest of the archive is never read).
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type * as tar from 'tar';
import { unsafeEntry } from './confined-path';
import type { ConfinedTree } from './confined-tree';
import { asError } from '../../shared/error-text';

export async function extractTar(file: string, tree: ConfinedTree, compression: 'gzip-or-none' | 'bzip2'): Promise<void> {
  // Loaded on the first install (esbuild.mjs: lazy parts).
  const { tar, unbzip2 } = await import('./archive-libs');
  const decompress = compression === 'bzip2' ? unbzip2() : await gunzipIfGzip(file);
  const source = createReadStream(file);
  let failure: unknown;
  let work: Promise<void> = Promise.resolve();
  const parser = new tar.Parser({
    strict: true,
    onReadEntry: (entry) => {
      // Entries are handled one after another; the parser waits while an entry's body is not read.
      work = work.then(async () => {
        if (failure !== undefined) return void entry.resume();
        try {
          await writeEntry(tree, entry);
        } catch (error) {
          failure = error;
          entry.resume();
          source.destroy(asError(error));
        }
      });
    },
  });
  try {
    await (decompress ? pipeline(source, decompress, parser) : pipeline(source, parser));
  } catch (error) {
    failure ??= error;
  }
  await work;
  if (failure !== undefined) throw failure;
}

async function writeEntry(tree: ConfinedTree, entry: tar.ReadEntry): Promise<void> {
  switch (entry.type) {
    case 'File':
    case 'OldFile':
    case 'ContiguousFile':
      return tree.file(entry.path, entry.mode ?? 0o644, entry);
    case 'Directory':
      entry.resume();
      return tree.directory(entry.path, entry.mode ?? 0o755);
    case 'SymbolicLink':
      entry.resume();
      return tree.symlink(entry.path, entry.linkpath ?? '');
    case 'Link':
      entry.resume();
      return tree.hardlink(entry.path, entry.linkpath ?? '');
    case 'FIFO':
    case 'CharacterDevice':
    case 'BlockDevice':
      throw unsafeEntry(entry.path, 'is a device or pipe, which no agent needs');
    default:
      throw unsafeEntry(entry.path, `is a tar entry of kind ${entry.type}, which no agent needs`);
  }
}

/**
 * `.tar.gz`, `.tgz` and `.tar` share a kind: gzip is told by its magic bytes, as tar itself does. (unbzip2 is a
 * `through` stream, typed as neither Node class: hence the plain ReadWriteStream.)
 */
async function gunzipIfGzip(file: string): Promise<NodeJS.ReadWriteStream | undefined> {
  const handle = await open(file, 'r');
  try {
    const magic = Buffer.alloc(2);
    await handle.read(magic, 0, 2, 0);
    return magic[0] === 0x1f && magic[1] === 0x8b ? createGunzip() : undefined;
  } finally {
    await handle.close();
  }
}
