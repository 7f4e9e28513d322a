/**
 * Registry agents' icons, for the Add Agent list: each downloaded once (through the same `fetch` as the index, so
 * the editor's proxy applies) into the cache folder, named by a hash of its address, and shown from there, so the
 * list has icons offline too. Only small SVG or PNG images over https (or http on this machine, as tests serve
 * them) are kept; anything else, or a download that fails or is slow, just leaves that agent without an icon.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';

/** Icons are list-sized; a bigger file is not an icon. */
const MAX_ICON_BYTES = 256 * 1024;
const KINDS: Readonly<Record<string, string>> = { 'image/svg+xml': 'svg', 'image/png': 'png' };

export interface RegistryIconOptions {
  readonly cacheDir: string;
  readonly fetch?: typeof fetch;
  /** How long the whole batch may take before the list shows without the icons still missing. */
  readonly timeoutMs?: number;
}

/** The local file of each agent's icon that could be had (by icon address), within the time allowed. */
export async function cachedIcons(addresses: readonly string[], options: RegistryIconOptions): Promise<ReadonlyMap<string, string>> {
  const folder = path.join(options.cacheDir, 'icons');
  await mkdir(folder, { recursive: true });
  const present = new Set(await readdir(folder));
  const found = new Map<string, string>();
  const signal = AbortSignal.timeout(options.timeoutMs ?? 3000);
  await Promise.all(
    [...new Set(addresses)].map(async (address) => {
      const file = await iconFile(address, folder, present, options.fetch ?? fetch, signal).catch(() => undefined);
      if (file) found.set(address, file);
    }),
  );
  return found;
}

async function iconFile(
  address: string,
  folder: string,
  present: ReadonlySet<string>,
  fetchIcon: typeof fetch,
  signal: AbortSignal,
): Promise<string | undefined> {
  if (!allowedAddress(address)) return undefined;
  const stem = createHash('sha256').update(address).digest('hex').slice(0, 32);
  const cached = [...present].find((name) => name.startsWith(`${stem}.`));
  if (cached) return path.join(folder, cached);
  const response = await fetchIcon(address, { signal });
  const extension = KINDS[(response.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? ''];
  if (!response.ok || !extension) return undefined;
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.byteLength === 0 || bytes.byteLength > MAX_ICON_BYTES) return undefined;
  const file = path.join(folder, `${stem}.${extension}`);
  await writeFile(file, bytes);
  return file;
}

function allowedAddress(address: string): boolean {
  try {
    const url = new URL(address);
    return url.protocol === 'https:' || (url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname));
  } catch {
    return false;
  }
}
