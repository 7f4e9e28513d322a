/**
 * Ranks workspace files for `@` completion the way Quick Open feels: the file name beats the folders, a prefix
 * beats a substring beats scattered letters, open editors come first among equals, shorter paths before longer.
 * Pure, so it is tested without VS Code.
 */

export interface RankedFile {
  readonly label: string;
  readonly uri: string;
}

/** Higher is better; undefined = no match. */
function score(path: string, query: string): number | undefined {
  if (query === '') return 0;
  const lowerPath = path.toLowerCase();
  const slash = lowerPath.lastIndexOf('/');
  const name = lowerPath.slice(slash + 1);
  if (name === query) return 500;
  if (name.startsWith(query)) return 400;
  if (name.includes(query)) return 300;
  if (lowerPath.includes(query)) return 200;
  if (isSubsequence(query, name)) return 100;
  if (isSubsequence(query, lowerPath)) return 50;
  return undefined;
}

function isSubsequence(needle: string, haystack: string): boolean {
  let at = 0;
  for (const char of needle) {
    at = haystack.indexOf(char, at);
    if (at === -1) return false;
    at += 1;
  }
  return true;
}

/**
 * The best `limit` files for `query` (spaces ignored, case-insensitive). `open` are the URIs of open editors:
 * with an empty query they are all that is offered first; otherwise they break ties.
 */
export function rankFiles(files: readonly RankedFile[], query: string, open: ReadonlySet<string>, limit: number): RankedFile[] {
  const wanted = query.replace(/\s+/g, '').replace(/\\/g, '/').toLowerCase();
  const scored: { file: RankedFile; score: number }[] = [];
  for (const file of files) {
    const base = score(file.label, wanted);
    if (base === undefined) continue;
    scored.push({ file, score: base + (open.has(file.uri) ? 25 : 0) });
  }
  scored.sort((a, b) => b.score - a.score || a.file.label.length - b.file.label.length || a.file.label.localeCompare(b.file.label));
  return scored.slice(0, limit).map((entry) => entry.file);
}
