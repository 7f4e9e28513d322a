/**
 * The chat in every built-in theme VS Code ships for people who need it: axe-core's checks (colour contrast
 * included) run inside the chat's own frame, and the sidebar is photographed at a narrow and a wide width. Themes
 * are switched the way a person does, through the `workbench.colorTheme` user setting.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { z } from 'zod';

export const AUDITED_THEMES = ['Dark Modern', 'Light Modern', 'Dark High Contrast', 'Light High Contrast'] as const;
export const SIDEBAR_WIDTHS = [220, 600] as const;

/** What axe reports for one rule that failed (the subset this audit prints). */
interface AxeViolation {
  readonly id: string;
  readonly impact?: string | null;
  readonly help: string;
  readonly nodes: readonly { readonly target: readonly unknown[]; readonly failureSummary?: string }[];
}

export interface ThemeAudit {
  readonly theme: string;
  /** Serious and critical violations only: the ones the audit fails on. */
  readonly violations: readonly AxeViolation[];
  readonly rulesPassed: number;
  readonly screenshots: readonly string[];
}

const LONG = 60_000;

function setUserSetting(settingsFile: string, key: string, value: unknown): void {
  const settings: Record<string, unknown> = JSON.parse(readFileSync(settingsFile, 'utf8'));
  settings[key] = value;
  writeFileSync(settingsFile, JSON.stringify(settings, null, 2));
}

/** VS Code tags the webview's body with the theme it painted with; the audit waits for it before judging colours. */
async function waitForTheme(chat: Frame, theme: string): Promise<void> {
  const deadline = Date.now() + LONG;
  while (Date.now() < deadline) {
    const tagged = z
      .object({ name: z.string().optional(), id: z.string().optional() })
      .parse(await chat.evaluate('({ name: document.body.dataset.vscodeThemeName, id: document.body.dataset.vscodeThemeId })'));
    if (tagged.name === theme || tagged.id?.endsWith(theme)) return;
    await chat.page().waitForTimeout(250);
  }
  throw new Error(`the chat did not switch to ${theme}`);
}

/** Drags the sash on the sidebar's right edge, as a person resizes it, until the sidebar is `width` px wide. */
async function resizeSidebar(page: Page, width: number): Promise<void> {
  const sidebar = page.locator('.part.sidebar').first();
  for (let attempt = 0; attempt < 3; attempt++) {
    const box = await sidebar.boundingBox();
    if (!box) throw new Error('the sidebar is not shown');
    if (Math.abs(box.width - width) <= 2) return;
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width - 1, y);
    await page.mouse.down();
    await page.mouse.move(box.x + width - 1, y, { steps: 8 });
    await page.mouse.up();
    await page.waitForTimeout(300);
  }
}

const axeResult = z.object({
  violations: z.array(
    z.object({
      id: z.string(),
      impact: z.string().nullish(),
      help: z.string(),
      nodes: z.array(z.object({ target: z.array(z.unknown()), failureSummary: z.string().optional() })),
    }),
  ),
  passes: z.array(z.unknown()),
});

async function runAxe(chat: Frame, axeSource: string): Promise<{ violations: AxeViolation[]; passes: number }> {
  // Evaluated through the debugging protocol, which the webview's content security policy does not govern. Source
  // text: it runs in the page, whose DOM types this Node-side file does not have.
  await chat.evaluate(axeSource);
  const result = axeResult.parse(await chat.evaluate("axe.run(document, { resultTypes: ['violations'] })"));
  return { violations: result.violations, passes: result.passes.length };
}

/**
 * Audits the chat as it is on screen in each theme, saving `chat-<theme>-<width>px.png` under `results`. Leaves the
 * first theme and the widest width set again afterwards.
 */
export async function auditThemes(page: Page, chat: Frame, settingsFile: string, results: string): Promise<ThemeAudit[]> {
  const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  const audits: ThemeAudit[] = [];
  for (const theme of AUDITED_THEMES) {
    setUserSetting(settingsFile, 'workbench.colorTheme', theme);
    await waitForTheme(chat, theme);
    const screenshots: string[] = [];
    let violations: AxeViolation[] = [];
    let rulesPassed = 0;
    for (const width of SIDEBAR_WIDTHS) {
      await resizeSidebar(page, width);
      await page.waitForTimeout(400);
      const file = path.join(results, `chat-${theme.toLowerCase().replace(/\s+/g, '-')}-${width}px.png`);
      await page.locator('.part.sidebar').first().screenshot({ path: file });
      screenshots.push(file);
      const result = await runAxe(chat, axeSource);
      rulesPassed = Math.max(rulesPassed, result.passes);
      const serious = result.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
      violations = [...violations, ...serious.filter((violation) => !violations.some((seen) => seen.id === violation.id))];
    }
    audits.push({ theme, violations, rulesPassed, screenshots });
  }
  return audits;
}

export function describeAudit(audit: ThemeAudit): string {
  const head = `${audit.theme}: ${audit.violations.length} serious/critical violations, ${audit.rulesPassed} rules passed`;
  const details = audit.violations.map(
    (violation) =>
      `    ${violation.impact ?? ''} ${violation.id}: ${violation.help}\n${violation.nodes
        .slice(0, 5)
        .map((node) => `      ${JSON.stringify(node.target)} ${node.failureSummary?.replace(/\s+/g, ' ') ?? ''}`)
        .join('\n')}`,
  );
  return [head, ...details].join('\n');
}
