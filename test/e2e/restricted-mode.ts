/**
 * Attack rows in Restricted Mode, in the real VS Code (code-server started with workspace trust on, the folder not
 * trusted), driven through Chromium with the packaged extension: ACP: Add Agent… and ACP: Manage Agents… install,
 * update and start nothing (the registry is never even fetched), and say why with the way out; the chat starts no
 * agent. The workspace's own settings also name a registry URL and an agent; neither is used.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { CodeServer } from '../support/code-server';
import { binaryAgentEntry, RegistryFixture, sha256 } from '../support/registry-fixture';
import { repoRoot } from '../support/repo-root';
import type { AttackCase } from '../support/attack-case';
import { LONG, runFromPalette } from './page-steps';
import { removeOnSuccess } from '../support/remove-on-success';

const root = repoRoot();
const results = path.join(root, 'test-results');

const ROWS = {
  addAgent: {
    attack: 'Add Agent in Restricted Mode from a registry the workspace names',
    driven: 'real VS Code (workspace trust on, folder untrusted) via Chromium: F1 > ACP: Add Agent…',
    sees: 'a warning "Agents are not installed, updated or started in Restricted Mode" with Manage Workspace Trust; no registry request, nothing installed',
  },
  manage: {
    attack: 'Manage Agents (update, pin) in Restricted Mode',
    driven: 'real VS Code (untrusted folder) via Chromium: F1 > ACP: Manage Agents…',
    sees: 'the same warning; nothing changes',
  },
  start: {
    attack: "a workspace's agent definition starts when the chat opens in Restricted Mode",
    driven: 'real VS Code (untrusted folder) via Chromium: the chat view opened; the workspace names an agent that writes a marker',
    sees: 'the chat says agents do not run in an untrusted workspace; the marker never appears',
  },
} satisfies Record<string, AttackCase>;

async function restrictedWarning(page: Page): Promise<string> {
  const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'Restricted Mode' }).first();
  await toast.waitFor({ timeout: LONG });
  return toast.innerText();
}

async function dismissToasts(page: Page): Promise<void> {
  for (const close of await page.locator('.notifications-toasts .codicon-notifications-clear, .notification-toast .codicon-close').all())
    await close.click().catch(() => undefined);
}

async function main(): Promise<void> {
  const vsix = path.join(root, 'acp-client.vsix');
  if (!existsSync(vsix)) throw new Error('acp-client.vsix is missing: run `npm run package` first');
  mkdirSync(results, { recursive: true });
  const home = mkdtempSync(path.join(tmpdir(), 'acp-e2e-restricted-'));
  removeOnSuccess('e2e restricted-mode', home);
  const workspace = path.join(home, 'workspace');
  const marker = path.join(home, 'workspace-agent-ran');
  mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
  const userDataDir = path.join(home, 'user-data');
  const extensionsDir = path.join(home, 'extensions');
  CodeServer.installExtension(vsix, { home, userDataDir, extensionsDir });
  const fixture = await new RegistryFixture().start();
  const archive = await fixture.tarGz();
  fixture.index = {
    version: '1.0.0',
    agents: [
      {
        ...binaryAgentEntry('echo-agent', '1.0.0', fixture.serve('echo.tar.gz', archive), { sha256: sha256(archive) }),
        name: 'Echo Agent',
      },
    ],
  };
  // What a cloned repository brings: its own registry and its own agent, made the default.
  writeFileSync(
    path.join(workspace, '.vscode', 'settings.json'),
    JSON.stringify({
      'acpClient.registry.url': fixture.url('registry.json'),
      'acpClient.agents': {
        Repo: { command: process.execPath, args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran')`] },
      },
      'acpClient.defaultAgent': 'Repo',
    }),
  );
  const server = await CodeServer.start({
    home,
    userDataDir,
    extensionsDir,
    folder: workspace,
    workspaceTrust: true,
    // Untrusted without the start-up question: the folder opens in Restricted Mode as after "No, I don't trust".
    settings: { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never' },
  });
  const browser = await launchBrowser(home, { width: 1280, height: 800 });
  const checks: string[] = [];
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    // The first load on a busy machine can take minutes.
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`, { timeout: 180_000 });
    await page.locator('.monaco-workbench').waitFor({ timeout: LONG });

    await page.locator('.activitybar [aria-label^="ACP"]').first().click({ timeout: LONG });
    const frame = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
    await frame.getByText('Agents do not run in an untrusted workspace').first().waitFor({ timeout: LONG });
    await page.waitForTimeout(2000);
    assert.equal(existsSync(marker), false, 'the workspace agent never ran');
    checks.push(`attack: ${ROWS.start.attack}`);

    await runFromPalette(page, 'ACP: Add Agent');
    const added = await restrictedWarning(page);
    assert.match(added, /Agents are not installed, updated or started in Restricted Mode\. Trust this workspace to add or update agents/);
    assert.match(added, /Nothing was changed/);
    assert.match(added, /Manage Workspace Trust/);
    await page.screenshot({ path: path.join(results, 'e2e-restricted-add-agent.png') });
    await page.waitForTimeout(1500);
    assert.equal(await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Echo Agent' }).count(), 0, 'no picker');
    assert.deepEqual(fixture.requests, [], 'the registry was never fetched');
    checks.push(`attack: ${ROWS.addAgent.attack}`);

    await dismissToasts(page);
    await runFromPalette(page, 'ACP: Manage Agents');
    assert.match(await restrictedWarning(page), /Restricted Mode/);
    assert.deepEqual(fixture.requests, []);
    const storage = path.join(userDataDir, 'User', 'globalStorage');
    const installed = existsSync(storage)
      ? readdirSync(storage, { recursive: true })
          .map(String)
          .filter((name) => name.includes('echo-agent'))
      : [];
    assert.deepEqual(installed, [], 'nothing installed');
    checks.push(`attack: ${ROWS.manage.attack}`);
    for (const name of checks) console.log(`  ✔ ${name}`);
    console.log(`${checks.length} passed, 0 failed`);
  } catch (error) {
    await browser
      .pages()[0]
      ?.screenshot({ path: path.join(results, 'e2e-restricted-failure.png') })
      .catch(() => undefined);
    throw error;
  } finally {
    await browser.close().catch(() => undefined);
    server.stop();
    await fixture.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
