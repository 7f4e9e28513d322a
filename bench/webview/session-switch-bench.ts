/**
 * Issue 11 ("sessions"), webview part: switching the chat to another conversation with a 10,000-entry
 * transcript, as the host does it (a snapshot naming the other conversation; the view builds a fresh chat).
 * Several switches back and forth, each timed from the post to the first frame that shows the transcript, with
 * the long tasks and long animation frames of the switch. Then what the view still holds after switching away
 * from a big conversation to an empty one: a conversation not shown keeps no webview state.
 */
import type { Browser, CDPSession, Page } from 'playwright-core';
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { initialState, reduce } from '../../src/shared/reducer';
import { throttlePage } from './harness';
import type { Figure } from './figure';
import { longTranscript } from './long-transcript';
import { percentile } from './percentile';
import type { ProbeApi } from './probe-api';

const SWITCHES = 6;
const FIRST_PAINT_TARGET_MS = 150;
const BLOCK_TARGET_MS = 50;
/** At most this share of a big conversation's heap may stay after switching away from it. */
const RETAINED_TARGET = 0.1;
/** Turns of the conversation shown before the heap is first measured (bench/webview/long-transcript.ts). */
const WARM_UP_TURNS = 20;

function emptyConversation(): unknown {
  return reduce(initialState(), { type: 'agent_status', status: { phase: 'ready', agentName: 'Bench Agent' } });
}

async function heapMb(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const used = (await cdp.send('Performance.getMetrics')).metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? 0;
  return used / 1024 / 1024;
}

/** Shows `state` as conversation `id`; returns ms from the post to the first frame with entries on screen. */
async function show(page: Page, cdp: CDPSession, state: unknown, id: string): Promise<number> {
  await page.evaluate(({ value, conversationId }) => (Reflect.get(globalThis, '__acpBench') as ProbeApi).stage(value, conversationId), {
    value: state,
    conversationId: id,
  });
  // Carrying 7 MB into the page for staging is the bench's own work, not the switch's: let its long tasks be
  // reported, and leave them out. The staged copy stands for the host's, which lives in another process: collect
  // garbage now, or the first young-generation collection of the switch copies all 7 MB of it (25-45 ms).
  await cdp.send('HeapProfiler.collectGarbage');
  await page.waitForTimeout(300);
  await page.evaluate(() => (Reflect.get(globalThis, '__acpBench') as ProbeApi).takeLongTasks());
  return (await page.evaluate(() => (Reflect.get(globalThis, '__acpBench') as ProbeApi).loadSnapshot())).firstRenderMs;
}

