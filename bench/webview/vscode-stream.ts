/**
 * Issue 31: where the time goes between an agent writing a chunk and the chat painting it, in the real VS Code
 * (code-server, the installed .vsix, Chromium) at 1,000 chunks/s. Per chunk: agent write → the webview's outer frame
 * (the extension host's read, reduce and post, and VS Code's transport through the workbench) → the chat's own
 * frame (the outer frame handing it on) → paint. And each process's CPU over the stream. `BENCH_ONLY=stream`.
 * BENCH_CPU_THROTTLE=<rate> slows the workbench's page (the chat's webview shares its thread) as a slow machine
 * would; BENCH_STREAM_TRACE=<file> writes a Chromium trace of that page over the stream (chrome://tracing, Perfetto),
 * (BENCH_TRACE_CATEGORIES=<list> adds categories, e.g. disabled-by-default-devtools.timeline.invalidationTracking and
 * disabled-by-default-devtools.timeline.stack: what each style and layout pass was for, and which script caused it),
 * BENCH_STREAM_PROFILE=<file> a CPU profile of its scripts (.cpuprofile), BENCH_STREAM_ALLOCATIONS=<file> what they
 * allocate (.heapprofile, garbage included), BENCH_STREAM_DUMP=<file> every chunk's time
 * at each hop. The same agent streams into a plain webview view too (bench/webview/baseline-extension.ts), in the
 * same workbench right after: what VS Code itself takes to carry such a stream on this machine. Also reported: the
 * extension's activation and the click to the chat's prompt in this window (the open bench times opens closely).
 *
 * This is the one write-to-paint line. An earlier part (`vscode`, issue 4) timed the same stream into the same chat
 * without the baseline and held it to 50 ms whatever VS Code's own transport took in that run; it read what this
 * line reads, so it told nothing more, and it cost a code-server of its own (some 21 s of the bench).
 */
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { launchBrowser } from '../../test/support/browser';
import { recordAllocations, recordProfile, recordTimeline } from '../../test/support/page-recording';
import { BASELINE_TITLE } from './baseline-extension';
import type { Figure } from './figure';
import { throttleNote, throttlePage } from './harness';
import { startPacedServer } from './paced-server';
import { percentile } from './percentile';
import { cpuBetween, processTree } from './process-cpu';
import { acpLogMatch, activationTimes, chatFrame, pageScript, waitForLatencies, waitUntilChatCanSend } from './vscode-page';

const RATE = 1_000;
const SECONDS = 8;
const LONG = 90_000;
/** The issue's targets for write to paint; each holds unless the baseline in the same run is over it already. */
const P95_TARGET_MS = 50;
const MAX_TARGET_MS = 150;
/** What our chat may add to the baseline where that is over the targets: a frame at p95, three at the worst. */
const P95_OVER_BASELINE_MS = 17;
const MAX_OVER_BASELINE_MS = 50;

interface Stamps {
  readonly outer: Record<string, number>;
  readonly inner: Record<string, number>;
  readonly painted: Record<string, number>;
}

const readArrivals = (frame: Frame): Promise<Record<string, number>> =>
  frame.evaluate(() => ({ ...(Reflect.get(globalThis, '__acpArrivals') as Record<string, number>) }));

/** p50/p95/max of one hop over the chunks seen at both ends, as text. */
function hop(from: Record<string, number>, to: Record<string, number>): { text: string; p95: number } {
  const spans = Object.keys(to)
    .filter((index) => index in from)
    .map((index) => (to[index] ?? 0) - (from[index] ?? 0));
  const p95 = percentile(spans, 0.95);
  return { text: `p50 ${Math.round(percentile(spans, 0.5))} / p95 ${Math.round(p95)} / max ${Math.round(Math.max(0, ...spans))}`, p95 };
}

