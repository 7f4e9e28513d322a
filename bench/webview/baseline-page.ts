/**
 * The reload line's baseline: a page that is a textarea and nothing else, loaded in the same browser as the chat's
 * harness. What it takes to be painted is the browser's part of showing any view after a reload (a new renderer,
 * the page read and laid out), which the chat cannot make shorter; the chat's line is set against it.
 */
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';

/** Set by the page, in epoch ms, in the task after its first frame's paint (as the chat's probe times a paint). */
const PAINTED = '__baselinePainted';

const HTML = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>Baseline</title>
  </head>
  <body>
    <textarea aria-label="Prompt" rows="3"></textarea>
    <script>
      requestAnimationFrame(() => setTimeout(() => { window.${PAINTED} = performance.timeOrigin + performance.now(); }, 0));
    </script>
  </body>
</html>
`;

/** Writes the baseline page into `dir`; returns its path. */
export function writeBaselinePage(dir: string): string {
  const file = path.join(dir, 'baseline.html');
  writeFileSync(file, HTML);
  return file;
}

/** Loads the baseline page in `page`; the epoch ms at which its textarea was painted. */
export async function baselinePaintedAt(page: Page, file: string): Promise<number> {
  await page.goto(pathToFileURL(file).href);
  const handle = await page.waitForFunction((name) => Reflect.get(globalThis, name) as number | undefined, PAINTED, { polling: 5 });
  return Number(await handle.jsonValue());
}
