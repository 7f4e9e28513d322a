/**
 * What the benches in the real VS Code (code-server, the installed .vsix, Chromium) share: finding the chat's frame,
 * injecting a probe into a page, reading the extension's log, and waiting for a stream's paints.
 */
import { build } from 'esbuild';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { repoRoot } from '../../test/support/repo-root';

const LONG = 90_000;

/** The frame with a prompt (our chat's, unless `title` names another page, the baseline's). */
export async function chatFrame(page: Page, title?: string): Promise<Frame> {
  const deadline = Date.now() + LONG;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      if (title !== undefined && (await frame.title().catch(() => '')) !== title) continue;
      if (
        await frame
          .locator('textarea[aria-label="Prompt"]')
          .count()
          .catch(() => 0)
      )
        return frame;
    }
    await page.waitForTimeout(100);
  }
  throw new Error('the chat webview did not load');
}

export function filesUnder(dir: string): string[] {
  let found: string[] = [];
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    found = statSync(file).isDirectory() ? found.concat(filesUnder(file)) : found.concat(file);
  }
  return found;
}

/** The first match of `pattern` in the "ACP" output channel, which VS Code writes to a file under the user data. */
export function acpLogMatch(userDataDir: string, pattern: RegExp): RegExpExecArray | undefined {
  for (const file of filesUnder(path.join(userDataDir, 'logs')).filter((name) => name.endsWith('ACP.log'))) {
    const match = pattern.exec(readFileSync(file, 'utf8'));
    if (match) return match;
  }
  return undefined;
}

/** One window's activation, from the line the extension logs (src/extension-main.ts). */
export interface ActivationTime {
  /** Loading and activating the rest of the extension (dist/extension-main.js). */
  readonly restMs: number;
  /** How long after the first bundle's activation the rest began to load (the chat's page was set meanwhile). */
  readonly afterFirstMs: number;
  /** What loaded it (older builds: empty). */
  readonly why: string;
}

/** Every extension host's activation line (one per window the extension activated in). */
export function activationTimes(userDataDir: string): ActivationTime[] {
  const times: ActivationTime[] = [];
  for (const file of filesUnder(path.join(userDataDir, 'logs')).filter((name) => name.endsWith('ACP.log')))
    for (const match of readFileSync(file, 'utf8').matchAll(/Activated in ([\d.]+) ms, ([\d.]+) ms after[^,\n]*(?:, for ([^\n]*))?/g))
      times.push({ restMs: Math.round(Number(match[1])), afterFirstMs: Math.round(Number(match[2])), why: match[3] ?? '' });
  return times;
}

/** A script of bench/webview/page bundled to inject into a page (`name` without .ts). */
export async function pageScript(dir: string, name = 'paint-probe'): Promise<string> {
  const outfile = path.join(dir, `${name}.js`);
  await build({
    entryPoints: [path.join(repoRoot(), 'bench', 'webview', 'page', `${name}.ts`)],
    outfile,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'warning',
  });
  return readFileSync(outfile, 'utf8');
}

/**
 * Until the chat can send: its Send button enabled. The prompt in the page's HTML is there (and enabled) before the
 * chat's script has loaded or the agent is ready, so the prompt alone says nothing.
 */
export async function waitUntilChatCanSend(chat: Frame): Promise<void> {
  const send = chat.getByRole('button', { name: 'Send', exact: true });
  const deadline = Date.now() + LONG;
  while (!(await send.isEnabled().catch(() => false)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
}

/** Until every chunk was seen painted, or nothing new was painted for 5 s. */
export async function waitForLatencies(chat: Frame, count: number): Promise<number[]> {
  const latencies = (): Promise<number[]> =>
    chat.evaluate(() => (Reflect.get(globalThis, '__acpPaintProbe') as { latencies: number[] }).latencies.slice());
  // Only the count while the stream runs: Playwright serializes a result value by value in the page's script, on the
  // thread the stream is drawn on, and the whole array every half second (up to 8,000 numbers) took that thread 155
  // ms over a stream with the cores slowed (BENCH_SLOW_CPU=0.4), more than our drawing of the text (150 ms).
  const seen = (): Promise<number> =>
    chat.evaluate(() => (Reflect.get(globalThis, '__acpPaintProbe') as { latencies: number[] }).latencies.length);
  let shown = 0;
  let lastProgress = Date.now();
  while (Date.now() - lastProgress < 5_000) {
    const now = await seen();
    if (now > shown) lastProgress = Date.now();
    shown = now;
    if (shown >= count) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return latencies();
}
