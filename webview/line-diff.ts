/**
 * A small line diff (Myers) for showing a tool call's `diff` content as a unified diff. Pure and DOM-free.
 * Edits beyond a budget fall back to "everything removed, everything added": correct, just less precise, and it
 * keeps a huge rewrite from stalling the webview.
 */

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
  const ops = editScript(a, b, options.maxEdits ?? DEFAULT_MAX_EDITS);
  let added = 0;
  let removed = 0;
  for (const op of ops) {
    if (op.kind === 'add') added++;
    else if (op.kind === 'del') removed++;
  }
  return { hunks: toHunks(ops, options.context ?? DEFAULT_CONTEXT), added, removed };
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

function editScript(a: readonly string[], b: readonly string[], maxEdits: number): DiffLine[] {
  // Common prefix and suffix first: most edits touch a few lines of a long file.
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  const midA = a.slice(prefix, a.length - suffix);
  const midB = b.slice(prefix, b.length - suffix);
  const middle = myers(midA, midB, maxEdits) ?? [
    ...midA.map((text): DiffLine => ({ kind: 'del', text })),
    ...midB.map((text): DiffLine => ({ kind: 'add', text })),
  ];
  const context = (text: string): DiffLine => ({ kind: 'context', text });
  return [...a.slice(0, prefix).map(context), ...middle, ...a.slice(a.length - suffix).map(context)];
}

/** Myers' O((N+M)D) shortest edit script, or undefined when it needs more than `maxEdits` edits. */
function myers(a: readonly string[], b: readonly string[], maxEdits: number): DiffLine[] | undefined {
  const n = a.length;
  const m = b.length;
  const limit = Math.min(maxEdits, n + m);
  const offset = limit + 1;
  const v = new Int32Array(2 * limit + 3);
  // trace[d] holds v for diagonals -d..d after step d, for walking back.
  const trace: Int32Array[] = [];
  for (let d = 0; d <= limit; d++) {
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        trace.push(v.slice(offset - d, offset + d + 1));
        return walkBack(trace, a, b);
      }
    }
    trace.push(v.slice(offset - d, offset + d + 1));
  }
  return undefined;
}

function walkBack(trace: readonly Int32Array[], a: readonly string[], b: readonly string[]): DiffLine[] {
  const reversed: DiffLine[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = trace.length - 1; d > 0; d--) {
    const previous = trace[d - 1]!;
    const at = (k: number): number => previous[k + d - 1]!;
    const k = x - y;
    const cameFromAbove = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const previousK = cameFromAbove ? k + 1 : k - 1;
    const previousX = at(previousK);
    const previousY = previousX - previousK;
    while (x > previousX && y > previousY) {
      reversed.push({ kind: 'context', text: a[x - 1]! });
      x--;
      y--;
    }
    if (cameFromAbove) reversed.push({ kind: 'add', text: b[previousY]! });
    else reversed.push({ kind: 'del', text: a[previousX]! });
    x = previousX;
    y = previousY;
  }
  while (x > 0 && y > 0) {
    reversed.push({ kind: 'context', text: a[x - 1]! });
    x--;
    y--;
  }
  return reversed.reverse();
}

function toHunks(ops: readonly DiffLine[], context: number): DiffHunk[] {
  const hunks: DiffHunk[] = [];
  // Old/new line numbers (1-based) of each op, so a hunk knows where it starts.
  const oldAt: number[] = [];
  const newAt: number[] = [];
  let oldLine = 1;
  let newLine = 1;
  for (const op of ops) {
    oldAt.push(oldLine);
    newAt.push(newLine);
    if (op.kind !== 'add') oldLine++;
    if (op.kind !== 'del') newLine++;
  }
  let i = 0;
  while (i < ops.length) {
    if (ops[i]!.kind === 'context') {
      i++;
      continue;
    }
    const start = Math.max(0, i - context);
    let end = i;
    // Extend while the next change is close enough that the contexts would touch.
    for (;;) {
      while (end < ops.length && ops[end]!.kind !== 'context') end++;
      let next = end;
      while (next < ops.length && ops[next]!.kind === 'context') next++;
      if (next < ops.length && next - end <= 2 * context) end = next;
      else break;
    }
    const stop = Math.min(ops.length, end + context);
    const lines = ops.slice(start, stop);
    const oldLines = lines.filter((line) => line.kind !== 'add').length;
    const newLines = lines.filter((line) => line.kind !== 'del').length;
    hunks.push({
      oldStart: oldLines === 0 ? oldAt[start]! - 1 : oldAt[start]!,
      oldLines,
      newStart: newLines === 0 ? newAt[start]! - 1 : newAt[start]!,
      newLines,
      lines,
    });
    i = stop;
  }
  return hunks;
}
