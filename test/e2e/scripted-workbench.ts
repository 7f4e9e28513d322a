/**
 * The real VS Code (code-server on a fresh e2e home, our .vsix installed) with the scripted echo agent as the only
 * one, and a browser on its workbench, loaded: where the e2e checks that need nothing else start.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { CodeServer } from '../support/code-server';
import { e2eHome, type E2eHome } from '../support/e2e-home';
import { scriptedAgentPath } from '../support/repo-root';
import { LONG } from './page-steps';

export interface ScriptedWorkbench extends E2eHome {
  readonly server: CodeServer;
  readonly browser: BrowserContext;
  readonly page: Page;
  /** Closes the browser and stops code-server (and with it the extension host and the agent). */
  close(): Promise<void>;
}

export async function openScriptedWorkbench(name: string): Promise<ScriptedWorkbench> {
  const home = e2eHome(name);
  const server = await CodeServer.start({
    home: home.home,
    userDataDir: home.userDataDir,
    extensionsDir: home.extensionsDir,
    folder: home.workspace,
    settings: {
      'acpClient.agents': { Scripted: { command: process.execPath, args: [scriptedAgentPath()], env: { ACP_SCENARIO: 'echo' } } },
      'acpClient.defaultAgent': 'Scripted',
    },
  });
  const browser = await launchBrowser(home.home, { width: 1280, height: 800 });
  const close = async (): Promise<void> => {
    await browser.close().catch(() => undefined);
    server.stop();
  };
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    await page.goto(`${server.url}/?folder=${encodeURIComponent(home.workspace)}`, { timeout: LONG * 2 });
    await page.locator('.monaco-workbench').waitFor({ timeout: LONG });
    return { ...home, server, browser, page, close };
  } catch (error) {
    await close();
    throw error;
  }
}
