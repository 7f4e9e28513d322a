/**
 * Where a small program bundled beside the extension is (the supervisor, the editor tools' stdio bridge): beside
 * the extension's bundle in the .vsix (dist/), or, for code bundled elsewhere (tests under out/), in the dist/
 * folder of the nearest folder above that has one.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';

export const SUPERVISOR_BUNDLE = 'agent-supervisor.js';

export function supervisorScript(from: string = __dirname): string {
  return bundledScript(SUPERVISOR_BUNDLE, from);
}

export function bundledScript(bundle: string, from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    for (const candidate of [path.join(dir, bundle), path.join(dir, 'dist', bundle)]) if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`${bundle} is missing from the extension`);
  }
}
