/**
 * What a first-time user sees, end to end, in the real VS Code (code-server) driven through Chromium: no agent
 * configured, the chat explains ACP and offers "Add an agent…"; the registry's agents in a searchable quick pick;
 * the chat's header says "Installing…" while the build downloads, then the agent starts and answers; an agent that
 * needs a login says "Sign-in needed" and "Sign in…" lists its methods; signing in makes it ready. The registry is a
 * loopback server with archives built here (test/support/registry-fixture.ts). Screenshots go to test-results/
 * (e2e-first-run-*.png), one per step, for the README and the closing note.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { CodeServer } from '../support/code-server';
import { binaryAgentEntry, RegistryFixture, sha256 } from '../support/registry-fixture';
import { repoRoot } from '../support/repo-root';
import { removeOnSuccess } from '../support/remove-on-success';
import { chatFrame } from './page-steps';
import { checkList } from './check-list';
import { recordFailureScene } from './failure-scene';

const root = repoRoot();
const results = path.join(root, 'test-results');
const LONG = 60_000;
/** Big enough, and served slowly enough (about 1.3 MB/s), that the download is seen under way. */
const ARCHIVE_PADDING = 3 * 1024 * 1024;
const THROTTLE_BYTES_PER_50MS = 64 * 1024;

const { check, allPassed, failed } = checkList();

async function pickInQuickInput(page: Page, rowText: string): Promise<void> {
  const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: rowText }).first();
  await row.waitFor({ timeout: LONG });
  await row.click();
}

async function registry(): Promise<RegistryFixture> {
  const fixture = await new RegistryFixture().start();
  const echo = await fixture.tarGz(ARCHIVE_PADDING);
  const signIn = await fixture.tarGz();
  fixture.index = {
    version: '1.0.0',
    agents: [
      {
        ...binaryAgentEntry('echo-agent', '1.2.0', fixture.serve('echo.tar.gz', echo, THROTTLE_BYTES_PER_50MS), { sha256: sha256(echo) }),
        name: 'Echo Agent',
        description: 'Answers with what you asked (a scripted ACP agent)',
      },
      {
        ...binaryAgentEntry('login-agent', '0.9.1', fixture.serve('login.tar.gz', signIn), {
          sha256: sha256(signIn),
          env: { ACP_AUTH: '1' },
        }),
        name: 'Login Agent',
        description: 'Needs you to sign in first (a scripted ACP agent)',
      },
    ],
  };
  return fixture;
}

