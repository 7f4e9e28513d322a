/**
 * A terminal card under a flood, in Chromium with the real webview bundle (the bench's page, fed as the host feeds
 * it): while the command runs, each post updates the card in place (the same elements: a rebuild would also take
 * the focus and the scroll position from a user reading it) and draws only the newest lines, not the whole kept
 * output (64,000 characters laid out at each post held the workbench's thread in code-server for 0.5-1 s). The
 * user can still read all of it: scrolled up or focused, the card draws the whole kept output, and once the command
 * has exited the card shows it all. The output box keeps its label, and is no live region.
 *
 * Run: node out/test/e2e/transcript-terminal.js
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { launchHarnessBrowser, loadHarness, writeHarness } from '../../bench/webview/harness';
import type { ProbeApi } from '../../bench/webview/probe-api';
import type { TranscriptAction } from '../../src/shared/actions';
import { E2E_RESULTS } from '../support/e2e-home';
import { removeOnSuccess } from '../support/remove-on-success';
import { TERMINAL_DISPLAY_CHARS } from '../../src/shared/model';
import { initialState, reduce } from '../../src/shared/reducer';
import { TERMINAL_TAIL_CHARS } from '../../webview/transcript/terminal-text';

const COMMAND = 'yes flood';
const START: readonly TranscriptAction[] = [
  { type: 'terminal_started', terminalId: 't1', commandLine: COMMAND },
  {
    type: 'session_update',
    update: {
      sessionUpdate: 'tool_call',
      toolCallId: 'run',
      title: 'Run yes',
      kind: 'execute',
      status: 'in_progress',
      content: [{ type: 'terminal', terminalId: 't1' }],
    },
  },
  { type: 'terminal_output', terminalId: 't1', text: 'first line\n' },
];

/** `count` numbered lines of 40 characters from `from` on: the card keeps the newest 64,000 characters of them. */
function lines(from: number, count: number): string {
  let text = '';
  for (let i = from; i < from + count; i++) text += `line ${String(i).padStart(8, '0')} of the flood output..\n`;
  return text;
}

let seq = 0;
async function post(page: Page, actions: readonly TranscriptAction[]): Promise<void> {
  seq += 1;
  const firstSeq = seq;
  seq += actions.length - 1;
  const message = JSON.stringify({ type: 'actions', firstSeq, actions });
  await page.evaluate(`window.__acpBench.post(${message})`);
  // Two frames: the post is drawn in the next one.
  await page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
}

interface CardFacts {
  readonly sameElements: boolean;
  readonly text: string;
  readonly outputLabel: string | null;
  readonly liveRegions: number;
}

/** What the card shows, and whether its elements are those marked by markCard. */
async function card(page: Page): Promise<CardFacts> {
  return (await page.evaluate(`(() => {
    const terminal = document.querySelector('.terminal');
    const output = terminal?.querySelector('.terminal-output');
    const marked = window.__markedCard;
    return {
      sameElements: marked !== undefined && marked[0] === terminal && marked[1] === output,
      text: output?.textContent ?? '',
      outputLabel: output?.getAttribute('aria-label') ?? null,
      liveRegions: output?.querySelectorAll('[aria-live], [role="status"], [role="log"]').length ?? -1,
    };
  })()`)) as CardFacts;
}

