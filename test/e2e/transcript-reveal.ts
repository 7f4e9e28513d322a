/**
 * The transcript draws everything on screen however the view came to be shown, in Chromium with the real webview
 * bundle (the bench's page, fed as the host feeds it). Heights come from a ResizeObserver after layout
 * (webview/transcript/virtual-transcript.ts), so nothing may wait on a report that a hidden or zero-sized view
 * never gives: a conversation that arrives while the chat is hidden or has no height yet (a restored view after
 * Reload Window), a chat hidden and shown again, a viewport made taller. In each case the viewport shows no
 * undrawn gap, and the entries drawn are the same as when the conversation opens plainly: what is drawn depends
 * on what is on screen, not on the way there (Reload Window counted the prompts drawn before and after).
 *
 * Run: node out/test/e2e/transcript-reveal.js
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchHarnessBrowser, loadHarness, writeHarness } from '../../bench/webview/harness';
import { longTranscript } from '../../bench/webview/long-transcript';
import type { ProbeApi } from '../../bench/webview/probe-api';
import { transcriptGeometry, type TranscriptGeometry } from './transcript-geometry';
import { removeOnSuccess } from '../support/remove-on-success';
import type { TranscriptState } from '../../src/shared/model';
import { previewOf } from '../../src/shared/transcript-preview';
import { previewHtml } from '../../src/views/preview-html';

const WIDTH = 420;
const HEIGHT = 900;

async function openHarness(browser: Browser, harness: string, height: number): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: WIDTH, height } });
  page.on('pageerror', (error) => assert.fail(`the webview threw: ${error.message}`));
  await loadHarness(page, harness);
  return page;
}

/** Hands the page the conversation and lets it arrive (in parts, paced, as the host posts it). */
async function deliver(page: Page, state: unknown, conversationId: string): Promise<void> {
  await page.evaluate(([value, id]) => (Reflect.get(globalThis, '__acpBench') as ProbeApi).stage(value, id), [
    state,
    conversationId,
  ] as const);
  await page.evaluate(() => (Reflect.get(globalThis, '__acpBench') as ProbeApi).loadSnapshot());
  await page.evaluate(() => (Reflect.get(globalThis, '__acpBench') as ProbeApi).wholeDrawn());
}

/** The chat shown or hidden as a whole (display: none, as a hidden view's document has no layout). */
async function setHidden(page: Page, hidden: boolean): Promise<void> {
  await page.evaluate(`document.querySelector('main.chat').style.display = ${JSON.stringify(hidden ? 'none' : '')}`);
}

/** Entries a viewport of HEIGHT px can hold by the estimated heights, with the margin drawn around it. */
const MAX_DRAWN_UNSEEN = 60;

/**
 * What a hidden chat does over a second: renders, and the entries in its DOM. A hidden view's entries measure 0
 * px, and a transcript that took that for their height went on drawing more to fill the viewport, frame after
 * frame (7,659 of 10,000 entries, then a 25 s layout when shown).
 */
async function hiddenWork(page: Page): Promise<{ renders: number; drawn: number }> {
  const { renders } = await page.evaluate(() => (Reflect.get(globalThis, '__acpBench') as ProbeApi).idle(1_000));
  const drawn = await page.locator('[data-entry-key]').count();
  return { renders, drawn };
}

/** What is on screen once the view has had time to settle (a frame or two per step on a busy machine). */
async function settled(page: Page): Promise<TranscriptGeometry> {
  let last = await transcriptGeometry(page.mainFrame());
  for (let tries = 0; tries < 40; tries++) {
    await page.waitForTimeout(150);
    const now = await transcriptGeometry(page.mainFrame());
    if (JSON.stringify(now) === JSON.stringify(last)) return now;
    last = now;
  }
  return last;
}

function describe(geometry: TranscriptGeometry): string {
  const { keys, prompts: _prompts, ...rest } = geometry;
  return JSON.stringify({ ...rest, drawn: keys.length, first: keys[0], last: keys[keys.length - 1] });
}

