/**
 * Issue 31: where the time goes between an agent writing a chunk and the chat painting it, in the real VS Code
 * (code-server, the installed .vsix, Chromium) at 1,000 chunks/s. Per chunk: agent write → the webview's outer frame
 * (the extension host's read, reduce and post, and VS Code's transport through the workbench) → the chat's own
 * frame (the outer frame handing it on) → paint. And each process's CPU over the stream. `BENCH_ONLY=stream`.
 * BENCH_CPU_THROTTLE=<rate> slows the workbench's page (the chat's webview shares its thread) as a slow machine
 * would; BENCH_STREAM_TRACE=<file> writes a Chromium trace of that page over the stream (chrome://tracing, Perfetto),
 * BENCH_STREAM_PROFILE=<file> a CPU profile of its scripts (.cpuprofile), BENCH_STREAM_DUMP=<file> every chunk's time
 * at each hop.
 */
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { launchBrowser } from '../../test/support/browser';
import { recordProfile, recordTimeline } from '../../test/support/page-recording';
import type { Figure } from './figure';
import { throttleNote, throttlePage } from './harness';
import { startPacedServer } from './paced-server';
import { percentile } from './percentile';
import { cpuBetween, processTree } from './process-cpu';
import { acpLogMatch, chatFrame, pageScript, waitForLatencies, waitUntilChatCanSend } from './vscode-bench';

const RATE = 1_000;
const SECONDS = 8;
const LONG = 90_000;

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
  const { home, workspace, server } = await startPacedServer('acp-vscode-stream-', count, RATE);
  const userDataDir = path.join(home, 'user-data');
  const browser = await launchBrowser(home, { width: 1280, height: 860 });
  try {
    const paintProbe = await pageScript(home);
    const arrivalProbe = await pageScript(home, 'arrival-probe');
    const page = browser.pages()[0] ?? (await browser.newPage());
    await throttlePage(page);
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`, { timeout: LONG });
    await page.locator('.monaco-workbench').waitFor({ timeout: LONG });
    await page.locator('.activitybar [aria-label^="ACP"]').first().click({ timeout: LONG });
    const chat = await chatFrame(page);
    const prompt = chat.locator('textarea[aria-label="Prompt"]');
    await waitUntilChatCanSend(chat);
    // Through the debugger protocol, so the webview's CSP does not apply to the probes.
    await chat.evaluate(paintProbe);
    await chat.evaluate(arrivalProbe);
    const stopTrace = process.env['BENCH_STREAM_TRACE'] ? await recordTimeline(page) : undefined;
    const stopProfile = process.env['BENCH_STREAM_PROFILE'] ? await recordProfile(page, 200) : undefined;
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
    const p95 = percentile(latencies, 0.95);
    const max = Math.max(0, ...latencies);
    // The write time is in the stamp itself (the probe keeps it): the first hop starts there.
    const written = await chat.evaluate(() => ({ ...(Reflect.get(globalThis, '__acpWrites') as Record<string, number>) }));
    const posts = await chat.evaluate(() => ({ ...(Reflect.get(globalThis, '__acpPosts') as Record<string, number>) }));
    // BENCH_STREAM_DUMP=<file>: every chunk's stamps (epoch ms) at each hop, to see when the slow ones came.
    if (process.env['BENCH_STREAM_DUMP']) writeFileSync(process.env['BENCH_STREAM_DUMP'], JSON.stringify({ written, posts, ...stamps }));
    const toPost = hop(written, posts);
    const postToOuter = hop(posts, stamps.outer);
    const toOuter = hop(written, stamps.outer);
    const toInner = hop(stamps.outer, stamps.inner);
    const toPaint = hop(stamps.inner, stamps.painted);
    const about = `p50 ${Math.round(percentile(latencies, 0.5))} ms, max ${Math.round(max)} ms, ${latencies.length}/${count} chunks in ${messages} messages; host: ${flow?.[1] ?? 'no flow-control line in the log'}`;
    return [
      {
        name: `vscode stream: agent write to paint p95 at ${RATE} chunks/s (${about})${throttleNote()}`,
        value: Math.round(p95),
        unit: 'ms',
        target: '<= 50 ms',
        ok: p95 <= 50 && latencies.length === count,
      },
      { name: 'vscode stream: agent write to paint max', value: Math.round(max), unit: 'ms', target: '<= 150 ms', ok: max <= 150 },
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
    ];
  } finally {
    await browser.close().catch(() => undefined);
    server.stop();
  }
}
