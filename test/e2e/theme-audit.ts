/**
 * The chat in the built-in themes VS Code ships for people who need them, at a narrow and a wide sidebar: axe-core's
 * checks (colour contrast included) run inside the chat's own frame, the chat's chrome is checked for horizontal
 * overflow, and the sidebar is photographed. Themes are switched the way a person does, with "Preferences: Color
 * Theme" in the command palette (a `workbench.colorTheme` written to settings.json on disk did not reach the
 * webview in code-server), and each audit waits until the webview's body says it was painted with that theme.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { z } from 'zod';

export const AUDITED_THEMES = [
  { name: 'Dark Modern', kind: 'vscode-dark' },
  { name: 'Light Modern', kind: 'vscode-light' },
  { name: 'Dark High Contrast', kind: 'vscode-high-contrast' },
  { name: 'Light High Contrast', kind: 'vscode-high-contrast-light' },
] as const;
export const SIDEBAR_WIDTHS = [220, 600] as const;

const LONG = 60_000;
const FAILING_IMPACTS = new Set(['serious', 'critical']);

const axeViolation = z.object({
  id: z.string(),
  impact: z.string().nullish(),
  help: z.string(),
  nodes: z.array(z.object({ target: z.array(z.unknown()), failureSummary: z.string().optional() })),
});
type AxeViolation = z.infer<typeof axeViolation>;
const axeResult = z.object({ violations: z.array(axeViolation), passes: z.array(z.unknown()) });

export interface ThemeAudit {
  readonly theme: string;
  readonly width: number;
  /** Which part of the transcript was in view. */
  readonly view: string;
  /** Serious and critical violations: the ones the audit fails on. */
  readonly violations: readonly AxeViolation[];
  /** Moderate and minor ones, reported only. */
  readonly notes: readonly AxeViolation[];
  /** Parts of the chat wider than their box (they would scroll or be cut sideways). */
  readonly overflow: readonly string[];
  readonly rulesPassed: number;
  readonly screenshot: string;
}

export interface AuditDriver {
  readonly page: Page;
  readonly chat: Frame;
  /**
   * The parts of the transcript to judge, each brought into view by its `show` (again after every resize: the virtual
   * list re-lays out). Only what is near the viewport is in the DOM, so each is audited and photographed on its own.
   */
  readonly views: readonly { readonly name: string; readonly show: () => Promise<void> }[];
  readonly results: string;
}

/**
 * Clicks the quick pick row labelled exactly `label` (a fuzzy filter also lists, and may focus first, rows that only
 * contain it, such as "Browse Color Themes in Marketplace").
 */
async function pickRow(page: Page, label: string): Promise<void> {
  await page
    .locator('.quick-input-widget .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${label}\\s*$`) }) })
    .first()
    .click({ timeout: LONG });
}

/** Picks the theme in "Preferences: Color Theme" and waits for the chat's webview to be repainted with it. */
async function selectTheme(driver: AuditDriver, theme: (typeof AUDITED_THEMES)[number]): Promise<void> {
  const { page, chat } = driver;
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: LONG });
  await input.fill('>Preferences: Color Theme');
  await pickRow(page, 'Preferences: Color Theme');
  await input.fill(theme.name);
  await pickRow(page, theme.name);
  const deadline = Date.now() + LONG;
  let seen: unknown;
  while (Date.now() < deadline) {
    seen = await chat.evaluate('({ name: document.body.dataset.vscodeThemeName, kind: document.body.dataset.vscodeThemeKind })');
    const painted = z.object({ name: z.string().optional(), kind: z.string().optional() }).parse(seen);
    if (painted.name === theme.name && painted.kind === theme.kind) {
      // The body is tagged with the new variables in the same message; one frame to restyle.
      await page.waitForTimeout(300);
      return;
    }
    await page.waitForTimeout(200);
  }
  throw new Error(`the chat was not repainted in ${theme.name}: its body says ${JSON.stringify(seen)}`);
}

/** Drags the sash by the sidebar's right edge, as a person resizes it, until the sidebar is `width` px wide. */
async function resizeSidebar(page: Page, width: number): Promise<void> {
  const sidebar = page.locator('.part.sidebar').first();
  let box = await sidebar.boundingBox();
  for (let attempt = 0; attempt < 4 && box && Math.abs(box.width - width) > 2; attempt++) {
    const sidebarBox = box;
    // The parts are drawn as cards with gaps between them: the sash is the vertical one nearest the sidebar's edge.
    const sashes = await page.locator('.monaco-sash.vertical:not(.disabled)').evaluateAll((elements) =>
      elements.map((element) => {
        const rect = element.getBoundingClientRect();
        return { x: rect.x + rect.width / 2, top: rect.top, bottom: rect.bottom };
      }),
    );
    const edge = sidebarBox.x + sidebarBox.width;
    const middle = sidebarBox.y + sidebarBox.height / 2;
    const sash = sashes
      .filter((candidate) => candidate.top <= middle && candidate.bottom >= middle && Math.abs(candidate.x - edge) < 12)
      .sort((a, b) => Math.abs(a.x - edge) - Math.abs(b.x - edge))[0];
    if (!sash) throw new Error(`no sash by the sidebar's edge at ${edge} px`);
    await page.mouse.move(sash.x, middle);
    await page.mouse.down();
    await page.mouse.move(sash.x + width - sidebarBox.width, middle, { steps: 8 });
    await page.mouse.up();
    await page.waitForTimeout(300);
    box = await sidebar.boundingBox();
  }
  if (!box || Math.abs(box.width - width) > 2)
    throw new Error(`the sidebar could not be made ${width} px wide (it is ${box?.width ?? 'not shown'})`);
}

