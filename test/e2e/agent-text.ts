/**
 * Agent text is text everywhere: the attack rows of "Agent text" in the attack matrix, each driven through the
 * installed .vsix in the real VS Code (code-server + Chromium) and checked on the page, where VS Code itself renders
 * the string. The scripted agent's `hostile-text` scenario (test/fixtures/agents/scenarios/hostile-text.ts) sends
 * a `command:` link, a disguised https link and a codicon in a session title, a permission request and an
 * elicitation; an agent configured under a hostile name with hostile sign-in method names covers the agent name and
 * sign-in rows. Each row asserts that VS Code drew no link (`<a>`) and no codicon from it, that the user reads the
 * brackets and `$(…)` as written, and that clicking the text ran nothing (the Settings editor the link names never
 * opened).
 */
import * as assert from 'node:assert/strict';
import { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import type { AttackCase } from '../support/attack-case';
import { launchBrowser } from '../support/browser';
import { CodeServer } from '../support/code-server';
import { E2E_RESULTS, e2eHome } from '../support/e2e-home';
import { scriptedAgentPath } from '../support/repo-root';
import {
  DISGUISED_FILE_WORDS,
  HOSTILE_ELICITATION,
  HOSTILE_FILE,
  HOSTILE_METHOD,
  HOSTILE_OPTION,
  HOSTILE_TITLE,
  LINK_WORDS,
  OUTPUT_END,
} from '../fixtures/agents/scenarios/hostile-text';
import { chatFrame, LONG, runFromPalette, waitForText } from './page-steps';

const results = E2E_RESULTS;
/** An agent name from settings that tries the same: a codicon and a command link. */
const EVIL_AGENT = '$(zap) Evil [settings](command:workbench.action.openSettings)';
/** Drawn from the hostile strings where VS Code parses icons: must never be on the page. */
const FOREIGN_ICONS = '.codicon-zap, .codicon-rocket';

interface Row extends AttackCase {
  readonly run: (page: Page) => Promise<void>;
}

function scripted(env: Record<string, string>): Record<string, unknown> {
  return { command: process.execPath, args: [scriptedAgentPath()], env };
}

async function send(chat: Frame, text: string): Promise<void> {
  const prompt = chat.locator('textarea[aria-label="Prompt"]');
  await prompt.waitFor({ state: 'visible', timeout: LONG });
  await prompt.fill(text);
  await chat.getByRole('button', { name: 'Send', exact: true }).waitFor({ timeout: LONG });
  await prompt.press('Enter');
}

/** The toast whose message holds `text`, once it shows. */
async function toast(page: Page, text: string): Promise<Locator> {
  const found = page.locator('.notifications-toasts .notification-list-item', { hasText: text }).first();
  await found.waitFor({ timeout: LONG });
  return found;
}

/** No link in the toast's message, the brackets read as written, and a click on the text runs nothing. */
async function assertInertToast(page: Page, item: Locator, literal: string): Promise<void> {
  const message = item.locator('.notification-list-item-message');
  assert.equal(await message.locator('a[href]').count(), 0, `no link in the notification: ${await message.innerHTML()}`);
  const shown = await message.innerText();
  assert.ok(shown.includes(literal), `the notification shows ${JSON.stringify(literal)} as text: ${shown}`);
  await message.click();
  await page.waitForTimeout(800);
  assert.equal(await page.locator('.settings-editor').count(), 0, 'clicking the text opened no Settings editor');
}

/**
 * The quick pick's row holding `find`: no codicon from foreign text in the picker, and `needle` reads as written in
 * that row. (A row's label is an `<a>` without href in VS Code's markup: only an href makes a link.)
 */
async function assertInertPick(page: Page, find: string, needle: string, ownIcon?: string): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  const row = widget.locator('.monaco-list-row', { hasText: find }).first();
  await row.waitFor({ timeout: LONG });
  assert.equal(await widget.locator(FOREIGN_ICONS).count(), 0, `no codicon drawn from the agent's text: ${await row.innerHTML()}`);
  assert.equal(await widget.locator('.monaco-list-row a[href]').count(), 0, 'no link in the rows');
  const text = await row.innerText();
  assert.ok(text.includes(needle), `the row reads ${JSON.stringify(needle)} as written: ${text}`);
  if (ownIcon) assert.ok((await widget.locator(`.codicon-${ownIcon}`).count()) > 0, `the picker's own ${ownIcon} icon still shows`);
}