async function markCard(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    const terminal = document.querySelector('.terminal');
    window.__markedCard = [terminal, terminal?.querySelector('.terminal-output')];
  })()`);
}

/** Characters in the output box. */
async function drawnChars(page: Page): Promise<number> {
  return (await page.evaluate(`document.querySelector('.terminal-output')?.textContent?.length ?? 0`)) as number;
}

const checks: string[] = [];
const failures: string[] = [];
async function check(name: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
    checks.push(name);
    console.log(`  ok  ${name}`);
  } catch (error) {
    failures.push(name);
    console.log(`  FAIL ${name}\n${error instanceof Error ? error.message : String(error)}`);
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'acp-transcript-terminal-'));
  removeOnSuccess('e2e transcript-terminal', dir);
  const browser = await launchHarnessBrowser();
  try {
    mkdirSync(E2E_RESULTS, { recursive: true });
    const page = await browser.newPage({ viewport: { width: 420, height: 900 } });
    page.on('pageerror', (error) => failures.push(`the webview threw: ${error.message}`));
    await loadHarness(page, await writeHarness(dir));
    const state = START.reduce(reduce, initialState());
    await page.evaluate((value) => (Reflect.get(globalThis, '__acpBench') as ProbeApi).stage(value), state as unknown);
    await page.evaluate(() => (Reflect.get(globalThis, '__acpBench') as ProbeApi).loadSnapshot());
    await page.evaluate(() => (Reflect.get(globalThis, '__acpBench') as ProbeApi).wholeDrawn());
    await page.locator('.terminal-output').waitFor();
    await markCard(page);

    // 200,000 lines of 40 characters: the card keeps the newest 64,000 characters, 1,600 lines.
    let next = 0;
    const flood = async (count: number): Promise<void> => {
      for (let sent = 0; sent < count; sent += 20_000) {
        await post(page, [{ type: 'terminal_output', terminalId: 't1', text: lines(next, 20_000) }]);
        next += 20_000;
      }
    };
    await flood(200_000);

    await check('while the command floods, each post updates the card in place and draws only its newest lines', async () => {
      const facts = await card(page);
      assert.ok(facts.sameElements, 'the card and its output box are the elements drawn before the flood');
      assert.ok(facts.text.length <= TERMINAL_TAIL_CHARS, `the output box holds ${facts.text.length} characters`);
      assert.ok(facts.text.length >= 14 * 40, `the output box holds enough to fill it: ${facts.text.length} characters`);
      assert.match(facts.text, new RegExp(`line ${String(next - 1).padStart(8, '0')} of the flood output\\.\\.\\n?$`));
      assert.equal(facts.outputLabel, `Output of ${COMMAND}`);
      assert.equal(facts.liveRegions, 0, 'the output is no live region');
      await page.locator('.tool-call').screenshot({ path: path.join(E2E_RESULTS, 'transcript-terminal-flooding.png') });
    });

    await check('focused to be read, the card draws the whole kept output, and keeps the focus as posts go on', async () => {
      await page.focus('.terminal-output');
      await flood(20_000);
      const facts = await card(page);
      assert.ok(facts.sameElements);
      assert.ok(
        facts.text.includes(`line ${String(next - TERMINAL_DISPLAY_CHARS / 40).padStart(8, '0')} of`),
        'the oldest kept line is there',
      );
      assert.ok(facts.text.includes('earlier output not shown'), 'it says earlier output was not kept');
      assert.ok(await page.evaluate(`document.activeElement?.classList.contains('terminal-output')`), 'the output box keeps the focus');
    });

    await check('the focus gone, the card goes back to the newest lines; scrolled up, it draws the whole kept output', async () => {
      await page.evaluate('document.activeElement?.blur()');
      await flood(20_000);
      assert.ok((await drawnChars(page)) <= TERMINAL_TAIL_CHARS, 'back to the tail');
      await page.hover('.terminal-output');
      await page.mouse.wheel(0, -200);
      // The scroll event comes after the wheel's scroll, a frame or two later.
      for (let tries = 0; tries < 50 && (await drawnChars(page)) <= 60_000; tries++) await page.waitForTimeout(20);
      const facts = await card(page);
      assert.ok(facts.sameElements);
      assert.ok(
        facts.text.includes(`line ${String(next - TERMINAL_DISPLAY_CHARS / 40).padStart(8, '0')} of`),
        'the oldest kept line is there',
      );
    });

    await check('once the command has exited, the card shows the whole kept output', async () => {
      await page.mouse.move(0, 0);
      await page.evaluate(`document.querySelector('.terminal-output').scrollTop = 0`);
      await flood(20_000);
      assert.ok((await drawnChars(page)) <= TERMINAL_TAIL_CHARS, 'back to the tail at the newest line');
      await post(page, [{ type: 'terminal_exited', terminalId: 't1', exitCode: 0, signal: null }]);
      const facts = await card(page);
      assert.ok(facts.sameElements);
      assert.ok(
        facts.text.includes(`line ${String(next - TERMINAL_DISPLAY_CHARS / 40).padStart(8, '0')} of`),
        'the oldest kept line is there',
      );
      assert.match(facts.text, new RegExp(`line ${String(next - 1).padStart(8, '0')} of the flood output\\.\\.\\n?$`));
      const status = await page.locator('.terminal .terminal-status').innerText();
      assert.match(status, /Exited with code 0/);
      await page.locator('.tool-call').screenshot({ path: path.join(E2E_RESULTS, 'transcript-terminal-exited.png') });
    });
  } finally {
    await browser.close();
  }
  console.log(`transcript-terminal: ${checks.length} passed, ${failures.length} failed`);
  if (failures.length > 0) process.exitCode = 1;
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
