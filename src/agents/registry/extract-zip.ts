/** Extracts a zip with yauzl, confined to the destination, keeping Unix permission bits of Unix-made entries. */
import { createWriteStream } from 'node:fs';
import { chmod, mkdir, symlink } from 'node:fs/promises';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import * as yauzl from 'yauzl';
import { confinedPath, PathEscapeError } from './confined-path';

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const MADE_ON_UNIX = 3;

export async function extractZip(file: string, destination: string): Promise<void> {
  const zip = await openZip(file);
  try {
    for (;;) {
      const entry = await nextEntry(zip);
      if (!entry) return;
      const target = confinedPath(destination, entry.fileName);
      if (!target) throw new PathEscapeError(entry.fileName);
      if (entry.fileName.endsWith('/')) {
        await mkdir(target, { recursive: true });
        continue;
      }
      await mkdir(path.dirname(target), { recursive: true });
      const unixMode = entry.versionMadeBy >> 8 === MADE_ON_UNIX ? (entry.externalFileAttributes >>> 16) & 0xffff : 0;
      const stream = await openEntry(zip, entry);
      if ((unixMode & S_IFMT) === S_IFLNK) {
        const chunks: Buffer[] = [];
        for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
        const linkTarget = Buffer.concat(chunks).toString('utf8');
        if (!confinedPath(destination, path.relative(destination, path.resolve(path.dirname(target), linkTarget))))
          throw new PathEscapeError(`${entry.fileName} -> ${linkTarget}`);
        await symlink(linkTarget, target);
        continue;
      }
      await pipeline(stream, createWriteStream(target));
      if (unixMode & 0o777) await chmod(target, unixMode & 0o777);
    }
  } catch (error) {
    // yauzl refuses `../` and absolute names itself, before we see the entry; the user gets the same message.
    const unsafe = error instanceof Error && /invalid relative path|absolute path/i.exec(error.message);
    if (unsafe && error instanceof Error) throw new PathEscapeError(error.message.replace(/^.*?:\s*/, ''));
    throw error;
  } finally {
    zip.close();
  }
}

function openZip(file: string): Promise<yauzl.ZipFile> {
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

function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<NodeJS.ReadableStream> {
  return new Promise((resolve, reject) => zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream))));
}
