/**
 * Issue 29 through the installed .vsix in the real VS Code (code-server + Chromium): the scripted agent changes
 * files; the change card opens the agent's diff; a review comment goes on a line of the agent's side and shows as a
 * thread there; the chat says "1 review comment" with Send to agent; ACP: Review All Changes of This Conversation
 * opens the multi-file diff of everything the conversation changed. Screenshots: e2e-review-comment-thread.png,
 * e2e-review-comments-bar.png, e2e-review-conversation.png.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { CodeServer } from '../support/code-server';
import { E2E_RESULTS, e2eHome } from '../support/e2e-home';
import { scriptedAgentPath } from '../support/repo-root';
import { chatFrame, LONG, runFromPalette } from './page-steps';

const COMMENT = 'Say which file this came from';

async function openChat(page: Page): Promise<Frame> {
  for (const frame of page.frames())
    if (
      await frame
        .locator('textarea[aria-label="Prompt"]')
        .isVisible()
        .catch(() => false)
    )
      return frame;
  await page.locator('.activitybar [aria-label^="ACP"]').first().click({ timeout: LONG });
  return chatFrame(page);
}

async function main(): Promise<void> {
  const { home, workspace, userDataDir, extensionsDir } = e2eHome('review');
  // What the `changes` scenario edits, deletes and renames.
  const review = path.join(workspace, 'review');
  mkdirSync(review, { recursive: true });
  writeFileSync(path.join(review, 'edit-me.txt'), 'first line\n');
  writeFileSync(path.join(review, 'delete-me.txt'), 'going away\n');
  writeFileSync(path.join(review, 'old-name.txt'), 'renamed content\n');
  const server = await CodeServer.start({
    home,
    userDataDir,
    extensionsDir,
    folder: workspace,
    settings: {
      'acpClient.agents': { Scripted: { command: process.execPath, args: [scriptedAgentPath()], env: { ACP_SCENARIO: 'changes' } } },
      'acpClient.defaultAgent': 'Scripted',
    },
  });
  const browser = await launchBrowser(home, { width: 1400, height: 900 });
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`, { timeout: LONG });
    await page.locator('.monaco-workbench').waitFor({ timeout: LONG });
    let chat = await openChat(page);
    const prompt = chat.locator('textarea[aria-label="Prompt"]');
    await prompt.waitFor({ state: 'visible', timeout: LONG });
    // The chat's Send button, enabled: the page's own prompt (in its HTML) is there before any script has run, and
    // an Enter pressed there before the page's first script is a newline.
    const sendButton = chat.getByRole('button', { name: 'Send', exact: true });
    for (const deadline = Date.now() + LONG; !(await sendButton.isEnabled().catch(() => false)) && Date.now() < deadline; )
      await page.waitForTimeout(200);
    await prompt.fill('change the files');
    await prompt.press('Enter');
    const open = chat.locator('button[data-action="open-change"]', { hasText: 'client.txt' });
    await open.waitFor({ timeout: LONG });
    // Each file's counts read as one token ("+0", not "+" over "0"): the renamed file's row, its label the longest,
    // broke them between sign and digits in the chat's default width. A range over a count's text has a box per line.
    await chat.locator('.changes-file', { hasText: 'new-name.txt' }).waitFor({ timeout: LONG });
    const stats = await chat.locator('.changes-file .diff-stat').evaluateAll((elements) =>
      elements.map((element) => {
        const range = element.ownerDocument.createRange();
        range.selectNodeContents(element);
        return { text: element.textContent ?? '', lines: new Set([...range.getClientRects()].map((box) => Math.round(box.top))).size };
      }),
    );
    assert.ok(stats.length >= 8, `the five files' counts are shown (${JSON.stringify(stats)})`);
    assert.deepEqual(
      stats.filter((stat) => stat.lines !== 1),
      [],
      'every count is on one line',
    );
    console.log('  ✔ each changed file’s +/− counts stay on one line');
    await open.click();
    // The agent's side of the diff editor: the comment goes on its first line, through the palette's command.
    await page.locator('.monaco-diff-editor .editor.modified').first().waitFor({ timeout: LONG });
    await page.locator('.monaco-diff-editor .editor.modified .view-lines').first().click();
    await runFromPalette(page, 'ACP: Add Review Comment for the Agent');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ timeout: LONG });
    await input.fill(COMMENT);
    await page.keyboard.press('Enter');
    const thread = page.locator('.review-widget', { hasText: COMMENT }).first();
    await thread.waitFor({ timeout: LONG });
    assert.ok((await thread.innerText()).includes('For the agent'), 'the thread says who it is for');
    await page.screenshot({ path: path.join(E2E_RESULTS, 'e2e-review-comment-thread.png') });
    console.log('  ✔ a review comment shows as a thread on the agent’s side of the diff');

    chat = await openChat(page);
    const bar = chat.locator('.review-comments-bar');
    await bar.waitFor({ state: 'visible', timeout: LONG });
    assert.equal((await bar.innerText()).replace(/\s+/g, ' ').trim().startsWith('1 review comment'), true, await bar.innerText());
    await chat.getByRole('button', { name: 'Send to agent' }).waitFor({ timeout: LONG });
    await page.screenshot({ path: path.join(E2E_RESULTS, 'e2e-review-comments-bar.png') });
    console.log('  ✔ the chat shows "1 review comment" with Send to agent');

    await runFromPalette(page, 'ACP: Review All Changes of This Conversation');
    const tab = page.locator('.tabs-container .tab', { hasText: 'Conversation changes' }).first();
    await tab.waitFor({ timeout: LONG });
    const label = await tab.innerText();
    // VS Code's tab adds the count itself ("5 files (5 files)" when ours was in the title too).
    assert.match(label, /^Conversation changes \(5 files\)/);
    assert.doesNotMatch(label, /files \(/);
    // The choices count the entries the editor lists (a rename is one), not the paths behind them (it said 6).
    const toast = page.locator('.notification-toast', { hasText: 'This conversation changed' }).first();
    await toast.waitFor({ timeout: LONG });
    assert.match(await toast.innerText(), /This conversation changed 5 files\./);
    await page.waitForTimeout(1500);
    await page.screenshot({ path: path.join(E2E_RESULTS, 'e2e-review-conversation.png') });
    console.log('  ✔ the conversation review opens the multi-file diff of its 5 files');
    console.log('4 passed, 0 failed');
  } catch (error) {
    const page = browser.pages()[0];
    await page?.screenshot({ path: path.join(E2E_RESULTS, 'e2e-review-failure.png') }).catch(() => undefined);
    throw error;
  } finally {
    await browser.close().catch(() => undefined);
    server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  console.log('1 failed');
  process.exit(1);
});
