/**
 * Reload Window mid-conversation: the chat comes back as it was (transcript, title, the draft being typed) before
 * any agent starts, and the next prompt starts the agent again and is answered. The history was left as a process
 * killed mid-write leaves it: its last record cut short.
 */
import * as assert from 'node:assert/strict';
import { appendFileSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { storageLocksReleased } from '../support/storage-locks';
import { chatFrame, reloadWindow } from './page-steps';
import { transcriptGeometry, type TranscriptGeometry } from './transcript-geometry';

export interface ReloadSteps {
  readonly page: Page;
  readonly chat: Frame;
  /** Finds the chat's frame again after the reload. */
  readonly reopenChat: (page: Page) => Promise<Frame>;
  readonly send: (chat: Frame, text: string) => Promise<void>;
  readonly timeoutMs: number;
  /** The text of the conversation's first prompt, found at the top of the transcript once it is all back. */
  readonly firstPrompt: string;
  /** Where to save a picture of the chat and the Sessions view after the reload. */
  readonly screenshot: string;
  /** VS Code's user data directory, where the extension's workspace storage (and so its history) lives. */
  readonly userDataDir: string;
}

/** What a write cut short by a kill leaves: a checksum, a space and the start of a record, no newline. */
const TORN_RECORD = '0badc0de {"s":999999,"a":{"type":"notice_added","severity":"error","title":"Torn rec';

/** Every session log file under the extension's workspace storage (User/workspaceStorage/<hash>/<extension>/). */
function historyLogs(userDataDir: string): string[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && depth < 8) walk(full, depth + 1);
      else if (entry.isFile() && /^log-\d+\.ndjson$/.test(entry.name) && full.includes(`${path.sep}history${path.sep}`)) found.push(full);
    }
  };
  walk(path.join(userDataDir, 'User', 'workspaceStorage'), 0);
  return found;
}

/** Tears the last record of the conversation written to last, as if VS Code had been killed while writing it. */
function tearNewestRecord(userDataDir: string): void {
  const newest = historyLogs(userDataDir).sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  assert.ok(newest, 'the conversation is stored in the workspace storage');
  appendFileSync(newest, TORN_RECORD);
}

const DRAFT = 'a draft typed just before the reload';

/**
 * Put in every frame of the reloaded page before its scripts run: the entries the chat's frame showed in the saved
 * preview (in the page's HTML, src/views/preview-html.ts, from the host's kept preview or the page's saved state; or
 * drawn by the chat's script from its saved state, webview/transcript/preview-view.ts, where the HTML had none; both
 * before the extension has answered), the first time it showed any, and which of the two. A timer, not an observer:
 * VS Code writes the webview's HTML with document.open.
 */
const PREVIEW_PROBE = `(() => {
  if (window.top === window) return;
  const seen = {};
  const timer = setInterval(() => {
    const entries = document.querySelectorAll('.transcript[inert] [data-entry-key]');
    if (entries.length === 0) return;
    seen.keys = [...entries].map((entry) => entry.getAttribute('data-entry-key'));
    seen.inHtml = !!document.querySelector('.transcript.boot-preview');
    seen.beforeScript = performance.getEntriesByName('acp:script-evaluated').length === 0;
    clearInterval(timer);
  }, 5);
  setTimeout(() => clearInterval(timer), 120000);
  Object.defineProperty(window, '__acpPreviewSeen', { value: seen });
})();`;

interface PreviewSeen {
  readonly keys?: readonly string[];
  /** It was the one the host put in the page's HTML (src/views/preview-html.ts). */
  readonly inHtml?: boolean;
  /** Seen before the page's chat script had run. */
  readonly beforeScript?: boolean;
}

