/**
 * Reload Window mid-conversation: the chat comes back as it was (transcript, title, the draft being typed) before
 * any agent starts, and the next prompt starts the agent again and is answered.
 */
import * as assert from 'node:assert/strict';
import type { Frame, Page } from 'playwright-core';

export interface ReloadSteps {
  readonly page: Page;
  readonly chat: Frame;
  /** Finds the chat's frame again after the reload. */
  readonly reopenChat: (page: Page) => Promise<Frame>;
  readonly send: (chat: Frame, text: string) => Promise<void>;
  readonly timeoutMs: number;
  /** Where to save a picture of the chat and the Sessions view after the reload. */
  readonly screenshot: string;
}

const DRAFT = 'a draft typed just before the reload';

export async function reloadKeepsTheConversation(steps: ReloadSteps): Promise<Frame> {
  const { page, chat, timeoutMs } = steps;
  const title = (await chat.locator('.session-title').textContent())?.trim() ?? '';
  const promptsBefore = await chat.locator('.user-bubble').count();
  assert.ok(promptsBefore > 0, 'there is a conversation to keep');
  const prompt = chat.locator('textarea[aria-label="Prompt"]');
  await prompt.fill(DRAFT);
  // The host hears the draft once typing pauses (300 ms).
  await page.waitForTimeout(1_000);
  await page.reload();
  await page.locator('.monaco-workbench').waitFor({ timeout: timeoutMs });
  const reloaded = await steps.reopenChat(page);
  await reloaded.locator('.user-bubble').first().waitFor({ timeout: timeoutMs });
  assert.equal(await reloaded.locator('textarea[aria-label="Prompt"]').inputValue(), DRAFT, 'the draft is back');
  if (title) assert.equal((await reloaded.locator('.session-title').textContent())?.trim(), title, 'the title is back');
  assert.match((await reloaded.locator('.agent-status').textContent()) ?? '', /Not running/, 'no agent was started for it');
  const promptsAfter = await reloaded.locator('.user-bubble').count();
  assert.ok(promptsAfter > 0, 'the transcript is back');

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
  if (title) await tree.getByText(title, { exact: false }).first().waitFor({ timeout: timeoutMs });
  await page.screenshot({ path: steps.screenshot });
  return reloaded;
}
