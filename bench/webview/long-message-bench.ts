/**
 * Issue "nothing wedges", webview part: one long agent message streamed into a fresh chat view. Each scenario
 * gets its own page so one cannot slow the other. Lines: the main thread's longest and p95 block while the
 * message streams, and when its end is on screen.
 */
import type { Browser, Page } from 'playwright-core';
import { writeFileSync } from 'node:fs';
import { SIMULATED_POST_MS as CHUNK_WINDOW_MS } from './host-pace';
import { initialState, reduce } from '../../src/shared/reducer';
import type { TranscriptState } from '../../src/shared/model';
import type { Figure } from './figure';
import type { HiddenText, LongMessageKind, MessageStreamOptions } from './message-stream-api';
import { loadHarness } from './harness';
import { percentile } from './percentile';
import type { ProbeApi } from './probe-api';

/** Agent chunks of 100 characters at 2,000 chunks/s: 200 KB/s, the rate of the transcript stream bench. */
const CHUNK_CHARS = 100;
const CHUNKS_PER_SECOND = 2_000;
const BLOCK_TARGET_MS = 50;

interface Scenario {
  readonly kind: LongMessageKind;
  readonly label: string;
  readonly totalChars: number;
  readonly chunkChars: number;
  readonly chunksPerSecond: number;
}

const SCENARIOS: readonly Scenario[] = [
  {
    kind: 'markdown',
    label: '2 MB markdown agent message',
    totalChars: 2_000_000,
    chunkChars: CHUNK_CHARS,
    chunksPerSecond: CHUNKS_PER_SECOND,
  },
  {
    kind: 'code-block',
    label: '200 KB fenced code block',
    totalChars: 200_000,
    chunkChars: CHUNK_CHARS,
    chunksPerSecond: CHUNKS_PER_SECOND,
  },
  // The host-under-floods message (4 KB paragraphs as fast as the pipe takes them, kept up to MAX_MESSAGE_CHARS):
  // 3.9 MB (just under the cap, so its end shows) at 2,000 paragraphs/s, 8 MB/s.
  { kind: 'flood', label: '3.9 MB flood of 4 KB paragraphs', totalChars: 3_900_000, chunkChars: 4096, chunksPerSecond: 2_000 },
];

function waitingSession(): TranscriptState {
  let state = reduce(initialState(), { type: 'agent_status', status: { phase: 'ready', agentName: 'Bench Agent' } });
  state = reduce(state, {
    type: 'session_started',
    sessionId: 'bench',
    promptCapabilities: { image: false, audio: false, embeddedContext: false },
  });
  return reduce(state, { type: 'prompt_sent', turnId: 'turn-long', content: [{ type: 'text', text: 'Write a long answer.' }] });
}

