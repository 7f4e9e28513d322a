/**
 * Downloads an archive to a file, reporting bytes as they arrive, cancellable, and checking its SHA-256 while
 * streaming, before anything is unpacked. A mismatch or a cancel deletes the partial file: nothing unverified is
 * kept. A wrong checksum is always refused; a missing one is the caller's to report.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { errorText } from './error-text';
import { InstallCancelled } from './install-cancelled';

export interface DownloadProgress {
  readonly receivedBytes: number;
  /** From Content-Length; undefined when the server does not say. */
  readonly totalBytes: number | undefined;
}

export interface DownloadOptions {
  readonly sha256?: string;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: DownloadProgress) => void;
  readonly fetch?: typeof fetch;
  /** Agent builds are tens of MB; the cap keeps a wrong URL from filling the disk. */
  readonly maxBytes?: number;
  /** Plain http allowed (a registry the user set themselves); otherwise https only, redirects included. */
  readonly allowInsecure?: boolean;
}

/**
 * https only: over plain http anyone on the path can swap the build, and the official registry gives no checksum
 * for most agents. A registry the user set themselves (a mirror on their network) may use http.
 */
export function assertSecureUrl(url: string, allowInsecure: boolean, redirectedFrom?: string): void {
  const protocol = new URL(url).protocol;
  if (protocol === 'https:' || (protocol === 'http:' && allowInsecure)) return;
  const what = redirectedFrom ? `${redirectedFrom} redirects to ${url}, which` : url;
  throw new Error(
    protocol === 'http:'
      ? `ACP installs only over https: ${what} is plain http, which anyone on the network can replace. Only a registry you set yourself (acpClient.registry.url) may use http; nothing was installed.`
      : `ACP installs only over https: ${what} is not an https URL; nothing was installed.`,
  );
}

class ChecksumMismatchError extends Error {
  constructor(
    readonly url: string,
    readonly expected: string,
    readonly actual: string,
  ) {
    super(
      `The download of ${url} does not match the registry's checksum (expected sha256 ${expected}, got ${actual}); nothing was installed.`,
    );
  }
}

export async function downloadToFile(url: string, destination: string, options: DownloadOptions = {}): Promise<void> {
  const maxBytes = options.maxBytes ?? 2 * 1024 * 1024 * 1024;
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, options.signal ? { signal: options.signal } : {});
  } catch (error) {
    if (options.signal?.aborted) throw new InstallCancelled({ cause: error });
    throw new Error(`Cannot download ${url}: ${errorText(error)}`, { cause: error });
  }
  // fetch follows redirects itself: the address it ended at must be as secure as the one asked for.
  if (response.url && response.url !== url) {
    try {
      assertSecureUrl(response.url, options.allowInsecure ?? false, url);
    } catch (error) {
      await response.body?.cancel();
      throw error;
    }
  }
  if (!response.ok || !response.body)
    throw new Error(`Cannot download ${url}: the server answered ${response.status} ${response.statusText}`);
  const length = Number(response.headers.get('content-length'));
  const totalBytes = Number.isFinite(length) && length > 0 ? length : undefined;
  if (totalBytes !== undefined && totalBytes > maxBytes)
    throw new Error(`${url} is ${totalBytes} bytes, more than the ${maxBytes} allowed.`);
  const hash = createHash('sha256');
  let receivedBytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      receivedBytes += chunk.length;
      if (receivedBytes > maxBytes) return callback(new Error(`${url} sent more than the ${maxBytes} bytes allowed.`));
      hash.update(chunk);
      options.onProgress?.({ receivedBytes, totalBytes });
      callback(null, chunk);
    },
  });
  try {
    // 'wx': a new file, never through a link or over something already there.
    // The DOM and Node typings name the same web stream differently; fromWeb takes Node's.
    const body: WebReadableStream<Uint8Array> = response.body as WebReadableStream<Uint8Array>;
    await pipeline(
      Readable.fromWeb(body),
      counter,
      createWriteStream(destination, { flags: 'wx' }),
      options.signal ? { signal: options.signal } : {},
    );
  } catch (error) {
    await rm(destination, { force: true });
    if (options.signal?.aborted) throw new InstallCancelled({ cause: error });
    throw new Error(`Download of ${url} failed: ${errorText(error)}`, { cause: error });
  }
  const actual = hash.digest('hex');
  if (options.sha256 && actual !== options.sha256.toLowerCase()) {
    await rm(destination, { force: true });
    throw new ChecksumMismatchError(url, options.sha256.toLowerCase(), actual);
  }
}
