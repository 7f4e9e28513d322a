/**
 * Results are bounded like fs reads: at most a page of items, at most MAX_RESULT_CHARS of text in one answer, each
 * string an agent's tool result carries cut at MAX_STRING_CHARS. Work and memory follow the page, not what the
 * language services returned; a cursor takes the agent to the next page.
 */

export const PAGE_SIZE = 100;
export const MAX_RESULT_CHARS = 64 * 1024;
export const MAX_STRING_CHARS = 4 * 1024;

export interface Page<T> {
  readonly items: readonly T[];
  readonly total: number;
  /** Pass as `cursor` for the next page; absent on the last one. */
  readonly nextCursor?: string;
}

export function parseCursor(cursor: string | undefined): number {
  if (cursor === undefined || cursor === '') return 0;
  if (!/^\d{1,9}$/.test(cursor)) throw new Error(`cursor "${cursor.slice(0, 40)}" is not one this server gave`);
  return Number(cursor);
}

/** One page from `cursor`, shortened until its JSON fits MAX_RESULT_CHARS (always at least one item). */
export function pageOf<T>(all: readonly T[], cursor: string | undefined, pageSize = PAGE_SIZE, maxChars = MAX_RESULT_CHARS): Page<T> {
  const start = Math.min(parseCursor(cursor), all.length);
  const items = all.slice(start, start + Math.max(1, pageSize));
  let size = JSON.stringify(items).length;
  while (items.length > 1 && size > maxChars) {
    const dropped = items.pop();
    size -= JSON.stringify(dropped).length + 1;
  }
  const end = start + items.length;
  return { items, total: all.length, ...(end < all.length ? { nextCursor: String(end) } : {}) };
}

export function capString(text: string, max = MAX_STRING_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters cut)`;
}
