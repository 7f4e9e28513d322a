/** The `line` (1-based) / `limit` window of `fs/read_text_file`, on text with any line ending. */
export function sliceLines(text: string, line: number | undefined, limit: number | undefined): string {
  if (line === undefined && limit === undefined) return text;
  const startIndex = Math.max(0, (line ?? 1) - 1);
  let offset = 0;
  for (let skipped = 0; skipped < startIndex; skipped++) {
    const next = text.indexOf('\n', offset);
    if (next === -1) return '';
    offset = next + 1;
  }
  if (limit === undefined) return text.slice(offset);
  let end = offset;
  for (let taken = 0; taken < limit; taken++) {
    const next = text.indexOf('\n', end);
    if (next === -1) return text.slice(offset);
    end = next + 1;
  }
  return text.slice(offset, end);
}
