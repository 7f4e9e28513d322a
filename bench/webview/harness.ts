/** The chat page the webview benches load: the real bundle and stylesheet, VS Code's theme, and the probe. */
import { build } from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHAT_STYLESHEET, PROMPT_GUARD_SCRIPT } from '../../src/shared/webview-bundles';
import { chatHtml } from '../../src/views/chat-html';
import { CHROMIUM_PATH } from '../../test/support/browser';
import { repoRoot } from '../../test/support/repo-root';
import type { ProbeApi } from './probe-api';
import { THEME_CSS } from './theme';

/**
 * Writes the page into `dir`; returns its path. `previewHtml`: the conversation's preview in the page's HTML, as
 * after Reload Window (src/views/preview-html.ts); such a page is written as chat-preview.html.
 */
export async function writeHarness(dir: string, previewHtml?: string): Promise<string> {
  const root = repoRoot();
  const file = (relative: string): string => pathToFileURL(path.join(root, relative)).href;
  await build({
    entryPoints: [path.join(root, 'bench', 'webview', 'page', 'probe.ts')],
    outfile: path.join(dir, 'probe.js'),
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'warning',
  });
  writeFileSync(path.join(dir, 'theme.css'), THEME_CSS);
  const nonce = 'benchnonce';
  const scriptUri = file('dist/webview.js');
  let html = chatHtml({
    cspSource: 'file:',
    nonce,
    promptGuard: readFileSync(path.join(root, 'dist', PROMPT_GUARD_SCRIPT), 'utf8'),
    scriptUri,
    chatScriptUri: file('dist/webview-chat.js'),
    styleUri: file(`dist/${CHAT_STYLESHEET}`),
    codiconsUri: file('dist/codicons/codicon.css'),
    previewHtml,
  });
  // VS Code injects its theme variables into the webview; the probe must run before the bundle asks for the API.
  html = html.replace(
    '<link rel="stylesheet" id=',
    `<link rel="stylesheet" href="${pathToFileURL(path.join(dir, 'theme.css')).href}">\n    <link rel="stylesheet" id=`,
  );
  html = html.replace(
    `<script nonce="${nonce}" src="${scriptUri}">`,
    `<script nonce="${nonce}" src="${pathToFileURL(path.join(dir, 'probe.js')).href}"></script>\n    <script nonce="${nonce}" src="${scriptUri}">`,
  );
  const harness = path.join(dir, previewHtml === undefined ? 'chat.html' : 'chat-preview.html');
  writeFileSync(harness, html);
  return harness;
}

/** The headless Chromium the harness page runs in (file:// pages that load their scripts and styles beside them). */
export function launchHarnessBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--allow-file-access-from-files'],
  });
}

/**
 * BENCH_CPU_THROTTLE=<rate> (e.g. 2.5) slows the page's CPU by that factor (Chromium's own emulation, the
 * DevTools "CPU throttling" setting), to see on a fast machine what the slow kind of machine sees. Undefined
 * when unset; the benches print the rate in their lines when set.
 */
export function cpuThrottle(): number | undefined {
  const rate = Number(process.env['BENCH_CPU_THROTTLE'] ?? '');
  return Number.isFinite(rate) && rate > 1 ? rate : undefined;
}

/** The line suffix that says the page ran throttled ('' when not). */
export function throttleNote(): string {
  const rate = cpuThrottle();
  return rate === undefined ? '' : ` [CPU throttled ${rate}x]`;
}

/** Applies BENCH_CPU_THROTTLE to `page` (it holds across its navigations). */
export async function throttlePage(page: Page): Promise<void> {
  const rate = cpuThrottle();
  if (rate === undefined) return;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
}

/** Opens the harness in `page`, waits for the chat and the probe, and tells the chat its agent (as the host would). */
export async function loadHarness(page: Page, harness: string): Promise<void> {
  await throttlePage(page);
  await page.goto(pathToFileURL(harness).href);
  await page.waitForFunction(() => Reflect.has(globalThis, '__acpChat') && Reflect.has(globalThis, '__acpBench'));
  await page.evaluate(() =>
    (Reflect.get(globalThis, '__acpBench') as ProbeApi).post({
      type: 'host_info',
      info: { agentNames: ['Bench Agent'], selectedAgent: 'Bench Agent', workspaceTrusted: true },
    }),
  );
}
