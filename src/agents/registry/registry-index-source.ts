/**
 * Fetches the registry index and keeps it in a cache file with its ETag: asked again within the refresh interval
 * it answers from the cache; after that it revalidates (If-None-Match, a 304 keeps the cache); offline or on a
 * server error it answers from the cache and says it is stale. Global `fetch` because VS Code's extension host
 * routes it through the editor's proxy settings.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { z } from 'zod';
import { errorText } from './error-text';
import { parseRegistryIndex, type RegistryIndex } from './registry-schema';

export const DEFAULT_REGISTRY_URL = 'https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json';
const HOUR_MS = 60 * 60 * 1000;
/** The index is a few hundred KB today; anything far larger is not an index. */
const MAX_INDEX_BYTES = 16 * 1024 * 1024;

export type IndexOrigin = 'network' | 'revalidated' | 'cache' | 'stale-cache';

export interface LoadedIndex extends RegistryIndex {
  readonly origin: IndexOrigin;
  /** Why the network was not used, when it was tried and failed. */
  readonly offlineReason?: string;
}

const cacheFileSchema = z.object({ url: z.string(), etag: z.string().optional(), fetchedAt: z.number(), body: z.unknown() });
type CacheFile = z.infer<typeof cacheFileSchema>;

export interface RegistryIndexSourceOptions {
  readonly url: string;
  /** Folder for the cache file (the extension's global storage). */
  readonly cacheDir: string;
  readonly refreshIntervalMs?: number;
  readonly fetch?: typeof fetch;
  readonly now?: () => number;
}

export class RegistryIndexSource {
  private readonly cacheFile: string;

  constructor(private readonly options: RegistryIndexSourceOptions) {
    this.cacheFile = path.join(options.cacheDir, 'registry-index.json');
  }

  /** `force`: revalidate now (the user asked to refresh) instead of trusting a cache younger than an hour. */
  async load(force = false): Promise<LoadedIndex> {
    const now = this.options.now ?? Date.now;
    const cached = await this.readCache();
    const fresh = cached && now() - cached.fetchedAt < (this.options.refreshIntervalMs ?? HOUR_MS);
    if (cached && fresh && !force) return { ...parseRegistryIndex(cached.body), origin: 'cache' };
    let response: Response;
    try {
      response = await (this.options.fetch ?? fetch)(this.options.url, {
        headers: { accept: 'application/json', ...(cached?.etag ? { 'if-none-match': cached.etag } : {}) },
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      return this.fallBack(cached, `cannot reach ${this.options.url}: ${errorText(error)}`);
    }
    if (response.status === 304 && cached) {
      await this.writeCache({ ...cached, fetchedAt: now() });
      return { ...parseRegistryIndex(cached.body), origin: 'revalidated' };
    }
    if (!response.ok) return this.fallBack(cached, `${this.options.url} answered ${response.status} ${response.statusText}`);
    const announced = Number(response.headers.get('content-length'));
    if (announced > MAX_INDEX_BYTES)
      return this.fallBack(cached, `${this.options.url} is ${announced} bytes, more than ${MAX_INDEX_BYTES}`);
    const text = await response.text();
    if (text.length > MAX_INDEX_BYTES) return this.fallBack(cached, `${this.options.url} sent more than ${MAX_INDEX_BYTES} bytes`);
    let body: unknown;
    let index: RegistryIndex;
    try {
      body = JSON.parse(text);
      index = parseRegistryIndex(body);
    } catch (error) {
      return this.fallBack(cached, `${this.options.url} is not a registry index: ${errorText(error)}`);
    }
    const etag = response.headers.get('etag') ?? undefined;
    await this.writeCache({ url: this.options.url, ...(etag ? { etag } : {}), fetchedAt: now(), body });
    return { ...index, origin: 'network' };
  }

  private fallBack(cached: CacheFile | undefined, reason: string): LoadedIndex {
    if (!cached) throw new Error(`The ACP registry is not available and there is no cached copy: ${reason}`);
    return { ...parseRegistryIndex(cached.body), origin: 'stale-cache', offlineReason: reason };
  }

  private async readCache(): Promise<CacheFile | undefined> {
    let text: string;
    try {
      text = await readFile(this.cacheFile, 'utf8');
    } catch {
      return undefined;
    }
    try {
      const parsed = cacheFileSchema.safeParse(JSON.parse(text));
      // A cache of another registry URL (the setting changed) is not an answer for this one.
      return parsed.success && parsed.data.url === this.options.url ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  private async writeCache(cache: CacheFile): Promise<void> {
    await mkdir(this.options.cacheDir, { recursive: true });
    // Written aside and renamed, so a crash mid-write never leaves a torn cache.
    const temporary = `${this.cacheFile}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify(cache));
    await rename(temporary, this.cacheFile);
  }
}