async function main(): Promise<void> {
  const vsix = path.join(root, 'acp-client.vsix');
  if (!existsSync(vsix)) throw new Error('acp-client.vsix is missing: run `npm run package` first');
  mkdirSync(results, { recursive: true });
  const home = mkdtempSync(path.join(tmpdir(), 'acp-e2e-first-run-'));
  removeOnSuccess('e2e first-run', home);
  const workspace = path.join(home, 'workspace');
  mkdirSync(workspace);
  const userDataDir = path.join(home, 'user-data');
  const extensionsDir = path.join(home, 'extensions');
  CodeServer.installExtension(vsix, { home, userDataDir, extensionsDir });
  const fixture = await registry();
  // A first-time user: no agent in the settings, nothing installed; only the registry is ours.
  const server = await CodeServer.start({
    home,
    userDataDir,
    extensionsDir,
    folder: workspace,
    settings: { 'acpClient.registry.url': fixture.url('registry.json') },
  });
  const browser = await launchBrowser(home, { width: 1280, height: 800 });
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`);
    await page.locator('.monaco-workbench').waitFor({ timeout: LONG });
    await page.locator('.activitybar [aria-label^="ACP"]').first().click({ timeout: LONG });
    let chat = await chatFrame(page);

    // 1. Nothing configured: one sentence on ACP, and the two ways forward.
    const empty = chat.locator('.empty-state');
    await empty.getByRole('heading', { name: 'No agent configured' }).waitFor({ timeout: LONG });
    assert.match(
      await empty.locator('.empty-text').innerText(),
      /^ACP \(the Agent Client Protocol\) lets this chat work with any coding agent/,
    );
    await empty.getByRole('button', { name: 'Configure manually…' }).waitFor({ timeout: LONG });
    await page.screenshot({ path: path.join(results, 'e2e-first-run-empty.png') });
    check('with no agent configured, the chat says what ACP is and offers "Add an agent…" and "Configure manually…"');

    // 2. The registry's agents in a searchable quick pick, with version, licence and install state.
    await empty.getByRole('button', { name: 'Add an agent…' }).click();
    const echoRow = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Echo Agent' }).first();
    await echoRow.waitFor({ timeout: LONG });
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Login Agent' }).first().waitFor({ timeout: LONG });
    const rowText = await echoRow.innerText();
    for (const part of ['1.2.0', 'MIT', 'Answers with what you asked'])
      assert.ok(rowText.includes(part), `the row shows ${part}: ${JSON.stringify(rowText)}`);
    await page.screenshot({ path: path.join(results, 'e2e-first-run-add-agent.png') });
    await page.locator('.quick-input-widget input').fill('login');
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Echo Agent' }).waitFor({ state: 'hidden', timeout: LONG });
    await page.locator('.quick-input-widget input').fill('');
    check('"Add an agent…" lists the registry agents with version, licence and description, and typing filters them');

    // 3. Picking installs it: the chat's header says Installing… with the bytes, then the agent starts.
    await echoRow.click();
    await chat.locator('.agent-status', { hasText: /Installing… [\d.]+ MB of [\d.]+ MB/ }).waitFor({ timeout: LONG });
    assert.equal((await chat.locator('.agent-name').innerText()).trim(), 'Echo Agent');
    await chat.getByRole('button', { name: 'Cancel' }).waitFor({ timeout: LONG });
    await page.screenshot({ path: path.join(results, 'e2e-first-run-installing.png') });
    check('while the build downloads, the header says "Installing… n MB of m MB" and the chat offers Cancel');

    await chat.locator('.agent-status', { hasText: 'Ready' }).waitFor({ timeout: LONG });
    assert.equal((await chat.locator('.agent-name').innerText()).trim(), 'Echo Agent');
    await chat.getByRole('heading', { name: 'Ask Echo Agent' }).waitFor({ timeout: LONG });
    const prompt = chat.locator('textarea[aria-label="Prompt"]');
    await prompt.fill('hello from a first-time user');
    await prompt.press('Enter');
    await chat.getByText('hello from a first-time user', { exact: false }).last().waitFor({ timeout: LONG });
    await chat.locator('.agent-status', { hasText: 'Ready' }).waitFor({ timeout: LONG });
    await page.screenshot({ path: path.join(results, 'e2e-first-run-ready.png') });
    check('once installed the agent starts in the chat (Ready) and answers the first prompt');

    // 4. An agent that needs a login: Sign-in needed, and Sign in… lists its own methods.
    await chat.locator('.empty-state').waitFor({ state: 'hidden', timeout: LONG });
    await page
      .locator('.notifications-toasts .codicon-notifications-clear-all, .notification-toast .codicon-close')
      .first()
      .click()
      .catch(() => undefined);
    await page.keyboard.press('F1');
    await page.locator('.quick-input-widget input').fill('>ACP: Add Agent');
    await pickInQuickInput(page, 'ACP: Add Agent');
    await pickInQuickInput(page, 'Login Agent');
    chat = await chatFrame(page);
    await chat.locator('.agent-status', { hasText: 'Sign-in needed' }).waitFor({ timeout: LONG });
    // The chat says why, with the agent's own method names, and offers the way forward.
    const notice = chat.locator('.notice', { hasText: 'Sign in to Login Agent to start a session' });
    await notice.waitFor({ timeout: LONG });
    assert.match(await notice.innerText(), /It offers: Scripted sign-in, Sign in in a terminal\./);
    await page.screenshot({ path: path.join(results, 'e2e-first-run-sign-in.png') });
    check('an agent that needs a login: the header says "Sign-in needed" and the chat names its methods and offers "Sign in…"');

    await notice.getByRole('button', { name: 'Sign in…' }).click();
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Sign in in a terminal' }).first().waitFor({ timeout: LONG });
    await pickInQuickInput(page, 'Scripted sign-in');
    await chat.locator('.agent-status', { hasText: 'Ready' }).waitFor({ timeout: LONG });
    await notice.locator('vscode-button[aria-disabled="true"]', { hasText: 'Sign in…' }).waitFor({ timeout: LONG });
    await page.screenshot({ path: path.join(results, 'e2e-first-run-signed-in.png') });
    check('"Sign in…" lists the agent\'s methods; the agent method signs in and the chat is Ready');
    allPassed();
  } catch (error) {
    await recordFailureScene(browser, path.join(results, 'e2e-first-run-failure.png'));
    throw error;
  } finally {
    await browser.close().catch(() => undefined);
    server.stop();
    await fixture.stop();
  }
}

main().catch(failed);
