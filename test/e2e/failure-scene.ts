/**
 * What the workbench showed when a suite stopped at a failure. CI keeps only the end of the log (and the lines marked
 * ✘, which scripts/test-all.sh repeats under its summary), not the screenshots, so the chat's text and the open
 * notifications go into the log as ✘ lines as well.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { chatFrameNow } from './page-steps';

const SHOWN_CHARACTERS = 500;

export async function recordFailureScene(browser: BrowserContext, screenshotPath: string): Promise<void> {
  const page = browser.pages()[0];
  if (!page) return;
  await page.screenshot({ path: screenshotPath }).catch(() => undefined);
  console.log(`  ✘ the chat showed: …${await chatText(page)}`);
  const notifications = await page
    .locator('.notifications-toasts .notification-list-item-message')
    .allInnerTexts()
    .catch(() => []);
  console.log(`  ✘ notifications: ${notifications.length > 0 ? notifications.map(oneLine).join(' | ') : 'none'}`);
}

/** The end of the chat's text (the newest entries and the composer), on one line. */
async function chatText(page: Page): Promise<string> {
  const frame = await chatFrameNow(page);
  if (!frame) return '(no chat frame in the page)';
  const text = await frame
    .locator('body')
    .innerText({ timeout: 5_000 })
    .catch((error: unknown) => `(unreadable: ${String(error)})`);
  const prompt = await frame
    .locator('textarea[aria-label="Prompt"]')
    .first()
    .inputValue({ timeout: 5_000 })
    .catch(() => '?');
  return `${oneLine(text).slice(-SHOWN_CHARACTERS)} [prompt: "${oneLine(prompt)}"]`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
