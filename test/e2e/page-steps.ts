/** Steps on the workbench page that more than one e2e script takes: find the chat's frame, run a palette command. */
import * as assert from 'node:assert/strict';
import type { Frame, Locator, Page } from 'playwright-core';

export const LONG = 60_000;

/** The chat webview's own document: the frame that holds the prompt box, once it is there. */
export async function chatFrame(page: Page): Promise<Frame> {
  const deadline = Date.now() + LONG;
  while (Date.now() < deadline) {
    const frame = await chatFrameNow(page);
    if (frame) return frame;
    await page.waitForTimeout(250);
  }
  throw new Error('the chat webview did not load');
}

/** The frame that holds the prompt box now, if any (no waiting). */
export async function chatFrameNow(page: Page): Promise<Frame | undefined> {
  for (const frame of page.frames()) {
    const prompts = await frame
      .locator('textarea[aria-label="Prompt"]')
      .count()
      .catch(() => 0);
    if (prompts > 0) return frame;
  }
  return undefined;
}

/**
 * Runs a command as a person does: F1, its title typed, Enter once the palette lists it. As a person, it presses F1
 * again (each retry is logged, so a palette closed under the user shows in the output) when:
 * - the palette did not come up: a key pressed while a view's page is being replaced reaches nothing (CI once lost
 *   it right after the chat opened);
 * - it closed before the text went in: VS Code's own, right after an activity-bar click. The click focuses the view;
 *   VS Code queues a `focus` message for the webview's outer frame, checking that no input has the focus when it
 *   queues it, not when it lands; the outer frame, created ~250 ms later with no content yet, answers with
 *   `window.focus()` (`pre/index.html`, its `focus` handler) and takes the focus from a palette opened in between. A
 *   focus trace of every frame showed it in 1 of 4 runs, before any script of ours had loaded. (A command's late focus
 *   closed it too, until the chat stopped taking the focus while a picker is open: e2e focus checks that.);
 * - it does not list the command: right after a reload it lists the commands known when it opened, before the
 *   extension's are registered, and does not refresh; it is closed first.
 */
export async function runFromPalette(page: Page, title: string): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first();
  const within = <T>(step: Promise<T>): Promise<boolean> =>
    step.then(
      () => true,
      () => false,
    );
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('F1');
    const opened = await within(input.waitFor({ state: 'visible', timeout: 15_000 }));
    const typed = opened && (await within(input.fill(`>${title}`, { timeout: 5_000 })));
    if (typed && (await within(row.waitFor({ timeout: attempt === 1 ? 15_000 : LONG })))) break;
    if (attempt === 6) throw new Error(`the command palette did not offer "${title}" in ${attempt} tries`);
    const why = !opened ? 'did not come up' : !typed ? 'closed before the text went in' : 'did not list it';
    console.log(`  palette: F1 again for "${title}" (the palette ${why})`);
    if (await input.isVisible()) await page.keyboard.press('Escape');
  }
  await page.keyboard.press('Enter');
}

/**
 * Reload Window from the palette, as a person does; resolves once the new workbench is on the page. Not the browser's
 * own reload (page.reload): the command first waits for VS Code to write its state (the views open, each webview's
 * saved state), where a browser reload leaves that write racing the page's unload (code-server keeps it in the
 * browser's IndexedDB), and CI once lost the chat's saved preview to it.
 */
export async function reloadWindow(page: Page): Promise<void> {
  const navigated = page.waitForEvent('framenavigated', { predicate: (frame) => frame === page.mainFrame(), timeout: LONG });
  await runFromPalette(page, 'Developer: Reload Window');
  await navigated;
  await page.locator('.monaco-workbench').waitFor({ timeout: LONG });
}

/** Opens the fixture's src/hello.ts with Quick Open and selects its first two lines with the keyboard, as a person would. */
export async function selectFirstLinesOfHello(page: Page): Promise<void> {
  await page.keyboard.press('Control+P');
  await page.locator('.quick-input-widget input').fill('hello.ts');
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'hello.ts' }).first().waitFor({ timeout: LONG });
  await page.keyboard.press('Enter');
  const editor = page.locator('.monaco-editor[data-uri$="hello.ts"] .view-lines').first();
  await editor.waitFor({ timeout: LONG });
  await editor.click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Shift+ArrowDown');
}

/**
 * Waits until the locator's text (white space folded) holds every needle; fails with the text it last read. xterm
 * splits a row into spans by character width, so a terminal's text is read whole rather than matched by locator.
 */
export async function waitForText(locator: Locator, needles: readonly string[]): Promise<void> {
  const deadline = Date.now() + LONG;
  let text = '';
  while (Date.now() < deadline) {
    text = (await locator.innerText().catch(() => '')).replace(/\s+/g, ' ');
    if (needles.every((needle) => text.includes(needle))) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  assert.fail(`expected ${JSON.stringify(needles)} in ${JSON.stringify(text)}`);
}
