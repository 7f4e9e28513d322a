/**
 * Content-addressed snapshots: each distinct content is written once, under its sha256, in the workspace storage
 * folder, so a file unchanged across many turns costs nothing more. The store is bounded: when the budget is full
 * the least recently used content goes first, content the change records still name (pinned) only after all the
 * rest, so recent turns stay undoable; a file larger than the per-file cap, or one that cannot fit even then, is only
 * hashed, and the change card says so instead of a diff.
 *
 * A copy may be written back over the user's file (Undo), so it must be exactly what was read: each is flushed to
 * the disk before it gets its name (a power cut leaves no empty or torn copy under a valid name), and checked
 * against its hash every time it is read (a copy damaged since is never used, and is dropped). Copies may hold
 * secrets from the workspace: only the user can read them.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { looksBinary, type FileContentState } from './file-state';
import { writeFileDurably } from './durable-write';

/** A copy read back: its bytes, or why there are none. */
export type StoredContent =
  | { readonly kind: 'ok'; readonly bytes: Uint8Array }
  | { readonly kind: 'missing' }
  /** On disk, but not the content its name says (torn by a crash, truncated, altered): never written back. */
  | { readonly kind: 'corrupt' };

export interface ContentStoreLimits {
  /** The whole store, in bytes (setting `acpClient.review.maxSnapshotMB`), read on each write. */
  readonly maxTotalBytes: () => number;
  /** One file; larger ones are tracked by hash only. */
  readonly maxFileBytes: number;
}

export const DEFAULT_MAX_FILE_BYTES = 2 * 1024 * 1024;

/** Who names content the store should keep longest (change records), and who hears that content was evicted. */
export interface ContentUsers {
  /** The hashes this user still needs (a change record's before- and after-content). */
  readonly pinned: () => Iterable<string>;
  readonly evicted: (hashes: ReadonlySet<string>) => void;
}

export class ContentStore {
  /** Hash -> size, in least-recently-used order (a use moves it to the end). */
  private readonly known = new Map<string, number>();
  /** Blobs being deleted: writing the same content again waits, or the delete could remove the new blob. */
  private readonly deleting = new Map<string, Promise<void>>();
  private readonly users = new Set<ContentUsers>();
  private total = 0;
  private loaded: Promise<void> | undefined;

  constructor(
    private dir: string,
    private readonly limits: ContentStoreLimits,
  ) {}

  /**
   * Keeps the blobs in another folder from now on: for the storage folder chosen once the window knows which one is
   * its own (history/storage-folder.ts). Only before anything is stored or read.
   */
  relocate(dir: string): void {
    if (this.loaded || this.known.size > 0) throw new Error('the content store is in use: it cannot move');
    this.dir = dir;
  }

  get maxFileBytes(): number {
    return this.limits.maxFileBytes;
  }

  get totalBytes(): number {
    return this.total;
  }

  /** Registers a user of the store's content; returns how to unregister. */
  use(user: ContentUsers): { dispose(): void } {
    this.users.add(user);
    return { dispose: () => this.users.delete(user) };
  }

  /** Resolves once the content already on disk is known (so `has` answers for earlier windows' content too). */
  ready(): Promise<void> {
    return this.load();
  }

  /** Whether the content is still kept (a state's `stored` says it was; eviction may have removed it since). */
  has(hash: string): boolean {
    return this.known.has(hash);
  }

  /** Marks content as just used: the last to be evicted (a turn's "before", read from the baseline). */
  touch(hash: string): void {
    const size = this.known.get(hash);
    if (size === undefined) return;
    this.known.delete(hash);
    this.known.set(hash, size);
  }