/** What the fix shows of a link: its brackets and target as text, with a space where they meet. */
const inertLink = (text: string): string => text.replace(/\]\(/g, '] (');

function rows(chatOf: () => Promise<Frame>, workspace: string): Row[] {
  return [
    {
      attack: 'a permission request whose title and option names carry a codicon and links',
      driven: 'the scripted agent sends session/request_permission; the dialog (a quick pick) is read, then answered',
      sees: 'the option as written (`$(zap) Allow [this] (https://…)`), the title as text; only our own check icon',
      run: async (page) => {
        const chat = await chatOf();
        await send(chat, 'permission');
        await page.locator('.quick-input-widget').getByText('asks permission', { exact: false }).waitFor({ timeout: LONG });
        await assertInertPick(page, 'Allow [this]', inertLink(HOSTILE_OPTION), 'check');
        const title = await page.locator('.quick-input-widget .quick-input-title').innerText();
        assert.ok(title.includes('$(zap) Run [open the settings]'), `the title reads as written: ${title}`);
        await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Allow [this]' }).first().click();
        await chat.getByText('permission: allow').waitFor({ timeout: LONG });
      },
    },
    {
      attack: 'a session title with a codicon and a command link, in the Sessions view and the Switch Session picker',
      driven:
        'the Sessions view opened on the conversation, then the scripted agent sends session_info_update with the title; then ACP: Switch Session',
      sees: 'the title as written, `$(zap)` and the brackets as text; no icon, no link',
      run: async (page) => {
        const chat = await chatOf();
        // The Sessions view shows the conversation (named by its first prompt) before the title comes: the title
        // reaches a row VS Code already shows, through a refresh of its day alone.
        await page
          .getByRole('button', { name: /^Sessions/ })
          .first()
          .click({ timeout: LONG });
        const tree = page.locator('.pane-body .monaco-list').filter({ hasText: 'Today' }).first();
        await tree.locator('.monaco-list-row', { hasText: 'permission' }).first().waitFor({ timeout: LONG });
        await send(chat, 'title');
        await chat.getByText('title set').waitFor({ timeout: LONG });
        const item = tree.locator('.monaco-list-row', { hasText: 'Fix [bug] (urgent)' }).first();
        await item.waitFor({ timeout: LONG });
        assert.equal(await item.locator(FOREIGN_ICONS).count(), 0, 'no codicon in the Sessions view');
        assert.equal(await item.locator('a[href]').count(), 0, 'no link in the Sessions view');
        assert.ok((await item.innerText()).includes('$(zap) Fix [bug] (urgent) [open the settings]'), await item.innerText());
        await runFromPalette(page, 'ACP: Switch Session');
        await assertInertPick(page, 'Fix [bug]', inertLink(HOSTILE_TITLE).slice(0, 60), 'comment-discussion');
        await page.keyboard.press('Escape');
      },
    },
    {
      attack:
        "a command's output with terminal control strings (a clipboard write, a link hiding its target, a title, shell-integration marks, an image), in Open in Terminal",
      driven:
        "the scripted agent runs a command (terminal/create) that prints them, cut mid-string; the card's Open in Terminal is clicked",
      sees: "the output's words and colours in the VS Code terminal: no link, no folder in the tab, no image data in the card",
      run: async (page) => {
        const chat = await chatOf();
        await send(chat, 'terminal');
        // Opened while the command runs: the control strings come 5 s after its first line.
        const card = chat.locator('.terminal', { hasText: 'tests passed' }).first();
        await card.getByRole('button', { name: /Open in Terminal: the output of/ }).click({ timeout: LONG });
        const terminal = page.locator('.xterm-rows').first();
        await waitForText(terminal, ['tests passed']);
        await chat.getByText('tests run').waitFor({ timeout: LONG });
        await waitForText(terminal, [OUTPUT_END]);
        await page.screenshot({ path: path.join(results, 'e2e-agent-text-terminal.png') });
        const shown = (await terminal.innerText()).replace(/\s+/g, ' ');
        assert.ok(shown.includes(`tests passed see ${LINK_WORDS} ${OUTPUT_END}`), `the output's words are shown, nothing else: ${shown}`);
        assert.ok(!shown.includes('<U+000A>'), `the inline script above the output reads as lines: ${shown.slice(0, 300)}`);
        // xterm draws an OSC 8 link's words with a dashed underline (xterm-underline-5); the output has no other.
        const underlined = await terminal.locator('[class*="xterm-underline"]').allInnerTexts();
        assert.deepEqual(underlined, [], 'no words of the output are a link');
        assert.ok((await terminal.locator('.xterm-fg-2').allInnerTexts()).includes('tests passed'), 'its colour is kept');
        // The shell-integration mark claimed the folder /etc: VS Code names a terminal's folder in its tab.
        const tabs = await page.locator('.terminal-tabs-entry, .single-terminal-tab').allInnerTexts();
        assert.ok(
          tabs.length > 0 && tabs.every((tab) => !/\betc\b/.test(tab)),
          `the tab names no folder from the output: ${tabs.join(' | ')}`,
        );
        const cardText = await card.locator('.terminal-output').innerText();
        assert.ok(!cardText.includes('#0;2;0'), `the card shows no image data: ${cardText}`);
        // OSC 52 (the clipboard write) is gone with the rest; desktop VS Code writes the system clipboard with it, the
        // browser workbench here keeps it in memory where a page cannot read it, so the unit test checks that one.
        await chat.locator('textarea[aria-label="Prompt"]').focus();
      },
    },
    {
      attack: 'an elicitation message with a command link, sent while the chat is hidden',
      driven: 'the scripted agent sends elicitation/create 4 s after the prompt; the Explorer is opened meanwhile',
      sees: 'a notification "Hostile is waiting for your answer: Please [open the settings] (command:…)" with no link; clicking it runs nothing',
      run: async (page) => {
        const chat = await chatOf();
        await send(chat, 'elicit');
        await page.locator('.activitybar [aria-label^="Explorer"]').first().click({ timeout: LONG });
        const item = await toast(page, 'is waiting for your answer');
        await assertInertToast(page, item, inertLink(HOSTILE_ELICITATION));
        await page.screenshot({ path: path.join(results, 'e2e-agent-text-elicitation.png') });
      },
    },
    {
      attack: 'a file named as a command link, in the warning that Undo left it alone',
      driven:
        'the scripted agent writes `[Show details](command:…).txt` (fs/write_text_file); a script swaps it for a dangling symbolic link; the change card’s Undo is clicked',
      sees: 'a warning "Did not undo [Show details] (command:…).txt: it is now a symbolic link whose target is missing." with no link; clicking it runs nothing',
      run: async (page) => {
        const chat = await chatOf();
        // The elicitation row leaves its question open: declined first, so this prompt is not queued behind it.
        const decline = chat.getByRole('button', { name: 'Decline', exact: true }).last();
        if (await decline.isVisible()) {
          await decline.click();
          await chat.getByText('elicitation: decline').waitFor({ timeout: LONG });
        }
        await send(chat, 'file');
        await chat.getByText('file written').waitFor({ timeout: LONG });
        const undo = chat.getByRole('button', { name: 'Undo', exact: true }).last();
        await undo.waitFor({ timeout: LONG });
        // What the repository's own script could do after the turn: the file becomes a link (here to nowhere).
        const written = path.join(workspace, HOSTILE_FILE);
        rmSync(written);
        symlinkSync(path.join(workspace, 'missing-target'), written);
        await undo.click();
        const warning = await toast(page, 'Did not undo');
        await assertInertToast(
          page,
          warning,
          `Did not undo ${inertLink(HOSTILE_FILE)}: it is now a symbolic link whose target is missing.`,
        );
        rmSync(written);
      },
    },
    {
      attack: "a link to a workspace file in the agent's text, clicked in the browser-hosted workbench",
      driven: 'the scripted agent writes `[the hello module](src/hello.ts)`; the link is clicked',
      sees: 'src/hello.ts in the editor, and no browser tab opened beside the workbench',
      run: async (page) => {
        const chat = await chatOf();
        await send(chat, 'link');
        const link = chat.getByRole('link', { name: 'the hello module' }).last();
        await link.waitFor({ timeout: LONG });
        const pagesBefore = page.context().pages().length;
        await link.click();
        await page.locator('.tabs-container .tab', { hasText: 'hello.ts' }).first().waitFor({ timeout: LONG });
        await page.waitForTimeout(1_500);
        const opened = page.context().pages().slice(pagesBefore);
        assert.deepEqual(
          opened.map((other) => other.url()),
          [],
          "no other page: VS Code's own link handler in the webview opened the relative link against the webview's address",
        );
      },
    },
    {
      attack: "a link in the agent's text that reads as a workspace file and targets a file outside it, dragged into the prompt",
      driven: `the scripted agent writes \`[${DISGUISED_FILE_WORDS}](file:///…/outside-secret.txt)\`; the link is dragged onto the prompt`,
      sees: "no attachment: the drop carries the link's words alone, so nothing of the file would go with the next message",
      run: async () => {
        const secret = path.join(path.dirname(workspace), 'outside-secret.txt');
        writeFileSync(secret, 'api_key=not-for-the-agent\n');
        try {
          const chat = await chatOf();
          await send(chat, `drag ${secret}`);
          const link = chat.getByRole('link', { name: DISGUISED_FILE_WORDS }).last();
          await link.waitFor({ timeout: LONG });
          const prompt = chat.locator('textarea[aria-label="Prompt"]');
          // What the drop hands the page, as the composer reads it (its types, and the words or target they hold).
          await chat.evaluate(`document.addEventListener('drop', (event) => {
            const data = event.dataTransfer;
            const seen = data ? [...data.types].map((type) => type + ': ' + data.getData(type)) : [];
            document.documentElement.dataset.lastDrop = JSON.stringify(seen);
          }, { capture: true, once: true })`);
          await link.dragTo(prompt);
          // The browser-hosted workbench's Chromium already hands a drop from this page "about:blank#blocked" for a
          // file: target, so what is left to see is what the drop carries: the old one carried the link as a URI list
          // (which a runtime that passes file: targets through makes an attached file), the new one only its words.
          const dropped = await chat.waitForFunction('document.documentElement.dataset.lastDrop', undefined, { timeout: 10_000 });
          assert.deepEqual(
            JSON.parse(String(await dropped.jsonValue())),
            [`text/plain: ${DISGUISED_FILE_WORDS}`],
            'the drop carries the words alone',
          );
          const chips = await chat.locator('[aria-label="Attachments"] [role="listitem"]').allTextContents();
          assert.deepEqual(chips, [], `no attachment from the agent's link (the chips: ${JSON.stringify(chips)})`);
          await prompt.fill('');
        } finally {
          rmSync(secret, { force: true });
        }
      },
    },
    {
      attack: 'an agent name from settings with a codicon and a command link, in Select Agent and its notifications',
      driven: 'acpClient.agents names an agent so; ACP: Select Agent lists it and it is picked (it needs sign-in)',
      sees: 'the name as written in the picker (our own icons still drawn) and in the "needs you to sign in" notification, no link',
      run: async (page) => {
        await runFromPalette(page, 'ACP: Select Agent');
        await assertInertPick(page, 'Evil [settings]', inertLink(EVIL_AGENT), 'cloud-download');
        await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Evil [settings]' }).first().click();
        const item = await toast(page, 'needs you to sign in');
        await assertInertToast(page, item, `${inertLink(EVIL_AGENT)} needs you to sign in.`);
      },
    },
    {
      attack: 'sign-in method names with a codicon and a command link, in the method picker and the progress notification',
      driven:
        'the agent lists the method in initialize; the notification\'s "Sign In…" is clicked, the method picked (the agent takes 8 s)',
      sees: 'the method as written in the picker; "Signing in to … (\\$(zap) Scripted [open the settings] (command:…))…" in the progress toast; no icon, no link',
      run: async (page) => {
        const asked = await toast(page, 'needs you to sign in');
        await asked.getByRole('button', { name: 'Sign In…' }).click({ timeout: LONG });
        await assertInertPick(page, 'Scripted [open', inertLink(HOSTILE_METHOD));
        await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Scripted [open the settings]' }).first().click();
        const progress = await toast(page, 'Signing in to');
        // A progress title goes to the status bar too when toasts are hidden, where icons render: escaped, so the
        // toast (which draws none) shows the escape.
        const escaped = (text: string): string => inertLink(text).replace(/\$\(/g, '\\$(');
        await assertInertToast(page, progress, `Signing in to ${escaped(EVIL_AGENT)} (${escaped(HOSTILE_METHOD)})`);
      },
    },
  ];
}

async function main(): Promise<void> {
  const { home, workspace, userDataDir, extensionsDir } = e2eHome('text');
  const server = await CodeServer.start({
    home,
    userDataDir,
    extensionsDir,
    folder: workspace,
    settings: {
      'acpClient.agents': {
        Hostile: scripted({ ACP_SCENARIO: 'hostile-text' }),
        [EVIL_AGENT]: {
          ...scripted({ ACP_SCENARIO: 'stream', ACP_AUTH: '1', ACP_AUTH_HOSTILE: '1', ACP_AUTH_DELAY_MS: '8000' }),
          args: [scriptedAgentPath(), '$(rocket)'],
        },
      },
      'acpClient.defaultAgent': 'Hostile',
      // The DOM renderer, so that the terminal's text can be read.
      'terminal.integrated.gpuAcceleration': 'off',
    },
  });
  const browser = await launchBrowser(home, { width: 1280, height: 860 });
  const passed: Row[] = [];
  const failed: Row[] = [];
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`, { timeout: LONG });
    await page.locator('.monaco-workbench').waitFor({ timeout: LONG });
    // Clicking the ACP icon while its sidebar shows would close it: clicked only when the chat is not on screen.
    const chatOf = async (): Promise<Frame> => {
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
    };
    // Every row runs and reports, so one run shows the whole matrix (a later row may need an earlier one's state).
    for (const row of rows(chatOf, workspace)) {
      try {
        await row.run(page);
        passed.push(row);
        console.log(`  ✔ attack: ${row.attack}`);
      } catch (error) {
        failed.push(row);
        console.log(`  ✘ attack: ${row.attack}\n    ${error instanceof Error ? error.message : String(error)}`);
        await page.screenshot({ path: path.join(results, `e2e-agent-text-failure-${failed.length}.png`) }).catch(() => undefined);
        await page.keyboard.press('Escape').catch(() => undefined);
      }
    }
    console.log(`${passed.length} passed, ${failed.length} failed`);
  } finally {
    await browser.close().catch(() => undefined);
    server.stop();
  }
  if (failed.length > 0) process.exit(1);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  console.log('1 failed');
  process.exit(1);
});
