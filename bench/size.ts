/** Issue 4, benchmark 5: what users download and what VS Code loads. */
import { statSync } from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../test/support/repo-root';
import type { Figure } from './webview/figure';

export function sizeFigures(): Figure[] {
  const root = repoRoot();
  const kb = (file: string): number => Math.round(statSync(path.join(root, file)).size / 102.4) / 10;
  return [
    { name: 'size: acp-client.vsix', value: kb('acp-client.vsix'), unit: 'KB', target: 'reported', ok: true },
    { name: 'size: dist/extension.js', value: kb('dist/extension.js'), unit: 'KB', target: 'reported', ok: true },
    {
      name: "size: dist/prompt-guard.js (in the page's HTML, run before its first frame)",
      value: kb('dist/prompt-guard.js'),
      unit: 'KB',
      target: 'reported',
      ok: true,
    },
    {
      name: 'size: dist/webview.js (before the prompt is typeable: none of it)',
      value: kb('dist/webview.js'),
      unit: 'KB',
      target: 'reported',
      ok: true,
    },
    {
      name: 'size: dist/webview-chat.js (loaded after the first paint)',
      value: kb('dist/webview-chat.js'),
      unit: 'KB',
      target: 'reported',
      ok: true,
    },
  ];
}
