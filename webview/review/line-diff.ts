/**
 * A tool call's `diff` content as unified-diff hunks, computed by jsdiff. Pure and DOM-free.
 * Edits beyond a budget fall back to "everything between the common head and tail removed, then added": correct,
 * just less precise, and it keeps a huge rewrite from stalling the webview.
 */
import { structuredPatch, type StructuredPatchHunk } from 'diff';

export type DiffLineKind = 'context' | 'add' | 'del';

export interface DiffLine {
  readonly kind: DiffLineKind;
  readonly text: string;
}

export interface DiffHunk {
  /** 1-based first line in the old text (0 when the hunk covers no old lines, as `diff -u` prints it). */
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  readonly lines: readonly DiffLine[];
}

export interface LineDiff {
  readonly hunks: readonly DiffHunk[];
  readonly added: number;
  readonly removed: number;
}

const DEFAULT_CONTEXT = 3;
const DEFAULT_MAX_EDITS = 1500;

/** Splits text into lines; a trailing newline ends the last line rather than starting an empty one. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** `oldText` null or undefined means the file is new. */
export function diffLines(
  oldText: string | null | undefined,
  newText: string,
  options: { context?: number; maxEdits?: number } = {},
): LineDiff {
  const a = splitLines(oldText ?? '');
  const b = splitLines(newText);
  const context = options.context ?? DEFAULT_CONTEXT;
  // Every line newline-terminated: CRLF against LF and a missing final newline are not changes the view shows.
  const patch = structuredPatch('', '', terminated(a), terminated(b), undefined, undefined, {
    context,
    maxEditLength: options.maxEdits ?? DEFAULT_MAX_EDITS,
  });
  const hunks = patch ? patch.hunks.map(toHunk) : replaceAll(a, b, context);
  let added = 0;
  let removed = 0;
  for (const hunk of hunks) {
    for (const line of hunk.lines) {
      if (line.kind === 'add') added++;
      else if (line.kind === 'del') removed++;
    }
  }
  return { hunks, added, removed };
}

/** The `@@ -a,b +c,d @@` header of a hunk. */
export function hunkHeader(hunk: DiffHunk): string {
  return `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`;
}

/** How a line of a ready-made unified patch (v2 `patch`) is shown. */
export function classifyPatchLine(line: string): 'add' | 'del' | 'hunk' | 'meta' | 'context' {
  if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('diff ') || line.startsWith('index ')) return 'meta';
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'del';
  return 'context';
}

function terminated(lines: readonly string[]): string {
  return lines.map((line) => `${line}\n`).join('');
}

function toHunk(hunk: StructuredPatchHunk): DiffHunk {
  const lines: DiffLine[] = [];
  for (const line of hunk.lines) {
    // "\ No newline at end of file" cannot occur (every line is terminated), and says nothing about content anyway.
    if (line.startsWith('\\')) continue;
    const kind: DiffLineKind = line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : 'context';
    lines.push({ kind, text: line.slice(1) });
  }
  // jsdiff numbers an empty range by the line after it; `diff -u` (and jsdiff's own formatPatch) by the line before.
  return {
    oldStart: hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart,
    oldLines: hunk.oldLines,
    newStart: hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart,
    newLines: hunk.newLines,
    lines,
  };
}

/** The over-budget fallback: one hunk replacing everything between the common head and tail. */
function replaceAll(a: readonly string[], b: readonly string[], context: number): DiffHunk[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  if (head === a.length && head === b.length) return [];
  const from = Math.max(0, head - context);
  const before = a.slice(from, head).map((text): DiffLine => ({ kind: 'context', text }));
  const after = a.slice(a.length - tail, a.length - tail + context).map((text): DiffLine => ({ kind: 'context', text }));
  const removed = a.slice(head, a.length - tail).map((text): DiffLine => ({ kind: 'del', text }));
  const added = b.slice(head, b.length - tail).map((text): DiffLine => ({ kind: 'add', text }));
  const oldLines = before.length + removed.length + after.length;
  const newLines = before.length + added.length + after.length;
  return [
    {
      oldStart: oldLines === 0 ? from : from + 1,
      oldLines,
      newStart: newLines === 0 ? from : from + 1,
      newLines,
      lines: [...before, ...removed, ...added, ...after],
    },
  ];
}
