/**
 * Streams the `line`/`limit` window of a file's bytes: lines before the window are skipped by scanning for
 * newline bytes (UTF-8 never uses 0x0A inside a character, so no decoding is needed), only the window's bytes are
 * kept, and reading stops as soon as the window is complete or the answer outgrows the cap. Work and memory are
 * bounded by where the window ends and by the cap, never by the file's size.
 */

export type WindowRead =
  | { readonly kind: 'text'; readonly text: string }
  /** The answer would exceed `maxBytes`; `atLeastBytes` is what was counted before reading stopped. */
  | { readonly kind: 'too_large'; readonly atLeastBytes: number };

const NEWLINE = 0x0a;

export async function readWindow(
  chunks: AsyncIterable<Uint8Array>,
  line: number | undefined,
  limit: number | undefined,
  maxBytes: number,
): Promise<WindowRead> {
  let toSkip = Math.max(0, (line ?? 1) - 1);
  let toTake = limit ?? Infinity;
  const kept: Uint8Array[] = [];
  let keptBytes = 0;
  if (toTake <= 0) return { kind: 'text', text: '' };
  for await (const chunk of chunks) {
    let offset = 0;
    while (toSkip > 0 && offset < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, offset);
      if (newline === -1) {
        offset = chunk.length;
        break;
      }
      offset = newline + 1;
      toSkip--;
    }
    if (toSkip > 0 || offset >= chunk.length) continue;
    let end = offset;
    while (toTake > 0 && end < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, end);
      if (newline === -1) {
        end = chunk.length;
        break;
      }
      end = newline + 1;
      toTake--;
    }
    keptBytes += end - offset;
    if (keptBytes > maxBytes) return { kind: 'too_large', atLeastBytes: keptBytes };
    kept.push(chunk.subarray(offset, end));
    if (toTake === 0) break;
  }
  return { kind: 'text', text: new TextDecoder('utf-8').decode(concat(kept, keptBytes)) };
}

function concat(parts: readonly Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1 && parts[0]) return parts[0];
  const whole = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    whole.set(part, at);
    at += part.length;
  }
  return whole;
}
