/**
 * The command matrix's states as a person sees them, in the real VS Code driven through Chromium (the packaged .vsix
 * in code-server): the chat is put in each state of test/support/command-matrix.ts and a screenshot saved as
 * test-results/matrix-<state>.png. On the way it checks what only a browser shows: Select Agent and New Session
 * given while the webview is still loading are not lost; text typed while the agent starts is neither lost nor
 * sent to another agent; "Add to ACP Chat" on a real editor selection puts the lines in the draft while the agent
 * waits for a permission and while it is down (kept through a switch and a restart, then sent with the next prompt); Escape and the
 * chat's Stop button cancel a turn; Refresh Sessions (the view's button clicked fast, and the palette) keeps the list, the
 * draft and a running turn; after Reload Window the chat comes back
 * on screen by itself, Not running, before any agent starts. Each cell checks the agent processes its state calls for
 * and is written as a row (state × command → what the user saw) to test-results/matrix-states.md (matrix-record.ts).
 */
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { CodeServer } from '../support/code-server';
import { E2E_RESULTS, e2eHome } from '../support/e2e-home';
import { eventually, processesMarked } from '../support/processes';
import { scriptedAgentPath } from '../support/repo-root';
import { MatrixRecord } from './matrix-record';
import { chatFrame, LONG, reloadWindow, runFromPalette, selectFirstLinesOfHello } from './page-steps';

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

const record = new MatrixRecord(marks);
const failures: string[] = [];
function fail(what: string): void {
  failures.push(what);
  console.log(`  ✘ ${what}`);
}

async function screenshot(page: Page, state: string): Promise<void> {
  const file = `matrix-${state.replace(/\W+/g, '-').replace(/-+$/, '').toLowerCase()}.png`;
  await page.screenshot({ path: path.join(E2E_RESULTS, file) });
  record.screenshot(state, file);
  console.log(`  📷 ${file}`);
}

/** The header as the user reads it: the agent's name and its status. */
async function header(chat: Frame): Promise<string> {
  const name = await chat
    .locator('.agent-name')
    .first()
    .innerText()
    .catch(() => '?');
  const status = await chat
    .locator('.agent-status')
    .first()
    .innerText()
    .catch(() => '?');
  return `${name} ${status}`.replace(/\s+/g, ' ').trim();
}

/** Waits for the notice titled `title` the command put in the chat, and returns its title and detail as shown. */
async function notice(chat: Frame, title: string): Promise<string> {
  const shown = chat.locator('.notice', { has: chat.locator('.notice-title', { hasText: title }) }).last();
  await shown.waitFor({ timeout: LONG });
  return (await shown.innerText()).replace(/\s+/g, ' ').trim();
}

/** A state the chat cannot send from: the prompt is disabled and the line above it says why (and what to do). */
async function blocked(chat: Frame, reason: string): Promise<string> {
  const shown = chat.locator('.composer-reason', { hasText: reason });
  await shown.waitFor({ timeout: LONG });
  assert.ok(await chat.locator('textarea[aria-label="Prompt"]').isDisabled(), `the prompt is disabled while "${reason}" shows`);
  return `the prompt is disabled and says "${(await shown.innerText()).trim()}"`;
}

async function statusIs(chat: Frame, text: RegExp, timeout = LONG): Promise<void> {
  await chat.locator('.agent-status', { hasText: text }).waitFor({ timeout });
}

async function headerOn(chat: Frame, agent: string, timeout = LONG): Promise<void> {
  await chat.locator('.agent-name', { hasText: agent }).waitFor({ timeout });
}

