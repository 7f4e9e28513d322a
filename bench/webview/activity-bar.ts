/**
 * Clicks on the workbench's activity bar the way a user's clicks land. VS Code runs a view container's item at
 * most once per 300 ms (ViewContainerActivityAction.preventDoubleClickDelay: a second click within it is taken
 * for an accidental double-click and dropped). On a fast machine the open bench clicked the same icon twice within
 * that window (a view opened, then the Explorer, then the same view again, each open about 150 ms): the Explorer
 * click was dropped, the view stayed shown, the next click on its icon hid the side bar, and the bench waited two
 * minutes for a prompt that no longer could come. A slower machine spaced its clicks past 300 ms by itself.
 */
import type { Page } from 'playwright-core';

/** VS Code's guard, and a margin for the time between our click returning and VS Code's run stamping it. */
const DOUBLE_CLICK_GUARD_MS = 300 + 50;

const lastClicks = new WeakMap<Page, Map<string, number>>();

/**
 * Clicks the first match of `selector` once VS Code would take it as a new click; returns the epoch ms just before
 * the click (the wait for the guard is not part of what the caller times).
 */
export async function clickActivityItem(page: Page, selector: string, timeout: number): Promise<number> {
  const clicks = lastClicks.get(page) ?? new Map<string, number>();
  lastClicks.set(page, clicks);
  const last = clicks.get(selector);
  const wait = last === undefined ? 0 : last + DOUBLE_CLICK_GUARD_MS - Date.now();
  if (wait > 0) await page.waitForTimeout(wait);
  const since = Date.now();
  await page.locator(selector).first().click({ timeout });
  clicks.set(selector, Date.now());
  return since;
}
