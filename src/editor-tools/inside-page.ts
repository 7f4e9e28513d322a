/**
 * One page of results, judged for the workspace on the page only: a workspace's problems can name 20,000 files,
 * and checking each path (an lstat, a realpath when it is a link) before paging made one `problems` call take
 * seconds. The walk starts at the cursor (an index into what the language services returned), judges the next
 * entries in page-sized batches, keeps those inside until the page is full, and stops: the work follows the page,
 * not the workspace. An entry outside is left out and counted, as before; nothing unjudged is ever shown.
 */
import { MAX_RESULT_CHARS, PAGE_SIZE, parseCursor } from './bounds';

export interface InsidePage<U> {
  readonly items: readonly U[];
  /** How many entries the language services returned, before those outside the workspace were left out. */
  readonly total: number;
  /** Pass as `cursor` for the next page; absent on the last one. */
  readonly nextCursor?: string;
  /** Entries of this page's stretch left out for being outside the workspace folders. */
  readonly outsideWorkspace?: number;
}

/** Whether each of these paths is inside the workspace, in order (WorkspaceScope.judge). */
export type JudgePaths = (paths: readonly string[]) => Promise<readonly boolean[]>;

export async function pageInside<T extends { readonly path: string }, U>(
  all: readonly T[],
  cursor: string | undefined,
  judge: JudgePaths,
  show: (item: T) => U,
  pageSize = PAGE_SIZE,
  maxChars = MAX_RESULT_CHARS,
): Promise<InsidePage<U>> {
  const wanted = Math.max(1, pageSize);
  const kept: { readonly index: number; readonly shown: U }[] = [];
  let next = Math.min(parseCursor(cursor), all.length);
  const outsideAt: number[] = [];
  while (next < all.length && kept.length < wanted) {
    const batch = all.slice(next, next + wanted - kept.length);
    const verdicts = await judge(batch.map((item) => item.path));
    batch.forEach((item, offset) => {
      if (verdicts[offset] === true) kept.push({ index: next + offset, shown: show(item) });
      else outsideAt.push(next + offset);
    });
    next += batch.length;
  }
  // The answer's size bound, as pageOf: drop from the end (at least one item stays); the next page starts there.
  let size = JSON.stringify(kept.map((entry) => entry.shown)).length;
  while (kept.length > 1 && size > maxChars) {
    const dropped = kept.pop();
    if (dropped) {
      size -= JSON.stringify(dropped.shown).length + 1;
      next = dropped.index;
    }
  }
  // Outside entries past the cut are judged again on the next page: counted there, not twice.
  const outside = outsideAt.filter((index) => index < next).length;
  return {
    items: kept.map((entry) => entry.shown),
    total: all.length,
    ...(next < all.length ? { nextCursor: String(next) } : {}),
    ...(outside > 0 ? { outsideWorkspace: outside } : {}),
  };
}
