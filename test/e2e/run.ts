/**
 * End to end, as a person would: the packaged .vsix installed into code-server (the real VS Code), the chat
 * opened from the activity bar in Chromium, a prompt typed, the streamed answer seen, the permission dialog
 * answered and its diff opened in the diff editor, the header's pickers changed, a command the agent runs shown and
 * opened in a terminal, "ACP: Cancel Turn" run from the command palette (F1) during a turn, and "Cancelled" seen.
 * Then the same conversation is audited with axe-core in four themes at two sidebar widths (theme-audit.ts).
 * Screenshots go to test-results/.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { CodeServer } from '../support/code-server';
import { E2E_RESULTS, e2eHome } from '../support/e2e-home';
import { scriptedAgentPath } from '../support/repo-root';
import { auditThemes, describeAudit } from './theme-audit';
import { newBrowserShowsTheConversation, reloadKeepsTheConversation } from './reload';
import { chatFrame, runFromPalette, selectFirstLinesOfHello, waitForText } from './page-steps';
import { checkList } from './check-list';
import { recordFailureScene } from './failure-scene';

const results = E2E_RESULTS;
const LONG = 60_000;

async function sendPrompt(chat: Frame, text: string): Promise<void> {
  const prompt = chat.locator('textarea[aria-label="Prompt"]');
  await prompt.waitFor({ state: 'visible', timeout: LONG });
  await assertEnabled(prompt);
  await prompt.fill(text);
  // Enter sends only between turns: the last answer's text can show before its turn has ended.
  await assertEnabled(chat.getByRole('button', { name: 'Send', exact: true }));
  await prompt.press('Enter');
}

async function assertEnabled(locator: ReturnType<Frame['locator']>): Promise<void> {
  const deadline = Date.now() + LONG;
  while (!(await locator.isEnabled()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
  assert.ok(await locator.isEnabled(), 'the prompt box became usable');
}

/**
 * Pastes a PNG into the chat's prompt, as the clipboard would. Source text: it runs in the page, whose DOM types this
 * Node-side file does not have.
 */
const PASTE_IMAGE = `(() => {
  const transfer = new DataTransfer();
  transfer.items.add(new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'shot.png', { type: 'image/png' }));
  const textarea = document.querySelector('textarea[aria-label="Prompt"]');
  textarea.focus();
  textarea.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
})()`;

/** The value a vscode-single-select holds (a property of the element, not shown in its light DOM). */
function selectedValue(select: ReturnType<Frame['locator']>): Promise<unknown> {
  return select.evaluate((element: { readonly value?: unknown }) => element.value);
}

/**
 * The transcript is virtualized: entries far from the viewport are not in the DOM. Scrolls up from the bottom
 * with the mouse wheel until the locator is there, then brings it into view.
 */
/** The element properties these page functions use (this Node-side file has no DOM types). */
interface Scrollable {
  scrollTop: number;
  readonly scrollHeight: number;
}

async function revealInTranscript(chat: Frame, locator: ReturnType<Frame['locator']>): Promise<void> {
  const transcript = chat.locator('.transcript');
  await transcript.evaluate((element: Scrollable) => void (element.scrollTop = element.scrollHeight));
  await transcript.hover();
  for (let step = 0; step < 100; step++) {
    if ((await locator.count()) > 0) {
      // The transcript is virtualized: what was found can be re-rendered while it is scrolled to; look again then.
      const shown = await locator
        .first()
        .scrollIntoViewIfNeeded({ timeout: 3000 })
        .then(() => true)
        .catch(() => false);
      if (shown) return;
      continue;
    }
    const top = await transcript.evaluate((element: Scrollable) => element.scrollTop);
    if (top <= 0) break;
    // The wheel, as a person scrolls up; if the wheel went to a card's own scroller, the transcript is scrolled itself.
    await chat.page().mouse.wheel(0, -250);
    await chat.page().waitForTimeout(100);
    const after = await transcript.evaluate((element: Scrollable) => element.scrollTop);
    if (after === top) await transcript.evaluate((element: Scrollable) => void (element.scrollTop = Math.max(0, element.scrollTop - 250)));
  }
  assert.fail(`not found anywhere in the transcript: ${String(locator)}`);
}

const { check, allPassed, failed } = checkList();

