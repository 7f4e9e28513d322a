/** The repository root, found from wherever a bundled test file runs (out/test/..., or inside VS Code). */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

export function repoRoot(start = __dirname): string {
  let dir = start;
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'acp-client') return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no acp-client package.json above ${start}`);
    dir = parent;
  }
}

export function scriptedAgentPath(): string {
  return path.join(repoRoot(), 'out', 'test', 'fixtures', 'agents', 'scripted-agent.mjs');
}