export async function runVscodeStreamBench(): Promise<Figure[]> {
  const count = RATE * SECONDS;
  const { home, workspace, server } = await startPacedServer('acp-vscode-stream-', count, RATE, true);
  const userDataDir = path.join(home, 'user-data');
  const browser = await launchBrowser(home, { width: 1280, height: 860 });
  try {
    const paintProbe = await pageScript(home);
    const arrivalProbe = await pageScript(home, 'arrival-probe');
    const page = browser.pages()[0] ?? (await browser.newPage());
    await throttlePage(page);
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`, { timeout: LONG });
    await page.locator('.monaco-workbench').waitFor({ timeout: LONG });
    const clicked = performance.now();
    await page.locator('.activitybar [aria-label^="ACP"]').first().click({ timeout: LONG });
    const chat = await chatFrame(page);
    const prompt = chat.locator('textarea[aria-label="Prompt"]');
    await prompt.waitFor({ state: 'visible', timeout: LONG });
    const promptShownMs = performance.now() - clicked;
    await waitUntilChatCanSend(chat);
    // Through the debugger protocol, so the webview's CSP does not apply to the probes.
    await chat.evaluate(paintProbe);
    await chat.evaluate(arrivalProbe);
    const stopTrace = process.env['BENCH_STREAM_TRACE'] ? await recordTimeline(page) : undefined;
    const stopProfile = process.env['BENCH_STREAM_PROFILE'] ? await recordProfile(page, 200) : undefined;
    const stopAllocations = process.env['BENCH_STREAM_ALLOCATIONS'] ? await recordAllocations(page, 16_384) : undefined;
    const roots = [server.pid, process.pid].filter((pid): pid is number => pid !== undefined);
    const before = processTree(roots);
    const started = performance.now();
    await prompt.fill('stream');
    await prompt.press('Enter');
    const latencies = await waitForLatencies(chat, count);
    const wallMs = performance.now() - started;
    const cpu = cpuBetween(before, processTree(roots));
    await stopTrace?.(process.env['BENCH_STREAM_TRACE'] ?? '');
    await stopProfile?.(process.env['BENCH_STREAM_PROFILE'] ?? '');
    await stopAllocations?.(process.env['BENCH_STREAM_ALLOCATIONS'] ?? '');
    const stamps: Stamps = {
      outer: await chat.evaluate(() => ({ ...(Reflect.get(globalThis, '__acpForwarded') as Record<string, number>) })),
      inner: await readArrivals(chat),
      painted: await chat.evaluate(() => ({
        ...(Reflect.get(globalThis, '__acpPaintProbe') as { paintedAt: Record<string, number> }).paintedAt,
      })),
    };
    const messages = await chat.evaluate(() => Number(Reflect.get(globalThis, '__acpStampMessages') ?? 0));
    // The host's side of the flow control (logged at the turn's end; VS Code writes the channel's file a moment later).
    let flow: RegExpExecArray | undefined;
    for (let tries = 0; tries < 20 && !flow; tries++) {
      flow = acpLogMatch(userDataDir, /flow control this turn: (.*)/);
      if (!flow) await page.waitForTimeout(250);
    }
    // The write time is in the stamp itself (the probe keeps it): the first hop starts there.
    const written = await chat.evaluate(() => ({ ...(Reflect.get(globalThis, '__acpWrites') as Record<string, number>) }));
    const posts = await chat.evaluate(() => ({ ...(Reflect.get(globalThis, '__acpPosts') as Record<string, number>) }));
    // BENCH_STREAM_DUMP=<file>: every chunk's stamps (epoch ms) at each hop, to see when the slow ones came.
    if (process.env['BENCH_STREAM_DUMP']) writeFileSync(process.env['BENCH_STREAM_DUMP'], JSON.stringify({ written, posts, ...stamps }));
    // Last: showing the baseline's view takes our chat's page away.
    const baseline = await streamIntoBaseline(page, paintProbe, count);
    const p95 = percentile(latencies, 0.95);
    const max = Math.max(0, ...latencies);
    const baselineP95 = percentile(baseline, 0.95);
    const baselineMax = Math.max(0, ...baseline);
    // Where the workbench alone cannot carry the stream in time (its per-message and per-frame work in a
    // same-origin frame, on 2 slow cores), the target is the baseline's own figure plus what our chat may add.
    const p95Target = Math.max(P95_TARGET_MS, Math.round(baselineP95) + P95_OVER_BASELINE_MS);
    const maxTarget = Math.max(MAX_TARGET_MS, Math.round(baselineMax) + MAX_OVER_BASELINE_MS);
    const toPost = hop(written, posts);
    const postToOuter = hop(posts, stamps.outer);
    const toOuter = hop(written, stamps.outer);
    const toInner = hop(stamps.outer, stamps.inner);
    const toPaint = hop(stamps.inner, stamps.painted);
    const about = `p50 ${Math.round(percentile(latencies, 0.5))} ms, max ${Math.round(max)} ms, ${latencies.length}/${count} chunks in ${messages} messages; host: ${flow?.[1] ?? 'no flow-control line in the log'}`;
    const baselineAbout = `p50 ${Math.round(percentile(baseline, 0.5))} ms, max ${Math.round(baselineMax)} ms, ${baseline.length}/${count} chunks`;
    const activation = activationTimes(userDataDir)[0];
    const relative = (target: number, fixed: number, over: number): string =>
      `<= ${target} ms${target > fixed ? ` (baseline + ${over})` : ''}`;
    return [
      {
        name: `vscode stream: baseline, a plain webview view fed the same agent's text per read (bench/webview/baseline-extension.ts): write to paint p95 (${baselineAbout})${throttleNote()}`,
        value: Math.round(baselineP95),
        unit: 'ms',
        target: 'reference',
        ok: baseline.length === count,
      },
      {
        name: `vscode stream: agent write to paint p95 at ${RATE} chunks/s (${about})${throttleNote()}`,
        value: Math.round(p95),
        unit: 'ms',
        target: relative(p95Target, P95_TARGET_MS, P95_OVER_BASELINE_MS),
        ok: p95 <= p95Target && latencies.length === count,
      },
      {
        name: 'vscode stream: agent write to paint max',
        value: Math.round(max),
        unit: 'ms',
        target: relative(maxTarget, MAX_TARGET_MS, MAX_OVER_BASELINE_MS),
        ok: max <= maxTarget,
      },
      {
        name: `vscode stream: breakdown (ms) write→post ${toPost.text}; post→outer frame hands it on ${postToOuter.text}; outer→inner frame ${toInner.text}; inner frame→paint ${toPaint.text}; p95 write→outer`,
        value: Math.round(toOuter.p95),
        unit: 'ms',
        target: 'reported',
        ok: true,
      },
      {
        name: `vscode stream: CPU over the ${(wallMs / 1000).toFixed(1)} s stream (ms): ${cpu.map((entry) => `${entry.label} ${entry.cpuMs}`).join(', ')}; total`,
        value: cpu.reduce((sum, entry) => sum + entry.cpuMs, 0),
        unit: 'ms',
        target: 'reported',
        ok: true,
      },
      activation === undefined
        ? { name: 'vscode: extension activation time (not found in the ACP log)', value: -1, unit: 'ms', target: 'reported', ok: false }
        : {
            name: 'vscode: extension activation time (activate() start to end)',
            value: activation.restMs,
            unit: 'ms',
            target: 'reported',
            ok: true,
          },
      {
        name: 'vscode: activity bar click to chat prompt visible (code-server webview start-up included; closely: the open part)',
        value: Math.round(promptShownMs),
        unit: 'ms',
        target: 'reported',
        ok: true,
      },
    ];
  } finally {
    await browser.close().catch(() => undefined);
    server.stop();
  }
}

/**
 * The baseline: its view shown (ours goes to the background), the same paint probe in its page, Enter in its prompt,
 * and every chunk's write-to-paint time.
 */
async function streamIntoBaseline(page: Page, paintProbe: string, count: number): Promise<number[]> {
  await page.locator(`.activitybar [aria-label^="${BASELINE_TITLE}"]`).first().click({ timeout: LONG });
  // The first frame found may be replaced as the view finishes opening (its page loaded again): found anew then.
  for (let attempt = 1; ; attempt++) {
    const frame = await chatFrame(page, 'Baseline');
    try {
      await frame.evaluate(paintProbe);
      await frame.locator('textarea[aria-label="Prompt"]').press('Enter');
      return await waitForLatencies(frame, count);
    } catch (error) {
      if (attempt >= 3 || !frame.isDetached()) throw error;
      await page.waitForTimeout(500);
    }
  }
}
