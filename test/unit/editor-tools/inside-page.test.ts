/**
 * A page of results judged for the workspace on the page only: the work follows the page (not the 20,000 entries
 * a workspace's problems can hold), and walking the pages by their cursors shows every entry inside exactly once
 * and nothing outside.
 */
import * as assert from 'node:assert/strict';
import { pageInside, type JudgePaths } from '../../../src/editor-tools/inside-page';

interface Entry {
  readonly path: string;
  readonly text: string;
}

const entries = (count: number, outside: (index: number) => boolean, text = (index: number): string => `entry ${index}`): Entry[] =>
  Array.from({ length: count }, (_, index) => ({ path: outside(index) ? `/out/${index}` : `/ws/${index}`, text: text(index) }));

/** Inside is "/ws/…"; counts every path it is asked about. */
function countingJudge(): { judge: JudgePaths; asked: () => number } {
  let asked = 0;
  return {
    judge: (paths) => {
      asked += paths.length;
      return Promise.resolve(paths.map((candidate) => candidate.startsWith('/ws/')));
    },
    asked: () => asked,
  };
}

async function walk(
  all: readonly Entry[],
  judge: JudgePaths,
  maxChars?: number,
): Promise<{ shown: string[]; outside: number; pages: number }> {
  const shown: string[] = [];
  let outside = 0;
  let pages = 0;
  let cursor: string | undefined;
  do {
    const page = await pageInside(all, cursor, judge, (entry) => entry.text, 100, maxChars);
    assert.ok(page.items.length <= 100, `page of ${page.items.length}`);
    shown.push(...page.items);
    outside += page.outsideWorkspace ?? 0;
    pages++;
    cursor = page.nextCursor;
  } while (cursor !== undefined && pages < 1_000);
  return { shown, outside, pages };
}

describe('editor tools: a page judged for the workspace on the page only', () => {
  it('a page of 20,000 entries judges the 100 paths it shows, not the 20,000', async () => {
    const all = entries(20_000, () => false);
    const { judge, asked } = countingJudge();
    const page = await pageInside(all, undefined, judge, (entry) => entry.text);
    assert.equal(page.items.length, 100);
    assert.equal(page.total, 20_000);
    assert.equal(page.nextCursor, '100');
    assert.equal(asked(), 100);
    const later = await pageInside(all, '19950', judge, (entry) => entry.text);
    assert.deepEqual(
      later.items,
      all.slice(19_950).map((entry) => entry.text),
    );
    assert.equal(later.nextCursor, undefined);
    assert.equal(asked(), 150);
  });

  it('entries outside are never shown; the pages together show every entry inside once, in order', async () => {
    const all = entries(1_000, (index) => index % 3 === 1);
    const { judge } = countingJudge();
    const { shown, outside } = await walk(all, judge);
    const inside = all.filter((entry) => entry.path.startsWith('/ws/')).map((entry) => entry.text);
    assert.deepEqual(shown, inside);
    assert.equal(outside, 1_000 - inside.length);
  });

  it('a page with entries outside is filled from the entries after it, still 100 when there are 100 more inside', async () => {
    const all = entries(400, (index) => index < 150);
    const { judge } = countingJudge();
    const page = await pageInside(all, undefined, judge, (entry) => entry.text);
    assert.deepEqual(
      page.items,
      all.slice(150, 250).map((entry) => entry.text),
    );
    assert.equal(page.outsideWorkspace, 150);
    assert.equal(page.nextCursor, '250');
  });

  it('a page cut to the size bound goes on where it was cut, counting no outside entry twice', async () => {
    const all = entries(
      300,
      (index) => index % 2 === 0,
      () => 'x'.repeat(1_000),
    );
    const { judge } = countingJudge();
    const { shown, outside } = await walk(all, judge, 10_000);
    assert.equal(shown.length, 150);
    assert.equal(outside, 150);
    const first = await pageInside(all, undefined, judge, (entry) => entry.text, 100, 10_000);
    assert.ok(JSON.stringify(first.items).length <= 10_000);
    assert.ok(first.items.length >= 1 && first.items.length < 100);
  });

  it('a cursor this server did not give is refused', async () => {
    const { judge } = countingJudge();
    await assert.rejects(
      pageInside(
        entries(10, () => false),
        '../etc',
        judge,
        (entry) => entry.text,
      ),
      /is not one this server gave/,
    );
  });
});