/**
 * Parts of the chat whose content is wider than their box. Source text: it runs in the page, whose DOM types this
 * Node-side file does not have. Scrollers meant to scroll sideways (code, diffs, terminal output) are left out.
 */
const OVERFLOWING = `(() => {
  const parts = ['html', 'body', '.chat', '.chat-header', '.header-row', '.banner', '.transcript', '.composer-chrome',
    '.pickers', '.composer', '.composer-box', '.card', '.permission', '.entry.plan'];
  const found = [];
  for (const selector of parts) {
    for (const element of document.querySelectorAll(selector)) {
      if (element.offsetParent === null && selector !== 'html' && selector !== 'body') continue;
      if (element.scrollWidth > element.clientWidth + 1) found.push(selector + ' (' + element.scrollWidth + ' > ' + element.clientWidth + ')');
    }
  }
  const row = document.querySelector('.header-row');
  if (row) {
    const edge = row.getBoundingClientRect().right + 0.5;
    for (const child of row.children) {
      const box = child.getBoundingClientRect();
      if (box.width > 0 && box.right > edge) found.push('.header-row > .' + child.className.split(' ')[0] + ' sticks out');
    }
  }
  return [...new Set(found)];
})()`;

async function runAxe(chat: Frame, axeSource: string): Promise<z.infer<typeof axeResult>> {
  // Evaluated through the debugging protocol, which the webview's content security policy does not govern.
  if (!(await chat.evaluate("typeof window.axe === 'object'"))) await chat.evaluate(axeSource);
  return axeResult.parse(await chat.evaluate("axe.run(document, { resultTypes: ['violations'] })"));
}

/**
 * Audits the chat in every theme, width and view, saving `chat-<theme>-<width>px-<view>.png` in `results`.
 * Leaves the first theme set again afterwards.
 */
export async function auditThemes(driver: AuditDriver): Promise<ThemeAudit[]> {
  const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  const audits: ThemeAudit[] = [];
  for (const theme of AUDITED_THEMES) {
    await selectTheme(driver, theme);
    for (const width of SIDEBAR_WIDTHS) {
      await resizeSidebar(driver.page, width);
      for (const view of driver.views) {
        await view.show();
        await driver.page.waitForTimeout(300);
        const screenshot = path.join(driver.results, `chat-${theme.name.toLowerCase().replace(/\s+/g, '-')}-${width}px-${view.name}.png`);
        await driver.page.locator('.part.sidebar').first().screenshot({ path: screenshot });
        const result = await runAxe(driver.chat, axeSource);
        const overflow = z.array(z.string()).parse(await driver.chat.evaluate(OVERFLOWING));
        audits.push({
          theme: theme.name,
          width,
          view: view.name,
          violations: result.violations.filter((violation) => FAILING_IMPACTS.has(violation.impact ?? '')),
          notes: result.violations.filter((violation) => !FAILING_IMPACTS.has(violation.impact ?? '')),
          overflow,
          rulesPassed: result.passes.length,
          screenshot,
        });
      }
    }
  }
  const first = AUDITED_THEMES[0];
  await selectTheme(driver, first);
  return audits;
}

export function describeAudit(audit: ThemeAudit): string {
  const head = `${audit.theme} at ${audit.width} px, ${audit.view}: ${audit.violations.length} serious/critical violations, ${audit.notes.length} moderate/minor, ${audit.rulesPassed} rules passed; ${path.basename(audit.screenshot)}`;
  const describe = (violation: AxeViolation): string =>
    `    ${violation.impact ?? ''} ${violation.id}: ${violation.help}\n${violation.nodes
      .slice(0, 6)
      .map((node) => `      ${JSON.stringify(node.target)} ${node.failureSummary?.replace(/\s+/g, ' ') ?? ''}`)
      .join('\n')}`;
  return [
    head,
    ...audit.violations.map(describe),
    ...audit.notes.map(describe),
    ...audit.overflow.map((part) => `    overflow: ${part}`),
  ].join('\n');
}