export async function runSessionSwitchBench(browser: Browser, harness: string): Promise<Figure[]> {
  const page = await browser.newPage({ viewport: { width: 420, height: 900 } });
  try {
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    if (process.env['BENCH_VERBOSE']) page.on('console', (message) => console.log(`  page: ${message.text()}`));
    await throttlePage(page);
    await page.goto(pathToFileURL(harness).href);
    await page.waitForFunction(() => Reflect.has(globalThis, '__acpChat') && Reflect.has(globalThis, '__acpBench'));
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    await page.evaluate(() =>
      (Reflect.get(globalThis, '__acpBench') as ProbeApi).post({
        type: 'host_info',
        info: { agentNames: ['Bench Agent'], selectedAgent: 'Bench Agent', workspaceTrusted: true },
      }),
    );
    // Typed as unknown for the page call: the transcript type is too deep for playwright's serializable check.
    const big: unknown = longTranscript();
    // The same kinds of entries first, a few turns of them: what the page keeps after that is its compiled code and
    // what it learned of the machine (layout pace), which a big conversation does not add to; the line is about
    // what the big conversation's own data leaves behind.
    await show(page, cdp, longTranscript(WARM_UP_TURNS), 'warm-up');
    await page.waitForTimeout(600);
    await show(page, cdp, emptyConversation(), 'empty');
    await page.waitForTimeout(300);
    const heapEmpty = await heapMb(cdp);
    const firstPaints: number[] = [];
    const wholes: number[] = [];
    const tasks: number[] = [];
    const frames: number[] = [];
    await page.evaluate(() => (Reflect.get(globalThis, '__acpBench') as ProbeApi).takeLongTasks());
    // BENCH_SWITCH_TRACE=<file.json> records a Chromium trace of the switches (open it in DevTools' Performance panel).
    const trace = process.env['BENCH_SWITCH_TRACE'];
    if (trace) await browser.startTracing(page, { path: trace, categories: ['devtools.timeline', 'blink', 'v8'] });
    // BENCH_SWITCH_PROFILE=<file.cpuprofile> records the page's CPU profile of the switches.
    const profile = process.env['BENCH_SWITCH_PROFILE'];
    if (profile) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.start');
    }
    for (let round = 0; round < SWITCHES; round++) {
      firstPaints.push(await show(page, cdp, big, `big-${round % 2}`));
      // Until the whole transcript is in and drawn (the older parts follow the first paint), then until the view
      // settles (heights measured, the rest drawn) and the long-frame reports have landed.
      wholes.push((await page.evaluate(() => (Reflect.get(globalThis, '__acpBench') as ProbeApi).wholeDrawn())).wholeMs);
      await page.waitForTimeout(600);
      const work = await page.evaluate(() => (Reflect.get(globalThis, '__acpBench') as ProbeApi).takeLongTasks());
      tasks.push(...work.tasks);
      frames.push(...work.frames);
    }
    if (trace) await browser.stopTracing();
    if (profile) writeFileSync(profile, JSON.stringify((await cdp.send('Profiler.stop')).profile));
    const heapBig = await heapMb(cdp);
    await show(page, cdp, emptyConversation(), 'empty-again');
    await page.waitForTimeout(300);
    const heapAway = await heapMb(cdp);
    if (pageErrors.length > 0) throw new Error(`the webview threw: ${pageErrors[0]}`);
    const retained = (heapAway - heapEmpty) / Math.max(0.001, heapBig - heapEmpty);
    const p95 = Math.round(percentile(firstPaints, 0.95));
    const longest = (values: readonly number[]): number => Math.round(Math.max(0, ...values));
    const label = `webview: switching to a 10,000-entry conversation (${SWITCHES} switches)`;
    return [
      {
        name: `${label}, first paint p95 (each: ${firstPaints.map(Math.round).join(', ')} ms)`,
        value: p95,
        unit: 'ms',
        target: `<= ${FIRST_PAINT_TARGET_MS} ms`,
        ok: p95 <= FIRST_PAINT_TARGET_MS,
      },
      {
        name: `${label}, all of it drawn, p95 (each: ${wholes.map(Math.round).join(', ')} ms; the older pages follow the first paint)`,
        value: Math.round(percentile(wholes, 0.95)),
        unit: 'ms',
        target: 'informational',
        ok: true,
      },
      {
        name: `${label}, longest task (${tasks.length} over 50 ms)`,
        value: longest(tasks),
        unit: 'ms',
        target: `<= ${BLOCK_TARGET_MS} ms`,
        ok: longest(tasks) <= BLOCK_TARGET_MS,
      },
      {
        name: `${label}, longest animation frame (${frames.length} over 50 ms)`,
        value: longest(frames),
        unit: 'ms',
        target: `<= ${BLOCK_TARGET_MS} ms`,
        ok: longest(frames) <= BLOCK_TARGET_MS,
      },
      {
        name: `webview: heap kept after switching away from it, share of a 10,000-entry conversation's (${heapEmpty.toFixed(1)} MB empty, ${heapBig.toFixed(1)} MB shown, ${heapAway.toFixed(1)} MB after)`,
        value: Math.round(retained * 100) / 100,
        unit: 'ratio',
        target: `<= ${RETAINED_TARGET}`,
        ok: retained <= RETAINED_TARGET,
      },
    ];
  } finally {
    await page.close();
  }
}