  /** Hashes `bytes` and keeps them when the limits allow; the state says which. */
  async put(bytes: Uint8Array): Promise<FileContentState> {
    await this.load();
    const hash = sha256(bytes);
    const binary = looksBinary(bytes);
    if (this.known.has(hash)) {
      this.touch(hash);
      return { kind: 'file', hash, size: bytes.length, stored: true, binary };
    }
    const fits = bytes.length <= this.limits.maxFileBytes && this.makeRoom(bytes.length);
    if (!fits) return { kind: 'file', hash, size: bytes.length, stored: false, binary };
    // Counted before the write finishes, so concurrent puts cannot overshoot the budget together.
    this.known.set(hash, bytes.length);
    this.total += bytes.length;
    const target = this.pathOf(hash);
    try {
      await this.deleting.get(hash);
      await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      await writeFileDurably(target, bytes);
    } catch (error) {
      this.known.delete(hash);
      this.total -= bytes.length;
      throw error;
    }
    return { kind: 'file', hash, size: bytes.length, stored: true, binary };
  }

  /** The copy's bytes when it is intact; undefined when it is gone or damaged (see `read`). */
  async get(hash: string): Promise<Uint8Array | undefined> {
    const read = await this.read(hash);
    return read.kind === 'ok' ? read.bytes : undefined;
  }

  /** The copy, verified against its hash; a damaged one is dropped (a later put of that content writes it anew). */
  async read(hash: string): Promise<StoredContent> {
    if (!/^[0-9a-f]{64}$/.test(hash) || this.deleting.has(hash)) return { kind: 'missing' };
    this.touch(hash);
    let bytes: Uint8Array;
    try {
      bytes = await readFile(this.pathOf(hash));
    } catch {
      return { kind: 'missing' };
    }
    if (sha256(bytes) === hash) return { kind: 'ok', bytes };
    if (this.known.has(hash)) {
      this.evict(hash);
      for (const user of this.users) user.evicted(new Set([hash]));
    }
    return { kind: 'corrupt' };
  }

  /**
   * Evicts until `size` more bytes fit: unpinned content first, then pinned, each least recently used first. False
   * (nothing evicted) when even an empty store could not hold it.
   */
  private makeRoom(size: number): boolean {
    const budget = this.limits.maxTotalBytes();
    if (this.total + size <= budget) return true;
    if (size > budget) return false;
    const pinned = new Set<string>();
    for (const user of this.users) for (const hash of user.pinned()) pinned.add(hash);
    const victims = new Set<string>();
    let freed = 0;
    for (const pass of [false, true]) {
      for (const [hash, bytes] of this.known) {
        if (this.total - freed + size <= budget) break;
        if (pinned.has(hash) !== pass || victims.has(hash)) continue;
        victims.add(hash);
        freed += bytes;
      }
    }
    for (const hash of victims) this.evict(hash);
    if (victims.size > 0) for (const user of this.users) user.evicted(victims);
    // Puts in flight are counted already: together they may still not leave room.
    return this.total + size <= budget;
  }

  private evict(hash: string): void {
    const size = this.known.get(hash) ?? 0;
    this.known.delete(hash);
    this.total -= size;
    const removing = rm(this.pathOf(hash), { force: true })
      .catch(() => undefined)
      .finally(() => {
        if (this.deleting.get(hash) === removing) this.deleting.delete(hash);
      });
    this.deleting.set(hash, removing);
  }

  /** What is already on disk from earlier windows counts against the budget, oldest first in eviction order. */
  private load(): Promise<void> {
    this.loaded ??= this.scan();
    return this.loaded;
  }

  private async scan(): Promise<void> {
    let buckets: string[];
    try {
      buckets = await readdir(this.dir);
    } catch {
      return;
    }
    const found: { name: string; size: number; at: number }[] = [];
    for (const bucket of buckets) {
      const names = await readdir(path.join(this.dir, bucket)).catch(() => []);
      for (const name of names) {
        if (!/^[0-9a-f]{64}$/.test(name) || this.known.has(name)) continue;
        const info = await stat(path.join(this.dir, bucket, name)).catch(() => undefined);
        found.push({ name, size: info?.size ?? 0, at: info?.mtimeMs ?? 0 });
      }
    }
    // Earlier windows' use is not known: the order they were written in stands for it.
    for (const { name, size } of found.sort((a, b) => a.at - b.at)) {
      this.known.set(name, size);
      this.total += size;
    }
  }

  private pathOf(hash: string): string {
    return path.join(this.dir, hash.slice(0, 2), hash);
  }
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
