/**
 * Installs one binary-distribution target: download (progress, cancel, checksum), unpack into a scratch folder
 * next to the final one, make `cmd` executable, then move it in place. Any failure removes the scratch folder,
 * so a version folder exists only when it is complete.
 */
import { randomBytes } from 'node:crypto';
import { chmod, copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { archiveKind } from './archive-kind';
import { confinedPath } from './confined-path';
import { downloadToFile, type DownloadProgress } from './download';
import { extractTar } from './extract-tar';
import { extractZip } from './extract-zip';
import type { BinaryTarget } from './registry-schema';

export interface BinaryInstallOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: DownloadProgress) => void;
  readonly fetch?: typeof fetch;
}

export interface InstalledBinary {
  readonly folder: string;
  /** Absolute path of `cmd` inside the folder. */
  readonly command: string;
}

export async function installBinary(target: BinaryTarget, folder: string, options: BinaryInstallOptions = {}): Promise<InstalledBinary> {
  const kind = archiveKind(target.archive);
  const parent = path.dirname(folder);
  await mkdir(parent, { recursive: true });
  const scratch = path.join(parent, `.partial-${path.basename(folder)}-${randomBytes(4).toString('hex')}`);
  const download = `${scratch}.download`;
  try {
    await mkdir(scratch);
    await downloadToFile(target.archive, download, {
      ...(target.sha256 ? { sha256: target.sha256 } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    const commandInScratch = confinedPath(scratch, target.cmd);
    if (!commandInScratch) throw new Error(`The registry's cmd "${target.cmd}" points outside the install folder.`);
    if (kind === 'zip') await extractZip(download, scratch);
    else if (kind === 'tar' || kind === 'tar.bz2') await extractTar(download, scratch, kind === 'tar.bz2' ? 'bzip2' : 'gzip-or-none');
    else {
      // A raw binary is the command itself.
      await mkdir(path.dirname(commandInScratch), { recursive: true });
      await copyFile(download, commandInScratch);
    }
    const found = await stat(commandInScratch).catch(() => undefined);
    if (!found?.isFile()) throw new Error(`The archive ${target.archive} has no "${target.cmd}", the command the registry says to run.`);
    await chmod(commandInScratch, found.mode | 0o755);
    await rm(folder, { recursive: true, force: true });
    await rename(scratch, folder);
    return { folder, command: path.join(folder, path.relative(scratch, commandInScratch)) };
  } catch (error) {
    await rm(scratch, { recursive: true, force: true });
    throw error;
  } finally {
    await rm(download, { force: true });
  }
}