/** Picks `label` in the quick pick `command` opens (from the palette); false when the picker vanished before the click. */
async function pick(page: Page, command: string, label: string): Promise<boolean> {
  await runFromPalette(page, command);
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

/**
 * "Add to ACP Chat" on a real editor selection: src/hello.ts opened with Quick Open, its first two lines selected
 * with the keyboard, the command run from the palette. Returns once the chip is in the chat's attachment tray.
 */
async function addSelectionToChat(page: Page, chat: Frame): Promise<void> {
  await selectFirstLinesOfHello(page);
  await runFromPalette(page, 'ACP: Add to ACP Chat');
  await chip(chat).waitFor({ timeout: LONG });
}

/** The selection's chip in the composer's attachment tray. */
const chip = (chat: Frame): ReturnType<Frame['locator']> =>
  chat.getByRole('list', { name: 'Attachments' }).getByRole('listitem').filter({ hasText: 'src/hello.ts:1-2' });

/** The attached lines as the sent message `text` shows them: a link to the file, not its text again. */
const withLines = (chat: Frame, text: string): ReturnType<Frame['locator']> =>
  chat.locator('.user-bubble', { hasText: text }).last().locator('.content-resource', { hasText: 'hello.ts' });

/** The Sessions view's tree, its section expanded as a person expands it (a click on its header). */
async function sessionsTree(page: Page): Promise<Locator> {
  const section = page.getByRole('button', { name: /^Sessions/ }).first();
  if ((await section.getAttribute('aria-expanded')) !== 'true') await section.click({ timeout: LONG });
  return page.locator('.pane-body .monaco-list').filter({ hasText: 'Today' }).first();
}

/** The Sessions view's own refresh button, in its title bar (VS Code shows it while the pointer is on the title). */
async function clickRefreshSessions(page: Page): Promise<void> {
  await sessionsTree(page);
  const section = page.getByRole('button', { name: /^Sessions/ }).first();
  await section.hover();
  await section.locator('.action-label[aria-label="Refresh Sessions"]').click({ timeout: LONG });
}

/**
 * The row of the conversation whose first prompt is `text`, in the Sessions view's "Today" group, and no error
 * notification from the command (VS Code's toast for a command that threw).
 */
async function listedToday(page: Page, text: string): Promise<void> {
  const errors = page.locator('.notifications-toasts .notification-list-item-message', { hasText: /Refresh Sessions|failed|error/i });
  assert.equal(await errors.count(), 0, `no error toast: ${(await errors.allInnerTexts()).join(' | ')}`);
  const tree = await sessionsTree(page);
  await tree.locator('.monaco-list-row', { hasText: 'Today' }).first().waitFor({ timeout: LONG });
  await tree.locator('.monaco-list-row', { hasText: text }).first().waitFor({ timeout: LONG });
}

async function send(chat: Frame, text: string): Promise<void> {
  const prompt = chat.locator('textarea[aria-label="Prompt"]');
  await prompt.fill(text);
  await prompt.press('Enter');
  await chat.locator('.user-bubble', { hasText: text }).last().waitFor({ timeout: LONG });
}

async function main(): Promise<void> {
  const started = Date.now();
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
    await record.cell('chat loading', 'Select Agent → Beta', `the chat comes up "${await header(chat)}"`, { Beta: 1 });

    // Starting: back to the slow Alpha in this blank conversation; what is typed meanwhile stays and goes to Alpha.
    assert.ok(await pick(page, 'ACP: Select Agent', 'Alpha'));
    await statusIs(chat, /Starting/);
    await headerOn(chat, 'Alpha', 5_000);
    const starting = await header(chat);
    await record.cell('Ready, nothing said (Beta)', 'Select Agent → Alpha', `header "${starting}" at once, in place; Beta's process ends`, {
      Alpha: 1,
    });
    const prompt = chat.locator('textarea[aria-label="Prompt"]');
    await prompt.click();
    await page.keyboard.type('typed while starting', { delay: 15 });
    await screenshot(page, 'starting');
    await statusIs(chat, /^Ready$/);
    assert.equal(await prompt.inputValue(), 'typed while starting', 'the text typed while Alpha started is still in the prompt');
    await prompt.press('Enter');
    await chat.locator('strong', { hasText: 'typed while starting' }).first().waitFor({ timeout: LONG });
    await chat.getByText('That is all.').last().waitFor({ timeout: LONG });
    await record.cell('starting', 'Send (text typed while starting)', 'the draft stays through the start; once sent, Alpha answers it', {
      Alpha: 1,
    });
    await screenshot(page, 'Ready with history');

    // Ready with history: Select Agent → the same agent says so.
    assert.ok(await pick(page, 'ACP: Select Agent', 'Alpha'));
    await record.cell(
      'Ready with history',
      'Select Agent → Alpha (same)',
      `notice "${await notice(chat, 'This chat is on Alpha already')}"`,
      {
        Alpha: 1,
      },
    );

    // Ready with history: New Session, a blank conversation on the same process.
    await runFromPalette(page, 'ACP: New Session');
    await chat.locator('.user-bubble').first().waitFor({ state: 'detached', timeout: LONG });
    await statusIs(chat, /^Ready$/);
    await record.cell('Ready with history', 'New Session', `a blank conversation, "${await header(chat)}"`, { Alpha: 1 });
    await screenshot(page, 'Ready, nothing said');
    // (Cancel Turn is not offered in the palette while no turn runs: its `when` clause.)
    await runFromPalette(page, 'ACP: New Session');
    await statusIs(chat, /^Ready$/);
    assert.equal(await chat.locator('.user-bubble').count(), 0, 'still a blank conversation');
    await record.cell('Ready, nothing said', 'New Session', `the same blank conversation, "${await header(chat)}"`, { Alpha: 1 });

    // Refresh Sessions, clicked fast three times and then from the palette, with a draft in the blank conversation:
    // the list keeps the answered conversation under Today, the draft and the agent stay as they were.
    await prompt.fill('a draft kept through refreshes');
    for (let click = 0; click < 3; click++) await clickRefreshSessions(page);
    await runFromPalette(page, 'ACP: Refresh Sessions');
    await listedToday(page, 'typed while starting');
    assert.equal(await prompt.inputValue(), 'a draft kept through refreshes', 'Refresh Sessions keeps the draft');
    await statusIs(chat, /^Ready$/);
    await record.cell(
      'Ready, nothing said',
      'Refresh Sessions (its button in the view ×3, then the palette)',
      `Sessions lists "typed while starting" under Today; the draft is kept; "${await header(chat)}"`,
      { Alpha: 1 },
    );
    await prompt.fill('');

    // A turn running, cancelled with Escape in the prompt.
    await send(chat, 'a long answer please');
    await statusIs(chat, /Working/);
    await screenshot(page, 'turn running');
    await runFromPalette(page, 'ACP: Refresh Sessions');
    await listedToday(page, 'a long answer please');
    await statusIs(chat, /Working/, 5_000);
    await record.cell(
      'turn running',
      'Refresh Sessions',
      'Sessions lists the running conversation under Today; the turn goes on, Working',
      {
        Alpha: 1,
      },
    );
    await prompt.click();
    await prompt.press('Escape');
    await chat.getByText('Cancelled', { exact: true }).last().waitFor({ timeout: LONG });
    await record.cell('turn running', 'Escape in the prompt', 'the turn ends "Cancelled"', { Alpha: 1 });

    // Waiting for a permission (VS Code's own picker asks too: closed, the card keeps waiting), then the Stop button.
    const cancelledBefore = await chat.getByText('Cancelled', { exact: true }).count();
    await send(chat, 'please edit the file');
    const awaiting = chat.locator('[data-kind="tool_call"][data-status="awaiting_permission"]');
    await awaiting.waitFor({ timeout: LONG });
    await screenshot(page, 'waiting for a permission');
    await page.keyboard.press('Escape');
    // Add to ACP Chat while the agent waits for the user: the lines join the draft; the question keeps waiting.
    await addSelectionToChat(page, chat);
    await awaiting.waitFor({ timeout: 5_000 });
    await record.cell(
      'waiting for a permission',
      'Add to ACP Chat (editor selection)',
      'the chip "src/hello.ts:1-2" joins the draft; the permission card keeps waiting',
      { Alpha: 1 },
    );
    await chat.getByRole('button', { name: 'Stop', exact: true }).click({ timeout: LONG });
    await chat.getByText('Cancelled', { exact: true }).nth(cancelledBefore).waitFor({ timeout: LONG });
    await chat.getByText('Permission request cancelled').last().waitFor({ timeout: LONG });
    await record.cell(
      'waiting for a permission',
      'Stop button',
      'the turn ends "Cancelled"; the card says "Permission request cancelled"',
      {
        Alpha: 1,
      },
    );

    // Waiting for an elicitation, then the Stop button.
    const cancelledThen = await chat.getByText('Cancelled', { exact: true }).count();
    // The next prompt carries the lines: its message shows the file (as a link, not its text again).
    await send(chat, 'elicit card');
    await withLines(chat, 'elicit card').waitFor({ timeout: LONG });
    assert.equal(await chip(chat).count(), 0, 'sending empties the tray');
    await chat.getByText('Configure deployment').first().waitFor({ timeout: LONG });
    await screenshot(page, 'waiting for an elicitation');
    await chat.getByRole('button', { name: 'Stop', exact: true }).click({ timeout: LONG });
    await chat.getByText('Cancelled', { exact: true }).nth(cancelledThen).waitFor({ timeout: LONG });
    await record.cell('waiting for an elicitation', 'Stop button', 'the turn ends "Cancelled"; the question is withdrawn', { Alpha: 1 });

    // Stopped, and Stop Agent again says why nothing happens.
    await runFromPalette(page, 'ACP: Stop Agent');
    await statusIs(chat, /Not running/);
    // The first conversation (answered while Alpha started) holds the same Alpha process: it goes on for that one.
    const stopped = `header "${await header(chat)}", transcript kept; this conversation's session ends (the process goes on for the other Alpha conversation)`;
    await record.cell('Ready with history', 'Stop Agent', stopped, { Alpha: 1 });
    await screenshot(page, 'stopped');
    await runFromPalette(page, 'ACP: Stop Agent');
    await record.cell('stopped', 'Stop Agent', `notice "${await notice(chat, 'Alpha is not running')}"`, { Alpha: 1 });

    // Stopped: the next prompt starts Alpha again and is answered.
    await send(chat, 'start again');
    await statusIs(chat, /^Ready|Working/);
    await chat.getByText('That is all.').last().waitFor({ timeout: LONG });
    await record.cell('stopped', 'Send', 'Alpha starts again and answers the prompt', { Alpha: 1 });

    // Crashed: Alpha's process is killed; a prompt is refused with the reason, the draft kept.
    for (const pid of processesMarked(marks.Alpha)) process.kill(pid, 'SIGKILL');
    await statusIs(chat, /Exited/);
    await screenshot(page, 'crashed');
    await record.cell('crashed', 'Send', `${await blocked(chat, 'Alpha has exited. Restart it to continue.')}; a Restart agent button`, {});
    await runFromPalette(page, 'ACP: Refresh Sessions');
    await listedToday(page, 'a long answer please');
    await record.cell(
      'crashed',
      'Refresh Sessions',
      `Sessions still lists the conversation; ${await blocked(chat, 'Alpha has exited. Restart it to continue.')}`,
      {},
    );
    // Add to ACP Chat on the crashed conversation: the lines wait in its draft (the prompt says why it cannot send).
    await addSelectionToChat(page, chat);
    await blocked(chat, 'Alpha has exited. Restart it to continue.');
    await record.cell(
      'crashed',
      'Add to ACP Chat (editor selection)',
      'the chip "src/hello.ts:1-2" waits in the draft; the prompt still says "Alpha has exited. Restart it to continue."',
      {},
    );

    // Sign-in needed: Gate, from the crashed conversation, in a conversation of its own.
    assert.ok(await pick(page, 'ACP: Select Agent', 'Gate'));
    await headerOn(chat, 'Gate');
    await statusIs(chat, /Sign-in needed/);
    assert.equal(await chat.locator('.user-bubble').count(), 0, 'Gate’s conversation shows none of Alpha’s prompts');
    await record.cell('crashed', 'Select Agent → Gate', `a conversation of its own, "${await header(chat)}"`, { Gate: 1 });
    await screenshot(page, 'sign-in needed');
    await record.cell('sign-in needed', 'Send', await blocked(chat, 'Sign in to Gate to continue.'), { Gate: 1 });

    // Back on Alpha's conversation (Switch Session: Select Agent would switch Gate's blank conversation in place).
    assert.ok(await pick(page, 'ACP: Switch Session', 'a long answer please'));
    await headerOn(chat, 'Alpha');
    await showsFirstPrompt(chat, 'a long answer please');
    await record.cell('sign-in needed', 'Switch Session', `Alpha's conversation, its transcript, "${await header(chat)}"`, { Gate: 1 });
    await runFromPalette(page, 'ACP: Restart Agent');
    await statusIs(chat, /^Ready$/);
    await record.cell('crashed', 'Restart Agent', `a fresh Alpha, "${await header(chat)}", transcript kept`, { Alpha: 1, Gate: 1 });
    // The lines added while Alpha was down are still in this conversation's draft (through Gate's and back).
    await chip(chat).waitFor({ timeout: LONG });
    await send(chat, 'the lines added while it was down');
    await withLines(chat, 'the lines added while it was down').waitFor({ timeout: LONG });
    await chat.locator('strong', { hasText: 'the lines added while it was down' }).first().waitFor({ timeout: LONG });
    await record.cell(
      'crashed → Restart Agent',
      'Send (lines added while crashed)',
      'the chip was kept through Switch Session and Restart; Alpha answers the prompt with the lines',
      { Alpha: 1, Gate: 1 },
    );

    // Restored after Reload Window: the chat comes back by itself, its conversation shown, no agent started.
    await reloadWindow(page);
    chat = await chatFrame(page).catch(async () => {
      await screenshot(page, 'reload without the chat');
      fail('after Reload Window the chat, open before, is not back on screen by itself');
      await icon.click();
      return chatFrame(page);
    });
    await showsFirstPrompt(chat, 'a long answer please').catch(async (error: unknown) => {
      await screenshot(page, 'restored without its transcript');
      throw new Error(`after the reload the chat shows no prompt (header: ${await header(chat)}): ${String(error)}`);
    });
    await statusIs(chat, /Not running/);
    await screenshot(page, 'restored after reload');
    await record.cell(
      'Ready with history',
      'Reload Window',
      `the chat is back by itself, transcript restored, "${await header(chat)}"`,
      {},
    );

    // New Session given while the reloaded webview is still loading: a blank conversation on Alpha, Ready.
    await reloadWindow(page);
    await icon.waitFor({ timeout: LONG * 2 });
    await runFromPalette(page, 'ACP: New Session');
    chat = await chatFrame(page);
    await headerOn(chat, 'Alpha');
    await statusIs(chat, /^Ready$/);
    assert.equal(await chat.locator('.user-bubble').count(), 0, 'a blank conversation is shown');
    await record.cell('restored after Reload Window, chat loading', 'New Session', `a blank conversation, "${await header(chat)}"`, {
      Alpha: 1,
    });

    // "No agent configured" is first-run.ts's first step (a fresh start): a settings file written under the running
    // code-server reaches the extension host late or not at all, so it is not reached from here.
    assert.deepEqual(failures, [], 'nothing the user did was lost');
  } catch (error) {
    // What the user saw when a step gave up: the picture says more than a timed-out locator.
    await screenshot(page, 'failed step').catch(() => undefined);
    throw error;
  } finally {
    await browser.close().catch(() => undefined);
    server.stop();
    console.log(`\n${record.write(Math.round((Date.now() - started) / 1000))}`);
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
