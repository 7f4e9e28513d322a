/**
 * What the chat renders of hostile agent content, read from the page of the real VS Code (code-server + Chromium):
 * the raw fault agent's `xss-content` (markup in a tool title, a javascript: link, a remote image, raw HTML in
 * markdown) runs no script and leaves no unsafe link or image; `bidi-permission` (reordering and invisible
 * characters in a title, a path and an option) shows them visibly in the permission dialog and the card, with the
 * path workspace-relative. The same faults run in the fault matrix (unit and integration) for the host's side.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { CodeServer } from '../support/code-server';
import { E2E_RESULTS, e2eHome } from '../support/e2e-home';
import { scriptedAgentPath } from '../support/repo-root';
import { chatFrame, LONG, runFromPalette } from './page-steps';
import { checkList } from './check-list';
import { recordFailureScene } from './failure-scene';

const results = E2E_RESULTS;
/** Characters that reorder or hide text: none may reach the page as themselves. */
const HIDDEN = /[\u202A-\u202E\u2066-\u2069\u200B]/u;

function rawAgent(fault: string): Record<string, unknown> {
  return {
    command: process.execPath,
    args: [path.join(path.dirname(scriptedAgentPath()), 'raw-agent.mjs')],
    env: { ACP_RAW_FAULT: fault },
  };
}

async function send(chat: Frame, text: string): Promise<void> {
  const prompt = chat.locator('textarea[aria-label="Prompt"]');
  await prompt.waitFor({ state: 'visible', timeout: LONG });
  await prompt.fill(text);
  await chat.getByRole('button', { name: 'Send', exact: true }).waitFor({ timeout: LONG });
  await prompt.press('Enter');
}

/** Counts what must never be in the chat's document after hostile content. */
const UNSAFE = `(() => ({
  scripts: document.querySelectorAll('.transcript script').length,
  handlers: [...document.querySelectorAll('.transcript *')].filter((el) => [...el.attributes].some((a) => /^on/i.test(a.name))).length,
  javascriptLinks: [...document.querySelectorAll('.transcript [href]')].filter((el) => /^\\s*javascript:/i.test(el.getAttribute('href'))).length,
  remoteImages: [...document.querySelectorAll('.transcript img')].filter((el) => /evil\\.example|^x$/.test(el.getAttribute('src') || '')).length,
}))()`;

const { check, allPassed, failed } = checkList();

async function main(): Promise<void> {
  const { home, workspace, userDataDir, extensionsDir } = e2eHome('content');
  const server = await CodeServer.start({
    home,
    userDataDir,
    extensionsDir,
    folder: workspace,
    settings: {
      'acpClient.agents': { Hostile: rawAgent('xss-content'), Bidi: rawAgent('bidi-permission') },
      'acpClient.defaultAgent': 'Hostile',
    },
  });
  const browser = await launchBrowser(home, { width: 1280, height: 860 });
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`);
    await page.locator('.monaco-workbench').waitFor({ timeout: LONG });
    await page.locator('.activitybar [aria-label^="ACP"]').first().click({ timeout: LONG });
    let chat = await chatFrame(page);

    await send(chat, 'show me something');
    await chat.getByText('report: after xss', { exact: false }).waitFor({ timeout: LONG });
    const card = chat.locator('[data-kind="tool_call"]').first();
    assert.ok(
      (await card.innerText()).includes('<img src=x onerror=alert(1)><script>alert(2)</script>'),
      'the markup in the title is shown as text',
    );
    const message = chat.locator('[data-kind="message"]', { hasText: 'report: after xss' });
    assert.match(await message.innerText(), /onerror=alert\(4\)/, 'raw HTML in markdown is shown as text');
    await page.waitForTimeout(500);
    assert.deepEqual(await chat.evaluate(UNSAFE), { scripts: 0, handlers: 0, javascriptLinks: 0, remoteImages: 0 });
    assert.deepEqual(dialogs, [], 'no alert ran');
    await page.screenshot({ path: path.join(results, 'e2e-agent-content.png') });
    check('markup, a javascript: link and a remote image from the agent run nothing and leave no unsafe link or image');

    await runFromPalette(page, 'ACP: Select Agent');
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Bidi' }).first().click({ timeout: LONG });
    // Another agent, another conversation: the chat swaps to it (the earlier one's answer leaves the page).
    await chat.getByText('report: after xss', { exact: false }).waitFor({ state: 'detached', timeout: LONG });
    chat = await chatFrame(page);
    await send(chat, 'edit it');
    const pick = page.locator('.quick-input-widget');
    await pick.getByText('asks permission', { exact: false }).waitFor({ timeout: LONG });
    const dialogText = await pick.innerText();
    const placeholder = (await pick.locator('input').getAttribute('placeholder')) ?? '';
    for (const shown of [dialogText, placeholder]) assert.doesNotMatch(shown, HIDDEN, `the dialog shows no hidden characters: ${shown}`);
    assert.match(dialogText, /Edit <U\+202E>txt\.exe<U\+202C>/, 'the override in the title is shown as a code');
    assert.match(dialogText, /Allow <U\+200B>once/, 'the zero-width space in the option is shown');
    assert.match(
      placeholder,
      /Files: workspace\/<U\+2066>evil<U\+2069>\.ts\. /,
      `the path is workspace-relative (with its folder), its isolates shown: ${placeholder}`,
    );
    await page.screenshot({ path: path.join(results, 'e2e-bidi-dialog.png') });
    await page.keyboard.press('Enter');
    await chat.getByText('report: permission ok', { exact: false }).waitFor({ timeout: LONG });
    const bidiCard = chat.locator('[data-kind="tool_call"]', { hasText: 'txt.exe' }).first();
    const cardText = await bidiCard.innerText();
    assert.doesNotMatch(cardText, HIDDEN, `the card shows no hidden characters: ${cardText}`);
    assert.match(cardText, /<U\+202E>/, 'the card shows the override as a code');
    check('reordering and invisible characters in a title, a path and an option are shown visibly in the dialog and the card');
    allPassed();
  } catch (error) {
    await recordFailureScene(browser, path.join(results, 'e2e-agent-content-failure.png'));
    throw error;
  } finally {
    await browser.close().catch(() => undefined);
    server.stop();
  }
}

main().catch(failed);
