/**
 * Follow the agent keeps the keyboard in the chat, in the real VS Code driven through Chromium: with
 * `acpClient.followAgent` on, the user sends a prompt with the keyboard; the scripted agent's tool calls name two
 * files, which the editor opens in turn (their tabs show) while the user goes on typing: every key lands in the
 * prompt, none in the revealed editor. Screenshot: test-results/e2e-follow-focus.png.
 */
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Locator } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { CodeServer } from '../support/code-server';
import { E2E_RESULTS, e2eHome } from '../support/e2e-home';
import { scriptedAgentPath } from '../support/repo-root';
import { chatFrame, LONG, runFromPalette } from './page-steps';

async function main(): Promise<void> {
  const { home, workspace, userDataDir, extensionsDir } = e2eHome('follow-focus');
  const files = ['follow-a.txt', 'follow-b.txt'].map((name) => path.join(workspace, name));
  for (const file of files) writeFileSync(file, Array.from({ length: 40 }, (_, index) => `line ${index + 1}`).join('\n'));
  const server = await CodeServer.start({
    home,
    userDataDir,
    extensionsDir,
    folder: workspace,
    settings: {
      'acpClient.agents': {
        Scripted: { command: process.execPath, args: [scriptedAgentPath()], env: { ACP_SCENARIO: 'follow', ACP_FOLLOW_PAUSE_MS: '2500' } },
      },
      'acpClient.defaultAgent': 'Scripted',
      'acpClient.followAgent': true,
    },
  });
  const browser = await launchBrowser(home, { width: 1280, height: 800 });
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`, { timeout: LONG * 2 });
    await page.locator('.monaco-workbench').waitFor({ timeout: LONG });
    await page
      .locator('.activitybar [aria-label^="ACP"]')
      .first()
      .waitFor({ timeout: LONG * 2 });
    await runFromPalette(page, 'Focus on Chat View');
    const chat = await chatFrame(page);
    const prompt = chat.locator('textarea[aria-label="Prompt"]');
    await prompt.waitFor({ state: 'visible', timeout: LONG });
    await prompt.click();
    await page.keyboard.type(`follow ${files[0]}:3 ${files[1]}:30`, { delay: 5 });
    await page.keyboard.press('Enter');
    const tab = (name: string): Locator => page.locator('.tabs-container .tab', { hasText: name }).first();
    // While the agent works, the user types the next prompt: each reveal happens in the middle of it.
    await tab('follow-a.txt').waitFor({ timeout: LONG });
    await page.keyboard.type('typed while the agent reads', { delay: 20 });
    await tab('follow-b.txt').waitFor({ timeout: LONG });
    await page.keyboard.type(' and edits', { delay: 20 });
    await page.waitForTimeout(1_000);
    await page.screenshot({ path: path.join(E2E_RESULTS, 'e2e-follow-focus.png') });
    assert.equal(await prompt.inputValue(), 'typed while the agent reads and edits', 'every key landed in the prompt');
    const editorText = await page.locator('.editor-instance .view-lines').first().innerText();
    assert.ok(!editorText.includes('typed'), 'nothing was typed into the revealed editor');
    console.log('  ✔ the editor followed the agent to both files while every key the user typed landed in the prompt');
  } finally {
    await browser.close().catch(() => undefined);
    await server.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
