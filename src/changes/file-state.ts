/**
 * What the change engine knows about one file at one moment. Content lives in the content store under its
 * sha256; a state only names it, so states are small, JSON, and survive a reload.
 */

/** The file is not there (before: the agent created it; after: the agent deleted it). */
export interface AbsentState {
  readonly kind: 'absent';
}

export interface FileContentState {
  readonly kind: 'file';
  readonly hash: string;
  readonly size: number;
  /** Its bytes are in the content store (false: too large or over the budget; only the hash is known). */
  readonly stored: boolean;
  /** Not UTF-8 text (or has NUL bytes): no line diff, only the hash. */
  readonly binary: boolean;
}

/** We never saw the file before it changed (it appeared in no snapshot): undo cannot restore it. */
export interface UnknownState {
  readonly kind: 'unknown';
}

export type FileState = AbsentState | FileContentState | UnknownState;

export const ABSENT: AbsentState = { kind: 'absent' };
export const UNKNOWN: UnknownState = { kind: 'unknown' };

export function sameState(a: FileState, b: FileState): boolean {
  if (a.kind === 'file' && b.kind === 'file') return a.hash === b.hash;
  return a.kind === b.kind && a.kind !== 'unknown';
}

/** Heuristic of git and most editors: a NUL byte in the first 8 KB, or bytes that are not valid UTF-8. */
export function looksBinary(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 8192);
  if (head.includes(0)) return true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return false;
  } catch {
    return true;
  }
}