export async function reloadKeepsTheConversation(steps: ReloadSteps): Promise<Frame> {
  const { page, chat, timeoutMs } = steps;
  const title = (await chat.locator('.session-title').textContent())?.trim() ?? '';
  // The transcript is virtualized: the prompts drawn are those in and around the viewport, so which of them are
  // drawn says nothing about the conversation kept. What is on screen does: it must come back as it was.
  const inView = (geometry: TranscriptGeometry): string[] =>
    geometry.prompts.filter((prompt) => prompt.inView).map((prompt) => prompt.text);
  const before = await transcriptGeometry(chat);
  assert.ok(inView(before).length > 0, `there is a conversation to keep, a prompt of it on screen: ${JSON.stringify(before)}`);
  const prompt = chat.locator('textarea[aria-label="Prompt"]');
  await prompt.fill(DRAFT);
  // The host hears the draft once typing pauses (300 ms).
  await page.waitForTimeout(1_000);
  tearNewestRecord(steps.userDataDir);
  await page.addInitScript({ content: PREVIEW_PROBE });
  // The command, not the browser's reload: it waits for VS Code to write the page's saved state (page-steps.ts).
  await reloadWindow(page);
  const reloaded = await steps.reopenChat(page);
  // The chat itself (not the saved preview, which has no header) is back.
  await reloaded.locator('.session-title, .agent-status').first().waitFor({ timeout: timeoutMs });
  await reloaded.locator('.user-bubble').first().waitFor({ timeout: timeoutMs });
  assert.equal(await reloaded.locator('textarea[aria-label="Prompt"]').inputValue(), DRAFT, 'the draft is back');
  // Before the extension had answered, the page drew the newest entries from its saved state.
  const preview = await reloaded.evaluate(() => Reflect.get(globalThis, '__acpPreviewSeen') as PreviewSeen | undefined);
  assert.ok(preview?.keys?.length, 'the conversation was on screen from the saved preview before the extension answered');
  // The first sight of it is the page's HTML, before any script of the page has run; it holds messages and tool calls.
  assert.ok(preview.inHtml && preview.beforeScript, `the conversation was in the page's HTML: ${JSON.stringify(preview)}`);
  const newestShown = before.keys.filter((key) => key.startsWith('msg:') || key.startsWith('tool:')).at(-1);
  assert.equal(preview.keys.at(-1), newestShown, `the preview ends with the newest message (${JSON.stringify(preview)})`);
  if (title) assert.equal((await reloaded.locator('.session-title').textContent())?.trim(), title, 'the title is back');
  assert.match((await reloaded.locator('.agent-status').textContent()) ?? '', /Not running/, 'no agent was started for it');
  // A stored conversation comes back in parts, newest first and paced: the same prompts on screen once they are in,
  // with nothing on screen left undrawn.
  let after = await transcriptGeometry(reloaded);
  for (
    const deadline = Date.now() + timeoutMs;
    JSON.stringify(inView(after)) !== JSON.stringify(inView(before)) && Date.now() < deadline;
  ) {
    await page.waitForTimeout(100);
    after = await transcriptGeometry(reloaded);
  }
  assert.deepEqual(
    inView(after),
    inView(before),
    `the prompts on screen are back (before: ${JSON.stringify(before)}, after: ${JSON.stringify(after)})`,
  );
  assert.equal(after.undrawnPx, 0, `nothing on screen is left undrawn: ${JSON.stringify(after)}`);
  // And all of it: at the top, the conversation's first prompt.
  await reloaded.locator('.transcript').evaluate((element: { scrollTop: number }) => void (element.scrollTop = 0));
  await reloaded.locator('.user-bubble', { hasText: steps.firstPrompt }).first().waitFor({ timeout: timeoutMs });
  assert.equal(await reloaded.getByText('Torn rec').count(), 0, 'the torn record is dropped, not shown');

  await reloaded.locator('textarea[aria-label="Prompt"]').fill('');
  await steps.send(reloaded, 'What is the answer after the reload?');
  await reloaded.getByText('That is all.').last().waitFor({ timeout: timeoutMs });

  // The Sessions view lists the conversation by its title, under Today.
  await page
    .getByRole('button', { name: /^Sessions/ })
    .first()
    .click({ timeout: timeoutMs });
  const tree = page
    .locator('[id="workbench.view.extension.acpClient"] .monaco-list, .pane-body .monaco-list')
    .filter({ hasText: 'Today' })
    .first();
  await tree.waitFor({ timeout: timeoutMs });
  const listed = title
    ? await tree
        .getByText(title, { exact: false })
        .first()
        .waitFor({ timeout: timeoutMs })
        .then(
          () => true,
          () => false,
        )
    : true;
  await page.screenshot({ path: steps.screenshot });
  // What the Sessions view showed instead, for a failure to say (the picture is saved either way).
  if (!listed) assert.fail(`the Sessions view lists "${title}" after the reload; it shows: ${JSON.stringify(await tree.innerText())}`);
  return reloaded;
}

/**
 * The same workspace in a new browser (another machine's, or this one's with its site data cleared), once the last
 * window has gone: VS Code has no saved state for the chat's page there, so the page's own preview is not there
 * either, and the chat came up empty until the extension had loaded and read the history. The page's HTML now holds
 * the conversation's newest entries from the first frame: the host kept them (src/views/preview-file.ts).
 */
export async function newBrowserShowsTheConversation(options: {
  readonly chat: Frame;
  /** Closes the browser the conversation was had in. */
  readonly close: () => Promise<void>;
  readonly home: string;
  readonly url: string;
  readonly userDataDir: string;
  readonly timeoutMs: number;
  readonly screenshot: string;
}): Promise<void> {
  const newest = (await transcriptGeometry(options.chat)).keys.filter((key) => key.startsWith('msg:') || key.startsWith('tool:')).at(-1);
  assert.ok(newest, 'a conversation is on screen');
  await options.close();
  // Its extension host lets the workspace's storage go (code-server's grace time, 5 s): the new window gets it.
  await storageLocksReleased(options.userDataDir, 60_000);
  const browser = await launchBrowser(options.home, { width: 1280, height: 860 });
  try {
    await browser.addInitScript({ content: PREVIEW_PROBE });
    const page = browser.pages()[0] ?? (await browser.newPage());
    await page.goto(options.url, { timeout: options.timeoutMs });
    await page.locator('.monaco-workbench').waitFor({ timeout: options.timeoutMs });
    await page.locator('.activitybar [aria-label^="ACP"]').first().click({ timeout: options.timeoutMs });
    const chat = await chatFrame(page);
    await chat.locator('.user-bubble').first().waitFor({ timeout: options.timeoutMs });
    const preview = await chat.evaluate(() => Reflect.get(globalThis, '__acpPreviewSeen') as PreviewSeen | undefined);
    assert.ok(preview?.inHtml && preview.beforeScript, `the conversation was in the page's HTML: ${JSON.stringify(preview)}`);
    assert.equal(preview.keys?.at(-1), newest, `the preview ends with the newest entry (${JSON.stringify(preview)})`);
    await page.screenshot({ path: options.screenshot });
  } finally {
    await browser.close().catch(() => undefined);
  }
}