async function main(): Promise<void> {
  const { home, workspace, userDataDir, extensionsDir } = e2eHome('main');
  check('the .vsix installs into code-server');
  const server = await CodeServer.start({
    home,
    userDataDir,
    extensionsDir,
    folder: workspace,
    settings: {
      'acpClient.agents': {
        Scripted: {
          command: process.execPath,
          args: [scriptedAgentPath()],
          env: { ACP_SCENARIO: 'mixed', ACP_CHUNK_DELAY_MS: '40', ACP_SESSION_CONTROLS: 'both' },
        },
      },
      'acpClient.defaultAgent': 'Scripted',
      // The DOM renderer puts terminal text in the page, where the test can read it.
      'terminal.integrated.gpuAcceleration': 'off',
    },
  });
  const browser = await launchBrowser(home, { width: 1280, height: 860 });
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`);
    await page.locator('.monaco-workbench').waitFor({ timeout: LONG });
    await page.locator('.activitybar [aria-label^="ACP"]').first().click({ timeout: LONG });
    let chat = await chatFrame(page);
    check('the chat opens from the activity bar');

    await sendPrompt(chat, 'What is the answer?');
    await chat.getByText('You asked:', { exact: false }).waitFor({ timeout: LONG });
    await chat.getByText('That is all.').waitFor({ timeout: LONG });
    assert.equal((await chat.locator('code', { hasText: 'export const answer = 42;' }).count()) > 0, true, 'the code block is rendered');
    check('the streamed answer appears, rendered as markdown');
    await page.screenshot({ path: path.join(results, 'e2e-chat.png') });

    // The header's pickers: the agent has modes and config options, so only the config options show (one Mode).
    const pickers = chat.locator('.pickers');
    assert.equal(await pickers.locator('vscode-single-select').count(), 2, 'Mode and Model dropdowns, no second mode list');
    const modelPicker = pickers.locator('vscode-single-select[aria-label="Model"]');
    await modelPicker.click();
    await modelPicker.getByRole('option', { name: /Deep model/ }).click();
    // vscode-checkbox clips its native input to a pixel; a person clicks the box's label.
    await pickers.locator('vscode-checkbox', { hasText: 'Verbose' }).click();
    await sendPrompt(chat, 'what are your settings?');
    await chat.getByText('Settings: mode=ask model=deep verbose=true').waitFor({ timeout: LONG });
    await page.screenshot({ path: path.join(results, 'e2e-pickers.png') });
    check("the header's Model dropdown and Verbose toggle reach the agent (config options shown instead of modes)");

    // The same options from the command palette: the option, then its value, in quick picks.
    await runFromPalette(page, 'ACP: Change Session Option');
    await page
      .locator('.quick-input-widget .monaco-list-row', { hasText: 'Deep model' })
      .filter({ hasText: 'Model' })
      .first()
      .click({ timeout: LONG });
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Fast model' }).first().click({ timeout: LONG });
    const modelValue = (): Promise<unknown> => selectedValue(modelPicker);
    for (let waited = 0; (await modelValue()) !== 'fast' && waited < LONG; waited += 200) await page.waitForTimeout(200);
    assert.equal(await modelValue(), 'fast', 'the header follows the option set from the palette');
    check('"ACP: Change Session Option…" in the palette lists the options and sets one');

    let prompt = chat.locator('textarea[aria-label="Prompt"]');
    await prompt.fill('/');
    let slashList = chat.getByRole('listbox', { name: 'Slash commands' });
    await slashList.getByRole('option', { name: /\/review.*Review the current changes/ }).waitFor({ timeout: LONG });
    await page.screenshot({ path: path.join(results, 'e2e-slash.png') });
    await prompt.pressSequentially('rev');
    assert.deepEqual(
      await slashList
        .getByRole('option')
        .allInnerTexts()
        .then((texts) => texts.map((text) => text.split(/\s/)[0])),
      ['/review'],
      'the list narrows as you type',
    );
    await prompt.press('Tab');
    assert.equal(await prompt.inputValue(), '/review ', 'Tab completes the command');
    const hint = chat.locator('.input-hint');
    assert.equal(await hint.isVisible(), true, "the command's input hint shows while its input is empty");
    assert.equal(await hint.locator('.input-hint-text').innerText(), 'what to focus on');
    await prompt.pressSequentially('the parser');
    assert.equal(await hint.isVisible(), false, 'the hint goes once input is typed');
    await prompt.press('Enter');
    await chat.getByText('/review the parser', { exact: false }).last().waitFor({ timeout: LONG });
    await chat.locator('strong', { hasText: '/review the parser' }).waitFor({ timeout: LONG });
    await chat.getByText('That is all.').nth(1).waitFor({ timeout: LONG });
    check("typing / lists the agent's slash commands; Tab completes one and it is sent as prompt text");

    // Attachments: @ completion, a refused paste, "Add to ACP Chat" on an editor selection, kept while hidden.
    await prompt.fill('');
    await prompt.pressSequentially('attach these: @hel');
    const fileList = chat.getByRole('listbox', { name: 'Workspace files' });
    await fileList.getByRole('option', { name: /hello\.ts\s*src/ }).waitFor({ timeout: LONG });
    await prompt.press('Enter');
    assert.equal(await prompt.inputValue(), 'attach these: @src/hello.ts ', 'the mention is completed in the text');
    const tray = chat.getByRole('list', { name: 'Attachments' });
    await tray.getByRole('listitem').filter({ hasText: 'src/hello.ts' }).waitFor({ timeout: LONG });
    check('typing @ completes workspace files and attaches the picked one');

    await chat.evaluate(PASTE_IMAGE);
    await chat
      .getByRole('alert')
      .filter({ hasText: 'Scripted does not accept images, so shot.png was not attached.' })
      .waitFor({ timeout: LONG });
    assert.equal(await tray.getByRole('listitem').count(), 1, 'the refused image is not attached');
    check('a pasted image the agent does not accept is refused, and the composer says why');

    await selectFirstLinesOfHello(page);
    await runFromPalette(page, 'Add to ACP Chat');
    await tray.getByRole('listitem').filter({ hasText: 'src/hello.ts:1-2' }).waitFor({ timeout: LONG });
    check('"Add to ACP Chat" on an editor selection attaches those lines');

    // Hide the chat (its webview is destroyed) and show it again: the draft and its attachments are still there.
    await page.locator('.activitybar [aria-label^="Explorer"]').first().click();
    await page.locator('.activitybar [aria-label^="ACP"]').first().click();
    chat = await chatFrame(page);
    prompt = chat.locator('textarea[aria-label="Prompt"]');
    slashList = chat.getByRole('listbox', { name: 'Slash commands' });
    await chat.getByRole('list', { name: 'Attachments' }).getByRole('listitem').nth(1).waitFor({ timeout: LONG });
    assert.equal(await prompt.inputValue(), 'attach these: @src/hello.ts ', 'the draft text survives');
    check('the draft and its attachments survive the chat being hidden and shown');

    await assertEnabled(chat.getByRole('button', { name: 'Send', exact: true }));
    await prompt.press('Enter');
    const echoed = chat.locator('code', { hasText: '"type":"resource"' }).last();
    await echoed.waitFor({ timeout: LONG });
    const blocks = JSON.parse(await echoed.innerText()) as { type: string; resource?: { uri: string; text: string } }[];
    const workspaceUri = `file://${workspace}/src/hello.ts`;
    assert.deepEqual(
      blocks,
      [
        { type: 'text', text: 'attach these: @src/hello.ts ' },
        { type: 'resource', resource: { uri: workspaceUri, text: readFileSync(path.join(workspace, 'src', 'hello.ts'), 'utf8') } },
        {
          type: 'resource',
          resource: {
            uri: `${workspaceUri}#L1-2`,
            text:
              readFileSync(path.join(workspace, 'src', 'hello.ts'), 'utf8')
                .split('\n')
                .slice(0, 2)
                .join('\n') + '\n',
          },
        },
      ],
      'the agent (which takes embedded context) got the file and the selected lines',
    );
    assert.equal(await chat.getByRole('list', { name: 'Attachments' }).isVisible(), false, 'sending empties the tray');
    await page.screenshot({ path: path.join(results, 'e2e-attachments.png') });
    check('the prompt carries the attachments as embedded resources');

    await sendPrompt(chat, 'Please edit hello.ts');
    const quickPick = page.locator('.quick-input-widget');
    await quickPick.getByText('Always allow').waitFor({ timeout: LONG });
    await chat.locator('[data-kind="tool_call"][data-status="awaiting_permission"]').waitFor({ timeout: LONG });
    await page.keyboard.press('Enter');
    await chat.locator('[data-kind="tool_call"][data-status="completed"]').waitFor({ timeout: LONG });
    await chat.getByText('done').waitFor({ timeout: LONG });
    assert.match(readFileSync(path.join(workspace, 'src', 'hello.ts'), 'utf8'), /^\/\/ Edited by the scripted agent/);
    check("the permission dialog offers the agent's options; allowing it lets the edit land on disk");

    await chat.getByRole('button', { name: 'Open diff of hello.ts' }).last().click();
    await page.locator('.tab', { hasText: "hello.ts (agent's change)" }).first().waitFor({ timeout: LONG });
    await page.locator('.monaco-diff-editor').first().waitFor({ timeout: LONG });
    await page.screenshot({ path: path.join(results, 'e2e-diff.png') });
    check('the card\'s "Open diff" button opens the edit in VS Code\'s diff editor');

    await sendPrompt(chat, 'run the script');
    const terminalCard = chat.locator('.terminal', { hasText: 'Exited with code 3' });
    await terminalCard.waitFor({ timeout: LONG });
    assert.ok(
      (await terminalCard.locator('.terminal-output').innerText()).includes('line 5 héllo wörld ✓ from-agent'),
      'the output is shown in the card',
    );
    await page.screenshot({ path: path.join(results, 'e2e-terminal.png') });
    await terminalCard.getByRole('button', { name: /Open in Terminal: the output of/ }).click();
    await page.locator('.terminal-tabs-entry, .single-terminal-tab', { hasText: 'ACP: Run the script' }).first().waitFor({ timeout: LONG });
    await waitForText(page.locator('.xterm-rows').first(), ['line 5 h', 'process exited with code 3']);
    check('a command the agent runs shows its output and exit in the card, and opens in a VS Code terminal');

    await sendPrompt(chat, 'go slow please');
    await chat.getByText('tick 3', { exact: false }).waitFor({ timeout: LONG });
    // The slow turn also asks permission: close that dialog, the card keeps waiting.
    await quickPick.getByText('Write results.txt', { exact: false }).first().waitFor({ timeout: LONG });
    await page.keyboard.press('Escape');
    // Escape belongs to an open completion list first: it closes the list and leaves the turn running.
    await prompt.fill('/');
    await slashList.waitFor({ state: 'visible', timeout: LONG });
    await prompt.press('Escape');
    await slashList.waitFor({ state: 'hidden', timeout: LONG });
    await page.waitForTimeout(1_000);
    assert.equal(await chat.getByRole('button', { name: 'Stop', exact: true }).isVisible(), true, 'the turn is still running');
    assert.equal(await chat.getByText('Cancelled', { exact: true }).count(), 0, 'Escape in the list did not cancel the turn');
    await prompt.fill('');
    check('Escape closes the slash command list without cancelling the running turn');
    await runFromPalette(page, 'ACP: Cancel Turn');
    await chat.getByText('Cancelled', { exact: true }).first().waitFor({ timeout: LONG });
    assert.equal(await chat.locator('[data-kind="tool_call"][data-status="in_progress"]').count(), 0, 'no tool call is left running');
    check('"ACP: Cancel Turn" from the command palette ends the turn as Cancelled');
    await page.screenshot({ path: path.join(results, 'e2e-cancelled.png') });

    // Every kind of update and content in one turn, each seen where a user looks for it.
    await sendPrompt(chat, 'showcase please');
    await chat.getByText('Stopped: max tokens').waitFor({ timeout: LONG });
    await chat.locator('.session-title', { hasText: 'Showcase of every update' }).waitFor({ timeout: LONG });
    assert.equal(await chat.locator('.usage').getAttribute('aria-label'), 'Context: 53,000 of 200,000 tokens, cost 0.42 USD');
    assert.match(await chat.locator('.usage-text').innerText(), /^53k\/200k · /);
    await chat
      .locator('.banner', { hasText: 'Rate limit is close' })
      .filter({ hasText: '80% of the hourly budget is used.' })
      .waitFor({ timeout: LONG });
    assert.equal(await selectedValue(chat.locator('vscode-single-select[aria-label="Mode"]')), 'plan', 'the agent switched mode itself');
    const seen = async (what: string, locator: ReturnType<Frame['locator']>): Promise<void> => {
      await revealInTranscript(chat, locator);
      assert.ok(await locator.first().isVisible(), `${what} is shown`);
    };
    await seen(
      'the compaction and its streamed summary',
      chat.locator('.entry.compaction', { hasText: 'Summary: the user wants every update shown.' }),
    );
    await seen('a pending tool call', chat.locator('[data-kind="tool_call"][data-status="pending"]', { hasText: 'Search later' }));
    await seen('a failed tool call', chat.locator('[data-kind="tool_call"][data-status="failed"]', { hasText: 'Offline.' }));
    await seen(
      'a diff with its Open diff button',
      chat.locator('[data-kind="tool_call"]', { hasText: 'Propose an edit' }).getByRole('button', { name: 'Open diff of hello.ts' }),
    );
    const readCard = chat.locator('[data-kind="tool_call"][data-status="completed"]', { hasText: 'Read hello.ts' });
    await seen(
      'tool content replaced by the update (text, image, link, resource)',
      readCard.filter({ hasText: 'Read 3 lines.' }).locator('.content-image'),
    );
    assert.equal(
      await readCard.getByText('Reading the module', { exact: false }).count(),
      0,
      'the later content replaced the first and its chunk',
    );
    await seen('the location, openable', readCard.getByRole('button', { name: 'Open hello.ts:2' }));
    await readCard.getByRole('button', { name: 'Show raw' }).click();
    await seen('raw input and output on demand', readCard.locator('.raw', { hasText: '"limit": 40' }).filter({ hasText: '"lines": 3' }));
    const message = chat.locator('[data-kind="message"]', { hasText: 'Here is every content type' });
    await seen('an image in a message', message.locator('img.content-image'));
    await seen('audio in a message', message.getByText('Audio (audio/wav)'));
    await seen('a resource link in a message', message.getByRole('button', { name: 'Open The hello module' }));
    await seen('an embedded resource in a message', message.getByRole('button', { name: 'Open hello.ts:1' }));
    await seen('the markdown plan addressed by id', chat.locator('.entry.plan strong', { hasText: 'Markdown plan' }));
    await seen('the whole plan', chat.locator('.entry.plan', { hasText: 'Show every update' }));
    assert.equal(await chat.getByText('A plan about to be removed').count(), 0, 'the removed plan is gone');
    await seen('the thought', chat.getByRole('button', { name: /Thought/ }).last());
    await page.screenshot({ path: path.join(results, 'e2e-showcase.png') });
    check(
      'every update kind and content type of a turn is shown: title, usage, notice, mode, thought, plans, content, tool statuses, raw, compaction, stop reason',
    );

    // Closing the permission dialog without a choice leaves the request answerable on its card.
    await sendPrompt(chat, 'Please edit hello.ts');
    await quickPick.getByText('Always allow').waitFor({ timeout: LONG });
    await page.keyboard.press('Escape');
    // The scripted agent reuses its tool call id, so the waiting card is the first turn's, far up the transcript.
    const waiting = chat.locator('[data-kind="tool_call"][data-status="awaiting_permission"]');
    await revealInTranscript(chat, waiting);
    check('closing the permission dialog without a choice leaves the request waiting on its card');

    // The same conversation judged in every theme and at a narrow and a wide sidebar: the waiting permission card
    // (its diff from the first edit, markdown around it) in view, the notice above, the plan pinned by the composer.
    const auditStarted = Date.now();
    const audits = await auditThemes({
      page,
      chat,
      results,
      views: [
        { name: 'permission', show: () => revealInTranscript(chat, waiting) },
        {
          name: 'end',
          show: () => chat.locator('.transcript').evaluate((element: Scrollable) => void (element.scrollTop = element.scrollHeight)),
        },
      ],
    });
    for (const audit of audits) console.log(describeAudit(audit));
    const failing = audits.filter((audit) => audit.violations.length > 0 || audit.overflow.length > 0);
    assert.deepEqual(
      failing.map((audit) => `${audit.theme} at ${audit.width} px, ${audit.view}`),
      [],
      'no serious or critical accessibility violation, and nothing wider than the chat',
    );
    check(
      `axe-core finds no serious or critical violation and nothing overflows sideways in 4 themes × 2 widths × 2 parts of the transcript (${Math.round((Date.now() - auditStarted) / 1000)} s)`,
    );

    // Last, as it restarts the window: the conversation survives Reload Window, and goes on.
    chat = await reloadKeepsTheConversation({
      page,
      chat,
      reopenChat: chatFrame,
      send: sendPrompt,
      timeoutMs: LONG,
      firstPrompt: 'What is the answer?',
      screenshot: path.join(results, 'e2e-sessions.png'),
      userDataDir,
    });
    check(
      "after Reload Window, with the last stored record torn as a kill mid-write leaves it, the newest entries are in the page's HTML (the host's kept preview) before the extension answers, then the transcript, title and draft are back before any agent starts, the next prompt is answered, and the Sessions view lists the conversation",
    );
    await newBrowserShowsTheConversation({
      chat,
      close: () => browser.close(),
      home,
      url: `${server.url}/?folder=${encodeURIComponent(workspace)}`,
      userDataDir,
      timeoutMs: LONG,
      screenshot: path.join(results, 'e2e-new-browser.png'),
    });
    check(
      "the workspace in a new browser (no state VS Code kept for the chat's page): the conversation's newest entries are in the page's HTML (the host kept them)",
    );
    allPassed();
  } catch (error) {
    await recordFailureScene(browser, path.join(results, 'e2e-failure.png'));
    throw error;
  } finally {
    await browser.close().catch(() => undefined);
    server.stop();
  }
}

main().catch(failed);
