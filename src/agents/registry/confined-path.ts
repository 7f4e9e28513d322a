/**
 * Archive entry names, judged as text before anything touches the disk: where an entry lands, or why it may not.
 * Text alone never decides that a name is safe (links already unpacked can redirect it; see confined-tree.ts),
 * but it decides that some are not: absolute names, drive letters, `..` segments, and backslashes, colons and NUL,
 * which mean something else on another system (a Windows separator, an NTFS stream) or cut a path short.
 */
import * as path from 'node:path';
import { visibleText } from '../../shared/visible-text';

export type EntryName = { readonly segments: readonly string[] } | { readonly problem: string };

export function entryName(name: string): EntryName {
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name)) return { problem: 'would be written outside the install folder' };
  const segments = name.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) return { problem: 'would be written outside the install folder' };
  if (/[\\:\0]/.test(name)) return { problem: 'has a name with a backslash, a colon or a NUL' };
  return { segments };
}

/** Where an entry (or the registry's `cmd`) lands under root, or undefined when its name is refused. */
export function confinedPath(root: string, name: string): string | undefined {
  const parsed = entryName(name);
  return 'segments' in parsed ? path.join(root, ...parsed.segments) : undefined;
}

/** An archive the installer refuses; `subject` is e.g. `entry "bin/x"` or `link "a -> b"`, shown made visible. */
export class UnsafeArchiveError extends Error {
  constructor(subject: string, problem: string) {
    super(`The archive is unsafe: its ${visibleText(subject)} ${problem}; nothing was installed.`);
  }
}

/** The message for an entry whose name or place is refused. */
export const unsafeEntry = (name: string, problem: string): UnsafeArchiveError => new UnsafeArchiveError(`entry "${name}"`, problem);
