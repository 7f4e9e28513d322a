/**
 * Writes an archive's entries under a fresh folder, judging each one on disk as it lands, never only as text.
 * The attack this stops: a first link that is harmless as text (`a/b/c/s -> ../../..` is the folder itself), a
 * second one that is harmless as text but not once the first is on disk (`a/b/c/t -> s/../../../../x`), and a
 * file written "inside" the second. So:
 * - no entry is ever written through a link: every folder on its way is checked with lstat, and files are created
 *   with O_EXCL (which refuses an existing name, a link included), so nothing is overwritten either;
 * - a symbolic link must stay inside once every link already unpacked is followed, the way the OS will follow it;
 *   a name it goes through that does not exist yet must not be followed by `..` (a later link there could climb);
 * - a hard link must name a regular file already unpacked, reached through real folders only.
 * Internal links are kept (release tarballs link `libfoo.so -> libfoo.so.1`, macOS zips carry framework links),
 * since the checks above make them as safe as files; zips get the same rules as tars.
 */
import { constants, type Stats } from 'node:fs';
import { link, lstat, mkdir, open, readlink, symlink } from 'node:fs/promises';
import * as path from 'node:path';
import { entryName, unsafeEntry, UnsafeArchiveError } from './confined-path';
import type { UnpackBudget } from './extraction-limits';

/** More hops than this while following links is a loop, or an attempt to exhaust us. */
const MAX_LINK_HOPS = 40;
const LEADS_OUTSIDE = 'leads outside the install folder';
const NOT_A_FILE_INSIDE = 'does not name a file inside the install folder';

export class ConfinedTree {
  /** Folders already checked to be real folders (not links); nothing in the archive can turn them into links. */
  private readonly folders = new Set<string>();

  /** `root` must be a fresh, empty folder given by its real path (no link anywhere in it). */
  constructor(
    private readonly root: string,
    private readonly budget: UnpackBudget,
  ) {}

  async directory(name: string, mode: number): Promise<void> {
    this.budget.entry();
    const segments = this.segmentsOf(name);
    if (segments.length === 0) return;
    const at = path.join(await this.parentFolder(name, segments), segments.at(-1)!);
    const found = await lstatOrUndefined(at);
    if (found?.isDirectory()) return;
    if (found)
      throw unsafeEntry(name, found.isSymbolicLink() ? `would be written through the link "${segments.join('/')}"` : 'appears twice');
    await mkdir(at, { mode: folderMode(mode) });
    this.folders.add(at);
  }

  /** Writes the content as it streams, charging the budget before each chunk reaches the disk. */
  async file(name: string, mode: number, content: AsyncIterable<Buffer | Uint8Array>): Promise<void> {
    this.budget.entry();
    const at = await this.newName(name);
    const handle = await open(at, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600).catch(
      (error: unknown) => {
        throw isCode(error, 'EEXIST') ? unsafeEntry(name, 'appears twice') : error;
      },
    );
    try {
      for await (const chunk of content) {
        this.budget.bytes(chunk.length);
        await handle.write(chunk);
      }
      // As archived (the agent's executable bit), never set-id, never writable by others (chmod ignores the umask:
      // an entry archived 0777 would let any user of the machine replace the agent), always ours to read and remove.
      await handle.chmod((mode & WRITABLE_BY_OWNER_ONLY) | 0o600);
    } finally {
      await handle.close();
    }
  }

  async symlink(name: string, target: string): Promise<void> {
    this.budget.entry();
    const subject = `link "${name} -> ${target}"`;
    if (target === '' || path.isAbsolute(target) || /^[a-zA-Z]:/.test(target) || /[\\\0]/.test(target))
      throw new UnsafeArchiveError(subject, LEADS_OUTSIDE);
    const at = await this.newName(name);
    if (!(await this.staysInside(path.dirname(at), target))) throw new UnsafeArchiveError(subject, LEADS_OUTSIDE);
    await symlink(target, at);
  }

