/**
 * Installs one binary-distribution target: refuse a plain-http URL, download to a file next to a fresh unpack
 * folder (progress, cancel, size cap), verify the checksum before anything is unpacked, unpack into that folder
 * through a ConfinedTree (every entry judged on disk, the unpack budget charged as bytes land), make `cmd`
 * executable, then move the folder in place. Any failure removes the unpack folder and the download, so a version
 * folder exists only when it is complete; leftovers of a crash go at the next start-up (partial-folders.ts).
 */
import { createReadStream } from 'node:fs';
import { chmod, lstat, mkdir, realpath, rename, rm, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { archiveKind } from './archive-kind';
import { confinedPath, UnsafeArchiveError } from './confined-path';
import { ConfinedTree } from './confined-tree';
import { assertSecureUrl, downloadToFile, type DownloadProgress } from './download';
import { errorText } from './error-text';
import { extractTar } from './extract-tar';
import { extractZip } from './extract-zip';
import { ArchiveTooBigError, DEFAULT_EXTRACTION_LIMITS, UnpackBudget, type ExtractionLimits } from './extraction-limits';
import { partialName } from './partial-folders';
import type { BinaryTarget } from './registry-schema';

export interface BinaryInstallOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: DownloadProgress) => void;
  readonly fetch?: typeof fetch;
  /** Plain http allowed: only for a registry the user set themselves. */
  readonly allowInsecure?: boolean;
  /** Something the user should know about an install that went ahead (no checksum). */
  readonly onWarning?: (text: string) => void;
  readonly limits?: Partial<ExtractionLimits>;
}

export interface InstalledBinary {
  readonly folder: string;
  /** Absolute path of `cmd` inside the folder. */
  readonly command: string;
}

/** `root`: the folder all installs live under; every folder from it down to `folder`'s parent must be real. */
export async function installBinary(
  target: BinaryTarget,
  root: string,
  folder: string,
  options: BinaryInstallOptions = {},
): Promise<InstalledBinary> {
  assertSecureUrl(target.archive, options.allowInsecure ?? false);
  const kind = archiveKind(target.archive);
  const parent = path.dirname(folder);
  await realFolders(root, parent);
  const scratch = path.join(parent, partialName(path.basename(folder)));
  const download = `${scratch}.download`;
  try {
    // Fresh: mkdir without `recursive` fails if the name exists, so nothing unpacks into what was there.
    await mkdir(scratch);
    await downloadToFile(target.archive, download, {
      ...(target.sha256 ? { sha256: target.sha256 } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
      allowInsecure: options.allowInsecure ?? false,
    });
    const realScratch = await realpath(scratch);
    if (!confinedPath(realScratch, target.cmd)) throw new Error(`The registry's cmd "${target.cmd}" points outside the install folder.`);
    const budget = new UnpackBudget({ ...DEFAULT_EXTRACTION_LIMITS, ...options.limits }, (await stat(download)).size);
    const tree = new ConfinedTree(realScratch, budget);
    await unpack(kind, download, tree, target.cmd, target.archive);
    await makeExecutable(realScratch, target.cmd, target.archive);
    // A link in the version's place is removed, not followed; the move then puts a real folder there.
    await rm(folder, { recursive: true, force: true });
    await rename(scratch, folder);
    if (!target.sha256)
      options.onWarning?.(
        `The registry gives no sha256 for ${target.archive}: it was installed without a checksum, trusting the server ${new URL(target.archive).hostname} alone.`,
      );
    return { folder, command: confinedPath(folder, target.cmd)! };
  } catch (error) {
    await rm(scratch, { recursive: true, force: true });
    throw error;
  } finally {
    await rm(download, { force: true });
  }
}

async function unpack(kind: ReturnType<typeof archiveKind>, download: string, tree: ConfinedTree, cmd: string, url: string): Promise<void> {
  try {
    if (kind === 'zip') await extractZip(download, tree);
    else if (kind === 'tar' || kind === 'tar.bz2') await extractTar(download, tree, kind === 'tar.bz2' ? 'bzip2' : 'gzip-or-none');
    // A raw binary is the command itself.
    else await tree.file(cmd, 0o755, createReadStream(download));
  } catch (error) {
    if (error instanceof UnsafeArchiveError || error instanceof ArchiveTooBigError) throw error;
    throw new Error(`Cannot unpack ${url}: ${errorText(error)}; nothing was installed.`, { cause: error });
  }
}

/** `cmd` may be a link (checked to stay inside when unpacked); what it leads to must be a file in the folder. */
async function makeExecutable(root: string, cmd: string, url: string): Promise<void> {
  const real = await realpath(confinedPath(root, cmd)!).catch(() => undefined);
  const found = real && !path.relative(root, real).startsWith('..') ? await stat(real) : undefined;
  if (!real || !found?.isFile()) throw new Error(`The archive ${url} has no "${cmd}", the command the registry says to run.`);
  await chmod(real, found.mode | 0o755);
}

/** Makes the folders from `root` down to `folder`, refusing any that is a link (it would send the install elsewhere). */
async function realFolders(root: string, folder: string): Promise<void> {
  const below = path.relative(root, folder);
  let current = root;
  for (const segment of ['', ...(below ? below.split(path.sep) : [])]) {
    current = path.join(current, segment);
    await mkdir(current, { recursive: segment === '' }).catch((error: unknown) => {
      if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) throw error;
    });
    const found = await lstat(current);
    if (found.isSymbolicLink())
      throw new Error(`ACP will not install into ${current}: it is a symbolic link, not a folder; nothing was installed.`);
    if (!found.isDirectory()) throw new Error(`ACP will not install into ${current}: it is not a folder; nothing was installed.`);
  }
}
