/**
 * The command matrix's states as a person sees them, in the real VS Code driven through Chromium (the packaged .vsix
 * in code-server): the chat is put in each state of test/support/command-matrix.ts and a screenshot saved as
 * test-results/matrix-<state>.png. On the way it checks what only a browser shows: Select Agent and New Session
 * given while the webview is still loading are not lost; text typed while the agent starts is neither lost nor
 * sent to another agent; Escape and the chat's Stop button cancel a turn; after Reload Window the chat comes back
 * on screen by itself, Not running, before any agent starts.
 */
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { CodeServer, writeUserSettings, QUIET_SETTINGS } from '../support/code-server';
import { E2E_RESULTS, e2eHome } from '../support/e2e-home';
import { eventually, processesMarked } from '../support/processes';
import { scriptedAgentPath } from '../support/repo-root';
import { chatFrame, LONG } from './page-steps';

const marks = { Alpha: randomUUID(), Beta: randomUUID(), Gate: randomUUID() };

/** Alpha starts slowly (5 s) so that "Starting…" can be seen and typed into; Gate asks for sign-in. */
function agents(): Record<string, object> {
  const agent = (name: keyof typeof marks, env: Record<string, string> = {}): object => ({
    command: process.execPath,
    args: [scriptedAgentPath()],
    env: { ACP_SCENARIO: 'matrix', ACP_CHUNK_DELAY_MS: '400', ACP_SESSION_CONTROLS: 'both', ACP_TEST_MARK: marks[name], ...env },
  });
  return { Alpha: agent('Alpha', { ACP_INIT_DELAY_MS: '5000' }), Beta: agent('Beta'), Gate: agent('Gate', { ACP_AUTH: '1' }) };
}

const shots: string[] = [];
const failures: string[] = [];
function fail(what: string): void {
  failures.push(what);
  console.log(`  ✘ ${what}`);
}
function check(name: string): void {
  console.log(`  ✔ ${name}`);
}

async function screenshot(page: Page, state: string): Promise<void> {
  const file = `matrix-${state.replace(/\W+/g, '-').replace(/-+$/, '').toLowerCase()}.png`;
  await page.screenshot({ path: path.join(E2E_RESULTS, file) });
  shots.push(file);
  console.log(`  📷 ${file}`);
}

async function statusIs(chat: Frame, text: RegExp, timeout = LONG): Promise<void> {
  await chat.locator('.agent-status', { hasText: text }).waitFor({ timeout });
}

async function headerOn(chat: Frame, agent: string, timeout = LONG): Promise<void> {
  await chat.locator('.agent-name', { hasText: agent }).waitFor({ timeout });
}

/**
 * runFromPalette, with F1 pressed again when the palette did not open: on a loaded machine the workbench can drop the
 * key while it is busy setting up the chat view.
 */
async function palette(page: Page, title: string): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('F1');
    const opened = await input.waitFor({ timeout: 15_000 }).then(
      () => true,
      () => false,
    );
    if (opened) break;
    if (attempt === 4) throw new Error(`the command palette did not open for ${title}`);
  }
  await input.fill(`>${title}`);
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first().waitFor({ timeout: LONG });
  await page.keyboard.press('Enter');
}

/** Picks `label` in the quick pick `command` opens (from the palette); false when the picker vanished before the click. */
async function pick(page: Page, command: string, label: string): Promise<boolean> {
  await palette(page, command);
  const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: label }).first();
  await row.waitFor({ timeout: LONG });
  // A person reads the list for a moment before clicking.
  await page.waitForTimeout(500);
  if (!(await row.isVisible())) return false;
  await row.click({ timeout: LONG });
  return true;
}

/** The element property the page function uses (this Node-side file has no DOM types). */
interface Scrollable {
  scrollTop: number;
}

/**
 * The conversation's first prompt is shown: the transcript is virtualized (only entries near the viewport have DOM), so
 * with a long tail (a crash notice and its output) the first prompt is found by scrolling to the top, as a person does.
 */
async function showsFirstPrompt(chat: Frame, text: string, timeout = LONG): Promise<void> {
  const bubble = chat.locator('.user-bubble', { hasText: text }).first();
  const deadline = Date.now() + timeout;
  for (;;) {
    await chat
      .locator('.transcript')
      .first()
      .evaluate((element: Scrollable) => void (element.scrollTop = 0))
      .catch(() => undefined);
    if (await bubble.isVisible().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`the transcript does not show its first prompt "${text}"`);
    await chat.page().waitForTimeout(500);
  }
}