  /** A tar hard link: `target` is a path from the archive's root, as tar writes it. */
  async hardlink(name: string, target: string): Promise<void> {
    this.budget.entry();
    const subject = `hard link "${name} => ${target}"`;
    const parsed = entryName(target);
    if (!('segments' in parsed) || parsed.segments.length === 0) throw new UnsafeArchiveError(subject, NOT_A_FILE_INSIDE);
    let existing = this.root;
    for (const [index, segment] of parsed.segments.entries()) {
      existing = path.join(existing, segment);
      const found = await lstatOrUndefined(existing);
      const last = index === parsed.segments.length - 1;
      if (!found || found.isSymbolicLink() || (last ? !found.isFile() : !found.isDirectory()))
        throw new UnsafeArchiveError(subject, NOT_A_FILE_INSIDE);
    }
    await link(existing, await this.newName(name));
  }

  private segmentsOf(name: string): readonly string[] {
    const parsed = entryName(name);
    if ('problem' in parsed) throw unsafeEntry(name, parsed.problem);
    return parsed.segments;
  }

  /** Where a new file or link goes: its folders exist and are real, and the name itself is not taken. */
  private async newName(name: string): Promise<string> {
    const segments = this.segmentsOf(name);
    if (segments.length === 0) throw unsafeEntry(name, 'has an empty name');
    const at = path.join(await this.parentFolder(name, segments), segments.at(-1)!);
    if (await lstatOrUndefined(at)) throw unsafeEntry(name, 'appears twice');
    return at;
  }

  /** Makes (or checks) every folder above the entry, refusing to go through a link or a file. */
  private async parentFolder(name: string, segments: readonly string[]): Promise<string> {
    let current = this.root;
    for (const [index, segment] of segments.slice(0, -1).entries()) {
      const next = path.join(current, segment);
      if (!this.folders.has(next)) {
        const found = await lstatOrUndefined(next);
        const shown = segments.slice(0, index + 1).join('/');
        if (found?.isSymbolicLink()) throw unsafeEntry(name, `would be written through the link "${shown}"`);
        if (found && !found.isDirectory()) throw unsafeEntry(name, `would be written inside the file "${shown}"`);
        if (!found) await mkdir(next, { mode: 0o755 });
        this.folders.add(next);
      }
      current = next;
    }
    return current;
  }

  /** Follows `target` from `folder` as the OS will, through the links already unpacked; false once it leaves. */
  private async staysInside(folder: string, target: string): Promise<boolean> {
    let current = folder;
    const pending = target.split('/');
    let hops = 0;
    while (pending.length > 0) {
      const segment = pending.shift()!;
      if (segment === '' || segment === '.') continue;
      if (segment === '..') {
        if (current === this.root) return false;
        current = path.dirname(current);
        continue;
      }
      const next = path.join(current, segment);
      const found = await lstatOrUndefined(next);
      // Not there yet: what comes later could put a link here, so no `..` may follow it.
      if (!found || !(found.isDirectory() || found.isSymbolicLink())) return !pending.includes('..');
      if (found.isSymbolicLink()) {
        hops += 1;
        const inner = await readlink(next);
        if (hops > MAX_LINK_HOPS || path.isAbsolute(inner)) return false;
        pending.unshift(...inner.split('/'));
        continue;
      }
      current = next;
    }
    return true;
  }
}

/** Read and execute bits as archived, write for the owner alone. */
const WRITABLE_BY_OWNER_ONLY = 0o755;
const folderMode = (mode: number): number => (mode & WRITABLE_BY_OWNER_ONLY) | 0o700;

async function lstatOrUndefined(file: string): Promise<Stats | undefined> {
  try {
    return await lstat(file);
  } catch (error) {
    if (isCode(error, 'ENOENT') || isCode(error, 'ENOTDIR')) return undefined;
    throw error;
  }
}

const isCode = (error: unknown, code: string): boolean => error instanceof Error && 'code' in error && error.code === code;
