/**
 * When an open never reaches the frame it waits for, what the page showed instead: a screenshot (kept under
 * test-results/, the bench's home is removed afterwards), the activity bar's checked item, the side bar's title,
 * and every frame's title and probe record. "no typeable" alone said nothing of whether the view was hidden,
 * showed an older frame, or had its HTML and never painted.
 */
import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { repoRoot } from '../../test/support/repo-root';
import type { OpenProbeRecord } from './open-probe';

/** In the workbench: the checked activity-bar items and the side bar's title (empty when the side bar is hidden). */
const WORKBENCH_STATE = `(() => {
  const checked = [...document.querySelectorAll('.activitybar li.checked [aria-label]')].map((element) => element.getAttribute('aria-label'));
  const sidebar = document.querySelector('.part.sidebar');
  const shown = !!sidebar && sidebar.getBoundingClientRect().width > 0 && getComputedStyle(sidebar).display !== 'none';
  const title = sidebar?.querySelector('.title-label h2')?.textContent ?? '';
  const webviews = [...document.querySelectorAll('iframe.webview')].map((frame) => {
    const box = frame.getBoundingClientRect();
    const parent = frame.parentElement;
    const hidden = parent ? getComputedStyle(parent).visibility === 'hidden' || getComputedStyle(parent).display === 'none' : false;
    return (frame.classList.contains('ready') ? 'ready' : 'not ready') + ' ' + Math.round(box.width) + 'x' + Math.round(box.height) + (hidden ? ' hidden' : '');
  });
  return JSON.stringify({ checked, sidebar: shown ? title : '(hidden)', webviews });
})()`;

function summarize(record: OpenProbeRecord, since: number): string {
  const after = (time: number | undefined): string => (time === undefined ? '-' : `${Math.round(time - since)}`);
  return `made ${after(record.timeOrigin)} / script ${after(record.scriptEvaluated)} / prompt ${after(record.prompt)} / typeable ${after(record.typeable)} / entry ${after(record.entry)} ms after the click`;
}

/** One line for an error: what the page shows, and where its screenshot is. */
export async function describeOpenFailure(page: Page, label: string, since: number): Promise<string> {
  const dir = path.join(repoRoot(), 'test-results');
  mkdirSync(dir, { recursive: true });
  const shot = path.join(dir, `bench-open-${label.replace(/[^a-z0-9]+/gi, '-')}.png`);
  const saved = await page
    .screenshot({ path: shot, timeout: 10_000 })
    .then(() => shot)
    .catch((error: unknown) => `no screenshot (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
  const workbench = await page.evaluate(WORKBENCH_STATE).catch(() => '(workbench not readable)');
  const frames: string[] = [];
  for (const frame of page.frames()) {
    if (frame === page.mainFrame()) continue;
    const record = await Promise.race([
      frame.evaluate(() => (Reflect.get(globalThis, '__acpOpenProbe') as (() => OpenProbeRecord) | undefined)?.()).catch(() => undefined),
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 1_000)),
    ]);
    if (record) frames.push(`"${record.title}" ${summarize(record, since)}`);
    else if (!frame.url().startsWith('about:')) frames.push(`${frame.url().split('?')[0]} (no probe)`);
  }
  return `workbench ${workbench}; frames: ${frames.join(' | ') || 'none'}; ${saved}`;
}