async function runScenario(browser: Browser, harness: string, scenario: Scenario): Promise<Figure[]> {
  const page = await browser.newPage({ viewport: { width: 420, height: 900 } });
  try {
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    if (process.env['BENCH_VERBOSE']) page.on('console', (message) => console.log(`  page: ${message.text()}`));
    await loadHarness(page, harness);
    // Typed as unknown for the page call: the transcript type is too deep for playwright's serializable check.
    const state: unknown = waitingSession();
    await page.evaluate((value) => (Reflect.get(globalThis, '__acpBench') as ProbeApi).stage(value), state);
    await page.evaluate(() => (Reflect.get(globalThis, '__acpBench') as ProbeApi).loadSnapshot());
    await page.waitForTimeout(300);
    await page.evaluate(() => (Reflect.get(globalThis, '__acpBench') as ProbeApi).takeLongTasks());
    const options: MessageStreamOptions = {
      kind: scenario.kind,
      totalChars: scenario.totalChars,
      chunkChars: scenario.chunkChars,
      chunksPerSecond: scenario.chunksPerSecond,
      windowMs: CHUNK_WINDOW_MS,
      seq: 0,
    };
    // BENCH_MESSAGE_PROFILE=<prefix> records each scenario's CPU profile to <prefix>-<kind>.cpuprofile (open it in DevTools).
    const profile = process.env['BENCH_MESSAGE_PROFILE'];
    const cdp = profile ? await page.context().newCDPSession(page) : undefined;
    const metrics = await page.context().newCDPSession(page);
    await metrics.send('Performance.enable');
    await cdp?.send('Profiler.enable');
    await cdp?.send('Profiler.start');
    // BENCH_MESSAGE_TRACE=<prefix> records a Chromium trace (style, layout, paint, script and the heartbeat's late
    // beats as user timing) to <prefix>-<kind>.json.
    const trace = process.env['BENCH_MESSAGE_TRACE'];
    if (trace)
      await browser.startTracing(page, {
        path: `${trace}-${scenario.kind}.json`,
        categories: ['devtools.timeline', 'blink', 'blink.user_timing', 'v8.execute'],
      });
    const streamed = await page
      .evaluate((value) => (Reflect.get(globalThis, '__acpBench') as ProbeApi).streamMessage(value), options)
      .finally(async () => {
        if (cdp) writeFileSync(`${profile}-${scenario.kind}.cpuprofile`, JSON.stringify((await cdp.send('Profiler.stop')).profile));
        if (trace) await browser.stopTracing();
      });
    await page.waitForTimeout(300);
    const longWork = await page.evaluate(() => (Reflect.get(globalThis, '__acpBench') as ProbeApi).takeLongTasks());
    const revealed = await revealWhileIdle(page);
    if (pageErrors.length > 0) throw new Error(`the webview threw: ${pageErrors[0]}`);
    await metrics.send('HeapProfiler.collectGarbage');
    const heap = (await metrics.send('Performance.getMetrics')).metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? 0;
    const heapMb = Math.round((heap / 1024 / 1024) * 10) / 10;
    // Blocks are 8px apart however they are drawn (wrapped, or unwrapped: streaming-markdown.ts). Last: this lays
    // out the whole message.
    const layout = await page.evaluate(() => (Reflect.get(globalThis, '__acpBench') as ProbeApi).messageLayout());
    if (process.env['BENCH_VERBOSE']) console.log(`  elements after the ${scenario.label}: ${JSON.stringify(layout.elements)}`);
    const gaps = Object.entries(layout.gaps);
    const blockGaps = gaps.reduce((sum, [, count]) => sum + count, 0);
    const unevenGaps = gaps.reduce((sum, [gap, count]) => (Math.abs(Number(gap) - 8) > 0.25 ? sum + count : sum), 0);
    // The heartbeat sees every stretch; long tasks and long animation frames (over 50 ms) add what it may straddle.
    const longest = Math.round(Math.max(0, ...streamed.blocksMs, ...longWork.tasks, ...longWork.frames));
    const p95 = Math.round(percentile(streamed.blocksMs, 0.95));
    const streamMs = (streamed.chunks / scenario.chunksPerSecond) * 1000;
    const prefix = `webview: ${scenario.label} streamed (${streamed.chunks} chunks of ${scenario.chunkChars} chars at ${scenario.chunksPerSecond}/s, ${streamed.posts} posts)`;
    return [
      {
        name: `${prefix}, p95 main-thread block (${streamed.blocksMs.length} blocks seen)`,
        value: p95,
        unit: 'ms',
        target: `<= ${BLOCK_TARGET_MS} ms`,
        ok: p95 <= BLOCK_TARGET_MS,
      },
      {
        name: `${prefix}, longest main-thread block`,
        value: longest,
        unit: 'ms',
        target: `<= ${BLOCK_TARGET_MS} ms`,
        ok: longest <= BLOCK_TARGET_MS,
      },
      {
        name: `${prefix}, fully shown (the stream itself takes ${Math.round(streamMs)} ms; ${Math.round(streamed.afterLastPostMs)} ms after the last post)`,
        value: Math.round(streamed.fullyShownMs),
        unit: 'ms',
        target: `<= ${Math.round(streamMs + 100)} ms`,
        ok: streamed.fullyShownMs <= streamMs + 100,
      },
      {
        name: `webview: ${scenario.label}, text kept from screen readers and find once it ended (drawn behind: ${revealed.atEnd.groups} groups, ${revealed.atEnd.chars} characters, 300 ms after; all shown ${revealed.clearedMs === undefined ? 'never' : `${Math.round(revealed.clearedMs)} ms later`}), after ${REVEAL_LIMIT_MS / 1000} s`,
        value: revealed.left.chars,
        unit: 'characters',
        target: '0',
        ok: revealed.left.chars === 0,
      },
      {
        name: `webview: ${scenario.label}, longest task or frame meanwhile, the idle page showing that text (those over 50 ms are seen)`,
        value: revealed.longestMs,
        unit: 'ms',
        target: `<= ${BLOCK_TARGET_MS} ms`,
        ok: revealed.longestMs <= BLOCK_TARGET_MS,
      },
      {
        name: `webview: ${scenario.label}, gaps between its blocks other than 8px (of ${blockGaps}: ${JSON.stringify(layout.gaps)})`,
        value: unevenGaps,
        unit: 'gaps',
        target: '0',
        ok: unevenGaps === 0,
      },
      {
        name: `webview: JS heap after the ${scenario.label} (garbage collected)`,
        value: heapMb,
        unit: 'MB',
        target: '<= 150 MB',
        ok: heapMb <= 150,
      },
    ];
  } finally {
    await page.close();
  }
}

export async function runLongMessageBench(browser: Browser, harness: string): Promise<Figure[]> {
  const figures: Figure[] = [];
  // BENCH_MESSAGE_KIND=markdown|code-block|flood runs one scenario.
  const only = process.env['BENCH_MESSAGE_KIND'];
  for (const scenario of SCENARIOS.filter((each) => !only || each.kind === only))
    figures.push(...(await runScenario(browser, harness, scenario)));
  return figures;
}

/** How long an ended message may keep text from screen readers and find (drawn behind, shown while the page idles). */
const REVEAL_LIMIT_MS = 10_000;

interface Revealed {
  /** Hidden 300 ms after the stream ended. */
  readonly atEnd: HiddenText;
  /** Hidden REVEAL_LIMIT_MS after that, or when none was left. */
  readonly left: HiddenText;
  /** When none was left, from atEnd. */
  readonly clearedMs: number | undefined;
  /** The main thread's longest long task or frame meanwhile. */
  readonly longestMs: number;
}

/**
 * A message streamed while the page was far behind leaves groups drawn behind (content-visibility: hidden: not in
 * the accessibility tree, not found by find). Nobody scrolls here: they must be shown while the page is idle.
 */
async function revealWhileIdle(page: Page): Promise<Revealed> {
  const hidden = (): Promise<HiddenText> => page.evaluate(() => (Reflect.get(globalThis, '__acpBench') as ProbeApi).hiddenText());
  const atEnd = await hidden();
  const started = performance.now();
  let left = atEnd;
  while (left.groups > 0 && performance.now() - started < REVEAL_LIMIT_MS) {
    await page.waitForTimeout(100);
    left = await hidden();
  }
  const clearedMs = left.groups === 0 ? performance.now() - started : undefined;
  // A frame that lays the last group out comes after its class changes.
  await page.waitForTimeout(300);
  const work = await page.evaluate(() => (Reflect.get(globalThis, '__acpBench') as ProbeApi).takeLongTasks());
  return { atEnd, left, clearedMs, longestMs: Math.round(Math.max(0, ...work.tasks, ...work.frames)) };
}
