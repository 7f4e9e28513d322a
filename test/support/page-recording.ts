/**
 * Chromium's own recordings of a page, for finding where its time goes: a timeline trace (layout, paint, scripts)
 * and a CPU profile of its scripts (webviews of the page's origin included: they share its thread). Each starts
 * at once and returns the function that stops it and writes it to a file (open it in Chrome's Performance panel).
 */
import { writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

export type StopRecording = (file: string) => Promise<void>;

export async function recordTimeline(page: Page): Promise<StopRecording> {
  const session = await page.context().newCDPSession(page);
  const events: unknown[] = [];
  session.on('Tracing.dataCollected', ({ value }) => events.push(...value));
  await session.send('Tracing.start', {
    // BENCH_TRACE_CATEGORIES adds to the timeline's own (e.g. what each style and layout pass was for).
    categories: ['devtools.timeline,disabled-by-default-devtools.timeline,blink,v8.execute,toplevel', process.env['BENCH_TRACE_CATEGORIES']]
      .filter((list) => list)
      .join(','),
    transferMode: 'ReportEvents',
  });
  return async (file) => {
    const complete = new Promise<void>((resolve) => session.once('Tracing.tracingComplete', () => resolve()));
    await session.send('Tracing.end');
    await complete;
    writeFileSync(file, JSON.stringify({ traceEvents: events }));
  };
}

/** `intervalUs`: the sampling interval (a finer one for a short bench, a coarser one for a whole test run). */
export async function recordProfile(page: Page, intervalUs: number): Promise<StopRecording> {
  const session = await page.context().newCDPSession(page);
  await session.send('Profiler.enable');
  await session.send('Profiler.setSamplingInterval', { interval: intervalUs });
  await session.send('Profiler.start');
  return async (file) => {
    const { profile } = await session.send('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
  };
}

/**
 * A sampling profile of what the page's scripts allocate (.heapprofile, Chrome's Memory panel), with the garbage
 * kept in: in code-server the chat's webview shares the workbench page's heap, so what the chat allocates per frame
 * brings the whole heap's collections sooner. `intervalBytes`: on average one sample per that many bytes.
 */
export async function recordAllocations(page: Page, intervalBytes: number): Promise<StopRecording> {
  const session = await page.context().newCDPSession(page);
  await session.send('HeapProfiler.enable');
  await session.send('HeapProfiler.startSampling', {
    samplingInterval: intervalBytes,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  return async (file) => {
    const { profile } = await session.send('HeapProfiler.stopSampling');
    writeFileSync(file, JSON.stringify(profile));
  };
}
