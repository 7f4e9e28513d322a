/**
 * Stands in for the VS Code executable that @vscode/test-electron launches, where VS Code cannot be downloaded:
 * takes the same arguments, starts code-server with the smoke-test driver, opens the workbench in headless
 * Chromium with the extension-development payload, relays the extension host's console, and exits with the code
 * the test run reports through `codeAutomationExit`. Always bounded in time; always cleans up.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { format } from 'node:util';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from './browser';
import { CodeServer } from './code-server';
import { recordProfile, recordTimeline } from './page-recording';
import { removeOnSuccess } from './remove-on-success';
import { keysOf } from './workbench-keys';

interface LaunchArgs {
  extensionDevelopmentPath: string;
  extensionTestsPath: string;
  userDataDir?: string;
  extensionsDir?: string;
  folder?: string;
}

function parseArgs(argv: readonly string[]): LaunchArgs {
  const value = (name: string): string | undefined => argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const extensionDevelopmentPath = value('extensionDevelopmentPath');
  const extensionTestsPath = value('extensionTestsPath');
  if (!extensionDevelopmentPath || !extensionTestsPath)
    throw new Error('--extensionDevelopmentPath= and --extensionTestsPath= are required');
  const folder = argv.find((arg) => !arg.startsWith('-'));
  const userDataDir = value('user-data-dir');
  const extensionsDir = value('extensions-dir');
  return {
    extensionDevelopmentPath,
    extensionTestsPath,
    ...(userDataDir ? { userDataDir } : {}),
    ...(extensionsDir ? { extensionsDir } : {}),
    ...(folder ? { folder: path.resolve(folder) } : {}),
  };
}

/**
 * With ACP_WORKBENCH_CPU_THROTTLE=<rate>, the workbench's page runs `rate` times slower (CDP CPU throttling; the
 * chat's webview shares its thread in code-server): a slow machine's figures on a fast one, for that thread alone.
 */
async function throttleWorkbench(browser: BrowserContext, page: Page, rate: number): Promise<void> {
  const session = await browser.newCDPSession(page);
  await session.send('Emulation.setCPUThrottlingRate', { rate });
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  const timeoutMs = Number(process.env['ACP_TEST_TIMEOUT_MS'] ?? 10 * 60_000);
  const home = mkdtempSync(path.join(tmpdir(), 'acp-vscode-'));
  // Its browser profile alone is ~250 MB.
  removeOnSuccess('code-server launcher', home);
  const userDataDir = args.userDataDir ?? path.join(home, 'user-data');
  const extensionsDir = args.extensionsDir ?? path.join(home, 'extensions');
  mkdirSync(userDataDir, { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  const verbose = process.env['ACP_TEST_VERBOSE'] === '1';
  const server = await CodeServer.start({
    home,
    userDataDir,
    extensionsDir,
    smokeTestDriver: true,
    log: verbose ? (line) => console.log(line) : undefined,
  });
  let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
  try {
    browser = await launchBrowser(home);
    const page = browser.pages()[0] ?? (await browser.newPage());
    const stopProfile = process.env['ACP_WORKBENCH_PROFILE'] ? await recordProfile(page, 500) : undefined;
    const stopTrace = process.env['ACP_WORKBENCH_TRACE'] ? await recordTimeline(page) : undefined;
    const throttle = Number(process.env['ACP_WORKBENCH_CPU_THROTTLE'] ?? 1);
    if (throttle > 1) await throttleWorkbench(browser, page, throttle);
    const exitCode = new Promise<number>((resolve) => {
      void page.exposeFunction('codeAutomationExit', (code: number) => resolve(code));
    });
    // Keys a test asks to be typed (workbench-keys.ts), one request after the other.
    let typing = Promise.resolve();
    await page.exposeFunction('codeAutomationLog', (type: string, args: unknown[]) => {
      // The host's console arrives as console.log's arguments: a format string first.
      const text = format(...args);
      const keys = keysOf(text);
      if (keys) {
        typing = typing
          .then(async () => {
            for (const step of keys)
              await ('press' in step ? page.keyboard.press(step.press) : page.keyboard.type(step.type, { delay: 10 }));
          })
          .catch((error: unknown) => console.error(`could not type ${text}: ${String(error)}`));
        return;
      }
      // The offline workbench keeps failing to reach the extension gallery: noise, not test output.
      if (!verbose && /ENOTFOUND|getaddrinfo|Gallery|^\s+at /.test(text)) return;
      if (type === 'error') console.error(text);
      else console.log(text);
    });
    if (verbose) page.on('console', (message) => console.log(`[workbench ${message.type()}] ${message.text()}`));
    const remote = (p: string): string => `vscode-remote://127.0.0.1:${server.port}${p}`;
    const payload = JSON.stringify([
      ['extensionDevelopmentPath', remote(path.resolve(args.extensionDevelopmentPath))],
      ['extensionTestsPath', remote(path.resolve(args.extensionTestsPath))],
    ]);
    const query = new URLSearchParams({ ...(args.folder ? { folder: args.folder } : {}), payload });
    // Playwright's default 30 s for the first page load is too short on a busy 2-core machine (seen under load).
    await page.goto(`${server.url}/?${query.toString()}`, { timeout: 180_000 });
    const timeout = new Promise<number>((resolve) =>
      setTimeout(() => {
        console.error(`The test run did not finish within ${timeoutMs / 1000} s`);
        resolve(124);
      }, timeoutMs).unref(),
    );
    const code = await Promise.race([exitCode, timeout]);
    await stopProfile?.(process.env['ACP_WORKBENCH_PROFILE'] ?? '');
    await stopTrace?.(process.env['ACP_WORKBENCH_TRACE'] ?? '');
    return code;
  } finally {
    await browser?.close().catch(() => undefined);
    server.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