function assertAtBottomAndDrawn(geometry: TranscriptGeometry, what: string): void {
  assert.equal(geometry.undrawnPx, 0, `${what}: px of the viewport left undrawn: ${describe(geometry)}`);
  const fromBottom = geometry.scrollHeight - geometry.scrollTop - geometry.clientHeight;
  assert.ok(Math.abs(fromBottom) <= 1, `${what}: the view is at the bottom: ${describe(geometry)}`);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'acp-transcript-reveal-'));
  removeOnSuccess('e2e transcript-reveal', dir);
  const browser: Browser = await launchHarnessBrowser();
  const checks: string[] = [];
  const failures: string[] = [];
  const check = async (name: string, run: () => Promise<void>): Promise<void> => {
    // ACP_CHECK=<regexp>: only the checks it matches (the first one sets up for those after it).
    if (process.env['ACP_CHECK'] && !new RegExp(process.env['ACP_CHECK']).test(name)) return;
    try {
      await run();
      checks.push(name);
      console.log(`  ✔ ${name}`);
    } catch (error) {
      failures.push(name);
      console.log(`  ✘ ${name}\n    ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  try {
    const harness = await writeHarness(dir);
    // Typed as unknown for the page call: the transcript type is too deep for playwright's serializable check.
    const state: unknown = longTranscript();

    // The reference: the conversation opened plainly, at the bottom of a shown view.
    const page = await openHarness(browser, harness, HEIGHT);
    await deliver(page, state, 'plain');
    const plain = await settled(page);
    assertAtBottomAndDrawn(plain, 'opened plainly');
    assert.ok(plain.keys.length >= 5, `the viewport is filled: ${describe(plain)}`);
    const sameAsPlain = (geometry: TranscriptGeometry, what: string): void =>
      assert.deepEqual(
        geometry.keys,
        plain.keys,
        `${what}: the entries drawn are those drawn when it opened plainly (${describe(plain)}): ${describe(geometry)}`,
      );

    await check('scrolled up and back to the bottom: the same entries are drawn as when it opened', async () => {
      await page.locator('.transcript').evaluate((element) => void (element.scrollTop = element.scrollTop - 3_000));
      await settled(page);
      await page.locator('.transcript').evaluate((element) => void (element.scrollTop = element.scrollHeight));
      const back = await settled(page);
      assertAtBottomAndDrawn(back, 'back at the bottom');
      sameAsPlain(back, 'back at the bottom');
    });

    await check('hidden and shown again: nothing on screen is left undrawn, the same entries are drawn', async () => {
      await setHidden(page, true);
      await page.waitForTimeout(300);
      const whileHidden = await hiddenWork(page);
      assert.ok(
        whileHidden.renders <= 1 && whileHidden.drawn <= plain.keys.length,
        `hidden, the chat draws nothing more (it had ${plain.keys.length} entries drawn): ${JSON.stringify(whileHidden)}`,
      );
      await setHidden(page, false);
      const shown = await settled(page);
      assertAtBottomAndDrawn(shown, 'shown again');
      sameAsPlain(shown, 'shown again');
    });

    await check('a taller viewport is drawn to its new bottom edge; back to the old height, the same entries as before', async () => {
      await page.setViewportSize({ width: WIDTH, height: HEIGHT + 500 });
      const taller = await settled(page);
      assertAtBottomAndDrawn(taller, 'taller');
      await page.setViewportSize({ width: WIDTH, height: HEIGHT });
      const back = await settled(page);
      assertAtBottomAndDrawn(back, 'back to the old height');
      sameAsPlain(back, 'back to the old height');
    });

    await check('a conversation that arrives while the chat is hidden is drawn whole on screen once shown', async () => {
      const hidden = await openHarness(browser, harness, HEIGHT);
      await setHidden(hidden, true);
      await deliver(hidden, state, 'plain');
      const whileHidden = await hiddenWork(hidden);
      assert.ok(
        whileHidden.renders <= 1 && whileHidden.drawn <= MAX_DRAWN_UNSEEN,
        `hidden, the chat draws no more than a viewport's worth by the estimates: ${JSON.stringify(whileHidden)}`,
      );
      await setHidden(hidden, false);
      const shown = await settled(hidden);
      assertAtBottomAndDrawn(shown, 'shown after arriving hidden');
      sameAsPlain(shown, 'shown after arriving hidden');
      await hidden.close();
    });

    await check('a conversation that arrives while the view has no height yet (a restored view) is drawn once it has', async () => {
      // A page 1 px high gets no frames (as a view not laid out yet): the snapshot is posted, not waited for.
      const restored = await openHarness(browser, harness, 1);
      await restored.evaluate((value) => (Reflect.get(globalThis, '__acpBench') as ProbeApi).stage(value, 'plain'), state);
      await restored.evaluate(() => void (Reflect.get(globalThis, '__acpBench') as ProbeApi).loadSnapshot());
      await restored.waitForTimeout(1_000);
      await restored.setViewportSize({ width: WIDTH, height: HEIGHT });
      await restored.evaluate(() => (Reflect.get(globalThis, '__acpBench') as ProbeApi).wholeDrawn());
      const grown = await settled(restored);
      assertAtBottomAndDrawn(grown, 'grown to full height');
      sameAsPlain(grown, 'grown to full height');
      await restored.close();
    });

    await check(
      "after Reload Window the preview in the page's HTML stays until the chat has drawn the transcript: no frame without entries",
      async () => {
        const saved = previewOf('plain', state as TranscriptState);
        assert.ok(saved, 'the conversation has a preview');
        const reloaded = await openHarness(browser, await writeHarness(dir, previewHtml(saved)), HEIGHT);
        assert.ok((await reloaded.locator('.boot-preview [data-entry-key]').count()) > 0, 'the page opens with the preview');
        // Every frame from the snapshot on: the entries in the page then (what the last frame painted).
        await reloaded.evaluate(`{
          const counts = [];
          globalThis.__entryCounts = counts;
          const sample = () => {
            counts.push(document.querySelectorAll('[data-entry-key]').length);
            if (counts.length < 120) requestAnimationFrame(sample);
          };
          requestAnimationFrame(sample);
        }`);
        await deliver(reloaded, state, 'plain');
        const counts = (await reloaded.evaluate(() => Reflect.get(globalThis, '__entryCounts'))) as number[];
        assert.ok(counts.length > 5, `frames sampled: ${counts.length}`);
        assert.ok(
          counts.every((count) => count > 0),
          `a frame showed no entry between the preview and the transcript: ${counts.join(',')}`,
        );
        assert.equal(await reloaded.locator('.boot-preview').count(), 0, 'the preview is gone once the transcript is drawn');
        const drawn = await settled(reloaded);
        assertAtBottomAndDrawn(drawn, 'after the preview');
        sameAsPlain(drawn, 'after the preview');
        await reloaded.close();
      },
    );
  } finally {
    await browser.close();
  }
  console.log(`transcript-reveal: ${checks.length} passed, ${failures.length} failed`);
  if (failures.length > 0) process.exit(1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
