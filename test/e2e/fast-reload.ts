/**
 * Reload Window while the old window's extension host is still there (issue 31): on a remote (code-server here;
 * SSH, WSL, Codespaces) a host busy when the user reloads goes some seconds after the new window has started, and
 * VS Code gives the new host the next storage folder (`workspaceStorage/<id>-1`), an empty one, because the old
 * host still holds `<id>`'s lock. The old host is made that slow for certain: stopped (SIGSTOP) right before the
 * reload and let go (SIGCONT) only once the new host has been given `<id>-1`. The user must see the conversation
 * back, its prompt and answer, and go on with it; a second, ordinary reload then brings back both turns.
 * Screenshot: test-results/e2e-fast-reload.png.
 */
import * as assert from 'node:assert/strict';
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { E2E_RESULTS } from '../support/e2e-home';
import { openScriptedWorkbench } from './scripted-workbench';
import { chatFrame, LONG, reloadWindow } from './page-steps';

/** Our storage folder is `workspaceStorage/<folder>/acp-client.acp-client`. */
const EXTENSION_FOLDER = 'acp-client.acp-client';
/** How long the restored conversation may take to show after the reload: the chooser's bound (12 s) and slack. */
const RESTORED_MS = 30_000;

interface StorageFolder {
  readonly name: string;
  readonly lockPid: number | undefined;
  readonly hasHistory: boolean;
}

function storageFolders(userDataDir: string): StorageFolder[] {
  const root = path.join(userDataDir, 'User', 'workspaceStorage');
  if (!existsSync(root)) return [];
  return readdirSync(root).map((name) => {
    let lockPid: number | undefined;
    try {
      const pid: unknown = (JSON.parse(readFileSync(path.join(root, name, 'vscode.lock'), 'utf8')) as { pid?: unknown }).pid;
      if (typeof pid === 'number') lockPid = pid;
    } catch {
      // no lock, or one being written
    }
    const history = path.join(root, name, EXTENSION_FOLDER, 'history');
    return { name, lockPid, hasHistory: existsSync(history) && lstatSync(history).isDirectory() };
  });
}

/** The extension host logs under VS Code's log folder (logs/<session>/exthostN/remoteexthost.log). */
function hostLogs(userDataDir: string): string[] {
  const logs = path.join(userDataDir, 'logs');
  if (!existsSync(logs)) return [];
  return readdirSync(logs).flatMap((session) =>
    readdirSync(path.join(logs, session))
      .filter((name) => name.startsWith('exthost'))
      .map((name) => path.join(logs, session, name, 'remoteexthost.log'))
      .filter((file) => existsSync(file)),
  );
}

/** Whether an extension host log says it activated our extension. */
function activatedUs(file: string): boolean {
  return readFileSync(file, 'utf8').includes(`_doActivateExtension ${EXTENSION_FOLDER}`);
}

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = LONG): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function send(chat: Frame, text: string): Promise<void> {
  const prompt = chat.locator('textarea[aria-label="Prompt"]');
  await prompt.waitFor({ state: 'visible', timeout: LONG });
  await prompt.fill(text);
  // Enter sends only once the chat can send (its agent started, no turn running): as a person waits for the button.
  const sendButton = chat.getByRole('button', { name: 'Send', exact: true });
  for (const deadline = Date.now() + LONG; !(await sendButton.isEnabled()) && Date.now() < deadline; )
    await chat.page().waitForTimeout(200);
  await prompt.press('Enter');
  // The echo agent's answer quotes the prompt: the turn has been answered (and recorded as it went).
  await chat.getByText(`"text":"${text}"`).last().waitFor({ timeout: LONG });
}

/** The prompts of the conversation the chat shows, once `expected` are all there (or what it shows after `timeoutMs`). */
async function promptsShown(page: Page, expected: readonly string[], timeoutMs: number): Promise<string[]> {
  const chat = await chatFrame(page);
  const deadline = Date.now() + timeoutMs;
  let shown: string[] = [];
  while (Date.now() < deadline) {
    shown = (
      await chat
        .locator('.user-bubble')
        .allInnerTexts()
        .catch(() => [])
    ).map((text) => text.trim());
    if (expected.every((prompt) => shown.includes(prompt))) break;
    await page.waitForTimeout(200);
  }
  return shown;
}

async function main(): Promise<void> {
  const { page, userDataDir, close } = await openScriptedWorkbench('fast-reload');
  let stopped: number | undefined;
  try {
    await page
      .locator('.activitybar [aria-label^="ACP"]')
      .first()
      .click({ timeout: LONG * 2 });
    await send(await chatFrame(page), 'first prompt');

    // The window's storage folder and the extension host holding it.
    const first = await until('the history is stored under a locked storage folder', () =>
      storageFolders(userDataDir).find((folder) => folder.hasHistory && folder.lockPid !== undefined),
    );
    const oldHost = first.lockPid ?? 0;
    const logsBefore = new Set(hostLogs(userDataDir));
    process.kill(oldHost, 'SIGSTOP');
    stopped = oldHost;
    await reloadWindow(page);
    // The race, for certain: the new host was given the next folder while the old one still held this one.
    const standIn = await until(`the new window's host is given ${first.name}-1`, () =>
      storageFolders(userDataDir).find(
        (folder) => folder.name === `${first.name}-1` && folder.lockPid !== undefined && folder.lockPid !== oldHost,
      ),
    );
    // And our extension is already waiting in it (activated), so the old host goes while it waits, not before.
    await until('the new window activated the extension', () =>
      hostLogs(userDataDir).some((file) => !logsBefore.has(file) && activatedUs(file)) ? true : undefined,
    );
    await page.waitForTimeout(1_000);
    process.kill(oldHost, 'SIGCONT');
    stopped = undefined;
    console.log(`  (the new host ${standIn.lockPid} was given ${standIn.name} while the old host ${oldHost} held ${first.name})`);

    const afterFast = await promptsShown(page, ['first prompt'], RESTORED_MS);
    await page.screenshot({ path: path.join(E2E_RESULTS, 'e2e-fast-reload.png') });
    assert.deepEqual(afterFast, ['first prompt'], 'after a reload faster than the old window, the conversation is back on screen');
    const chat = await chatFrame(page);
    await chat.getByText('"text":"first prompt"').first().waitFor({ timeout: LONG });
    console.log('  ✔ Reload Window while the old extension host still held the storage: the conversation came back');

    await send(chat, 'second prompt');
    await reloadWindow(page);
    const afterSecond = await promptsShown(page, ['first prompt', 'second prompt'], RESTORED_MS);
    assert.deepEqual(afterSecond, ['first prompt', 'second prompt'], 'the turn after the fast reload is kept too, in the same history');
    console.log('  ✔ the turn taken after it is kept: the next reload shows both prompts');
  } catch (error) {
    await page.screenshot({ path: path.join(E2E_RESULTS, 'e2e-fast-reload-failure.png') }).catch(() => undefined);
    throw error;
  } finally {
    if (stopped !== undefined) process.kill(stopped, 'SIGCONT');
    await close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
