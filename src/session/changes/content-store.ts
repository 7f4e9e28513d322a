/**
 * Content-addressed snapshots: each distinct content is written once, under its sha256, in the workspace storage
 * folder, so a file unchanged across many turns costs nothing more. The store is bounded: past the budget (or for a
 * file larger than the per-file cap) content is only hashed, and the change card says so instead of a diff.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { looksBinary, type FileContentState } from './file-state';

export interface ContentStoreLimits {
  /** The whole store, in bytes (setting `acpClient.review.maxSnapshotMB`), read on each write. */
  readonly maxTotalBytes: () => number;
  /** One file; larger ones are tracked by hash only. */
  readonly maxFileBytes: number;
}

export const DEFAULT_MAX_FILE_BYTES = 2 * 1024 * 1024;

export class ContentStore {
  private readonly known = new Map<string, number>();
  private total = 0;
  private loaded: Promise<void> | undefined;

  constructor(
    private readonly dir: string,
    private readonly limits: ContentStoreLimits,
  ) {}

  get maxFileBytes(): number {
    return this.limits.maxFileBytes;
  }

  get totalBytes(): number {
    return this.total;
  }

  /** Hashes `bytes` and keeps them when the limits allow; the state says which. */
  async put(bytes: Uint8Array): Promise<FileContentState> {
    await this.load();
    const hash = sha256(bytes);
    const binary = looksBinary(bytes);
    if (this.known.has(hash)) return { kind: 'file', hash, size: bytes.length, stored: true, binary };
    const fits = bytes.length <= this.limits.maxFileBytes && this.total + bytes.length <= this.limits.maxTotalBytes();
    if (!fits) return { kind: 'file', hash, size: bytes.length, stored: false, binary };
    // Counted before the write finishes, so concurrent puts cannot overshoot the budget together.
    this.known.set(hash, bytes.length);
    this.total += bytes.length;
    const target = this.pathOf(hash);
    try {
      await mkdir(path.dirname(target), { recursive: true });
      // Written aside and renamed, so a crash never leaves a torn blob under a valid name.
      const temp = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      await writeFile(temp, bytes);
      await rename(temp, target);
    } catch (error) {
      this.known.delete(hash);
      this.total -= bytes.length;
      throw error;
    }
    return { kind: 'file', hash, size: bytes.length, stored: true, binary };
  }

  async get(hash: string): Promise<Uint8Array | undefined> {
    if (!/^[0-9a-f]{64}$/.test(hash)) return undefined;
    try {
      return await readFile(this.pathOf(hash));
    } catch {
      return undefined;
    }
  }

  /** What is already on disk from earlier windows counts against the budget. */
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
    for (const bucket of buckets) {
      const names = await readdir(path.join(this.dir, bucket)).catch(() => []);
      for (const name of names) {
        if (!/^[0-9a-f]{64}$/.test(name) || this.known.has(name)) continue;
        const size = (await stat(path.join(this.dir, bucket, name)).catch(() => undefined))?.size ?? 0;
        this.known.set(name, size);
        this.total += size;
      }
    }
  }

  private pathOf(hash: string): string {
    return path.join(this.dir, hash.slice(0, 2), hash);
  }
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
