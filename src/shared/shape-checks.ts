/**
 * Shape checks for what this extension wrote itself and reads back (its history files, the webview's saved state):
 * only what the reader relies on is checked, as a deep schema of a whole transcript would cost more than the read.
 */
import type { Entry } from './model';

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An entry as far as drawing and reducing rely on without looking inside: a record with a kind and a key. */
export function looksLikeEntry(value: unknown): value is Entry {
  return isRecord(value) && typeof value['kind'] === 'string' && typeof value['key'] === 'string';
}