async function send(chat: Frame, text: string): Promise<void> {
  const prompt = chat.locator('textarea[aria-label="Prompt"]');
  await prompt.fill(text);
  await prompt.press('Enter');
  await chat.locator('.user-bubble', { hasText: text }).last().waitFor({ timeout: LONG });
}

async function main(): Promise<void> {
  const { home, workspace, userDataDir, extensionsDir } = e2eHome('matrix');
  const settings = { 'acpClient.agents': agents(), 'acpClient.defaultAgent': 'Alpha' };
  const server = await CodeServer.start({ home, userDataDir, extensionsDir, folder: workspace, settings });
  const browser = await launchBrowser(home, { width: 1280, height: 800 });
  const page = browser.pages()[0] ?? (await browser.newPage());
  try {
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`, { timeout: LONG * 2 });
    await page.locator('.monaco-workbench').waitFor({ timeout: LONG });
    const icon = page.locator('.activitybar [aria-label^="ACP"]').first();
    await icon.waitFor({ timeout: LONG * 2 });

    // Select Agent while the webview is still loading (it takes 12–15 s here): the chat comes up on that agent.
    await icon.click();
    if (!(await pick(page, 'ACP: Select Agent', 'Beta'))) {
      await screenshot(page, 'select agent while loading');
      fail('the Select Agent picker opened while the chat loads closed before the user could pick (the loading chat took the focus)');
      await chatFrame(page);
      assert.ok(await pick(page, 'ACP: Select Agent', 'Beta'), 'the picker stays open once the chat has loaded');
    }
    let chat = await chatFrame(page);
    await headerOn(chat, 'Beta');
    await statusIs(chat, /^Ready$/);
    check('Select Agent → Beta given while the chat loads: the chat comes up Ready on Beta');

    // Starting: back to the slow Alpha in this blank conversation; what is typed meanwhile stays and goes to Alpha.
    assert.ok(await pick(page, 'ACP: Select Agent', 'Alpha'));
    await statusIs(chat, /Starting/);
    await headerOn(chat, 'Alpha', 5_000);
    const prompt = chat.locator('textarea[aria-label="Prompt"]');
    await prompt.click();
    await page.keyboard.type('typed while starting', { delay: 15 });
    await screenshot(page, 'starting');
    await statusIs(chat, /^Ready$/);
    assert.equal(await prompt.inputValue(), 'typed while starting', 'the text typed while Alpha started is still in the prompt');
    await prompt.press('Enter');
    await chat.locator('strong', { hasText: 'typed while starting' }).first().waitFor({ timeout: LONG });
    await chat.getByText('That is all.').last().waitFor({ timeout: LONG });
    assert.equal(processesMarked(marks.Beta).length, 0, 'Beta’s process ended when the blank chat switched to Alpha');
    check('text typed while the agent starts stays in the prompt, and once sent is answered by that agent');
    await screenshot(page, 'Ready with history');

    // Ready, nothing said: New Session.
    await palette(page, 'ACP: New Session');
    await chat.locator('.user-bubble').first().waitFor({ state: 'detached', timeout: LONG });
    await statusIs(chat, /^Ready$/);
    await screenshot(page, 'Ready, nothing said');

    // A turn running, cancelled with Escape in the prompt.
    await send(chat, 'a long answer please');
    await statusIs(chat, /Working/);
    await screenshot(page, 'turn running');
    await prompt.click();
    await prompt.press('Escape');
    await chat.getByText('Cancelled', { exact: true }).last().waitFor({ timeout: LONG });
    check('Escape in the prompt cancels the running turn');

    // Waiting for a permission (VS Code's own picker asks too: closed, the card keeps waiting), then the Stop button.
    const cancelledBefore = await chat.getByText('Cancelled', { exact: true }).count();
    await send(chat, 'please edit the file');
    await chat.locator('[data-kind="tool_call"][data-status="awaiting_permission"]').waitFor({ timeout: LONG });
    await screenshot(page, 'waiting for a permission');
    await page.keyboard.press('Escape');
    await chat.getByRole('button', { name: 'Stop', exact: true }).click({ timeout: LONG });
    await chat.getByText('Cancelled', { exact: true }).nth(cancelledBefore).waitFor({ timeout: LONG });
    check('the chat’s Stop button cancels a turn that waits for a permission');

    // Waiting for an elicitation, then Escape.
    const cancelledThen = await chat.getByText('Cancelled', { exact: true }).count();
    await send(chat, 'elicit card');
    await chat.getByText('Configure deployment').first().waitFor({ timeout: LONG });
    await screenshot(page, 'waiting for an elicitation');
    await chat.getByRole('button', { name: 'Stop', exact: true }).click({ timeout: LONG });
    await chat.getByText('Cancelled', { exact: true }).nth(cancelledThen).waitFor({ timeout: LONG });
    check('the Stop button cancels a turn that waits for an elicitation');

    // Stopped.
    await palette(page, 'ACP: Stop Agent');
    await statusIs(chat, /Not running/);
    await screenshot(page, 'stopped');

    // Crashed: the next prompt starts Alpha again; its process is killed.
    await send(chat, 'start again');
    await statusIs(chat, /^Ready|Working/);
    await chat.getByText('That is all.').last().waitFor({ timeout: LONG });
    for (const pid of processesMarked(marks.Alpha)) process.kill(pid, 'SIGKILL');
    await statusIs(chat, /Exited/);
    await screenshot(page, 'crashed');

    // Sign-in needed: Gate in a new conversation.
    assert.ok(await pick(page, 'ACP: Select Agent', 'Gate'));
    await headerOn(chat, 'Gate');
    await statusIs(chat, /Sign-in needed/);
    await screenshot(page, 'sign-in needed');

    // Restored after Reload Window: back on Alpha's conversation, then reload. The chat comes back by itself.
    // (Select Agent would switch Gate's blank conversation to Alpha in place: Switch Session goes back to one with history.)
    assert.ok(await pick(page, 'ACP: Switch Session', 'a long answer please'));
    await headerOn(chat, 'Alpha');
    await showsFirstPrompt(chat, 'a long answer please');
    await palette(page, 'ACP: Restart Agent');
    await statusIs(chat, /Starting|Ready/);
    await statusIs(chat, /^Ready$/);
    await page.reload({ timeout: LONG * 2 });
    await page.locator('.monaco-workbench').waitFor({ timeout: LONG });
    chat = await chatFrame(page).catch(async () => {
      await screenshot(page, 'reload without the chat');
      fail('after Reload Window the chat, open before, is not back on screen by itself');
      await icon.click();
      return chatFrame(page);
    });
    await showsFirstPrompt(chat, 'a long answer please').catch(async (error: unknown) => {
      await screenshot(page, 'restored without its transcript');
      const header = await chat
        .locator('.chat-header, header')
        .first()
        .innerText()
        .catch(() => '?');
      throw new Error(`after the reload the chat shows no prompt (header: ${header.replace(/\s+/g, ' ')}): ${String(error)}`);
    });
    await statusIs(chat, /Not running/);
    await screenshot(page, 'restored after reload');
    check('after Reload Window the chat is back on screen by itself, its conversation restored, no agent started');

    // New Session given while the reloaded webview is still loading: a blank conversation on Alpha, Ready.
    await page.reload({ timeout: LONG * 2 });
    await page.locator('.monaco-workbench').waitFor({ timeout: LONG });
    await icon.waitFor({ timeout: LONG * 2 });
    await palette(page, 'ACP: New Session');
    chat = await chatFrame(page);
    await headerOn(chat, 'Alpha');
    await statusIs(chat, /^Ready$/);
    assert.equal(await chat.locator('.user-bubble').count(), 0, 'a blank conversation is shown');
    check('New Session given while the chat loads: a blank conversation, Alpha Ready');

    // No agent configured.
    writeUserSettings(userDataDir, { ...QUIET_SETTINGS, 'acpClient.agents': {} });
    await chat.getByText('No agent is configured', { exact: false }).first().waitFor({ timeout: LONG });
    await screenshot(page, 'no agent configured');
    console.log(`screenshots: ${shots.join(', ')}`);
    assert.deepEqual(failures, [], 'nothing the user did was lost');
  } catch (error) {
    // What the user saw when a step gave up: the picture says more than a timed-out locator.
    await screenshot(page, 'failed step').catch(() => undefined);
    throw error;
  } finally {
    await browser.close().catch(() => undefined);
    server.stop();
  }
  // The supervisors end every agent's tree once their host is gone.
  await eventually(
    () => Object.values(marks).every((mark) => processesMarked(mark).length === 0),
    'no agent process is left behind',
    10_000,
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
