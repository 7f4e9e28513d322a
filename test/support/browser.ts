/** Debian's Chromium driven by playwright-core (no browser download), headless, isolated, quiet on the network. */
import { mkdtempSync } from 'node:fs';
import * as path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM_PATH = process.env['ACP_CHROMIUM'] ?? '/usr/bin/chromium';

export async function launchBrowser(home: string, viewport = { width: 1400, height: 900 }): Promise<BrowserContext> {
  const userDataDir = mkdtempSync(path.join(home, 'chromium-'));
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    viewport,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
