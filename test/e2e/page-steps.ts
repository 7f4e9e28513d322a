/** Steps on the workbench page that more than one e2e script takes: find the chat's frame, run a palette command. */
import type { Frame, Page } from 'playwright-core';

export const LONG = 60_000;

/** The chat webview's own document: the frame that holds the prompt box. */
export async function chatFrame(page: Page): Promise<Frame> {
  const deadline = Date.now() + LONG;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      if (
        await frame
          .locator('textarea[aria-label="Prompt"]')
          .count()
          .catch(() => 0)
      )
        return frame;
    }
    await page.waitForTimeout(250);
  }
  throw new Error('the chat webview did not load');
}

/** Runs a command as a person does: F1, its title typed, Enter once the palette lists it. */
export async function runFromPalette(page: Page, title: string): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  // As a person presses F1 again when the palette did not come up: a key pressed while a view's page is being
  // replaced reaches nothing (CI once lost it right after the chat opened, and waited on a hidden input).
  // The same when the palette closed again before the text went in (a command's late focus closed it, until the
  // chat stopped taking the focus while a picker is open: e2e focus checks that). Every retry is logged, so a
  // palette closed under a person shows in the output.
  for (let attempt = 0; ; attempt++) {
    const last = attempt >= 2;
    await page.keyboard.press('F1');
    const typed = await input
      .waitFor({ state: 'visible', timeout: last ? LONG : 5_000 })
      .then(() => input.fill(`>${title}`, { timeout: last ? LONG : 5_000 }))
      .then(() => true)
      .catch((error: unknown) => {
        if (last) throw error;
        return false;
      });
    if (typed) break;
    console.log(`  palette: F1 again for "${title}" (the palette did not come up, or closed before the text went in)`);
  }
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first().waitFor({ timeout: LONG });
  await page.keyboard.press('Enter');
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
