/**
 * Extracts a zip with yauzl into a ConfinedTree (which judges every entry on disk and charges the unpack budget),
 * keeping Unix permission bits and symbolic links of Unix-made entries.
 */
import type * as yauzl from 'yauzl';
import { unsafeEntry } from './confined-path';
import type { ConfinedTree } from './confined-tree';

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const MADE_ON_UNIX = 3;
/** A link's target is a path; PATH_MAX is 4096 on Linux. */
const MAX_LINK_TARGET_BYTES = 4096;

export async function extractZip(file: string, tree: ConfinedTree): Promise<void> {
  const zip = await openZip(file);
  try {
    for (;;) {
      const entry = await nextEntry(zip);
      if (!entry) return;
      const unixMode = entry.versionMadeBy >> 8 === MADE_ON_UNIX ? (entry.externalFileAttributes >>> 16) & 0xffff : 0;
      if (entry.fileName.endsWith('/')) {
        await tree.directory(entry.fileName, unixMode || 0o755);
        continue;
      }
      const stream = await openEntry(zip, entry);
      if ((unixMode & S_IFMT) === S_IFLNK) {
        await tree.symlink(entry.fileName, await linkTarget(stream, entry.fileName));
        continue;
      }
      await tree.file(entry.fileName, unixMode & 0o777 || 0o644, stream);
    }
  } catch (error) {
    // yauzl refuses absolute names, `..` and backslashes itself, before we see the entry: the same message follows.
    const refused =
      error instanceof Error && /^(absolute path|invalid relative path|invalid characters in fileName): (.*)$/s.exec(error.message);
    if (refused)
      throw unsafeEntry(
        refused[2]!,
        refused[1] === 'invalid characters in fileName'
          ? 'has a name with a backslash, a colon or a NUL'
          : 'would be written outside the install folder',
      );
    throw error;
  } finally {
    zip.close();
  }
}

async function linkTarget(stream: NodeJS.ReadableStream, name: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = Buffer.from(chunk as Uint8Array);
    size += bytes.length;
    if (size > MAX_LINK_TARGET_BYTES) throw unsafeEntry(name, 'is a link with a target longer than any path');
    chunks.push(bytes);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function openZip(file: string): Promise<yauzl.ZipFile> {
  // Loaded on the first install (esbuild.mjs: lazy parts).
  const { yauzl } = await import('./archive-libs');
  return new Promise((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false, decodeStrings: true, validateEntrySizes: true }, (error, zip) =>
      error ? reject(error) : resolve(zip),
    ),
  );
}

function nextEntry(zip: yauzl.ZipFile): Promise<yauzl.Entry | undefined> {
  return new Promise((resolve, reject) => {
    const cleanup = (): void => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      zip.off('error', onError);
    };
    const onEntry = (entry: yauzl.Entry): void => (cleanup(), resolve(entry));
    const onEnd = (): void => (cleanup(), resolve(undefined));
    const onError = (error: Error): void => (cleanup(), reject(error));
    zip.on('entry', onEntry);
    zip.on('end', onEnd);
    zip.on('error', onError);
    zip.readEntry();
  });
}

function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<NodeJS.ReadableStream & AsyncIterable<Buffer>> {
  return new Promise((resolve, reject) => zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream))));
}
