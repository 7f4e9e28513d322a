/**
 * Where the supervisor's bundle is: beside the extension's bundle in the .vsix (dist/), or, for code bundled
 * elsewhere (tests under out/), in the dist/ folder of the nearest folder above that has one.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';

export const SUPERVISOR_BUNDLE = 'agent-supervisor.js';

export function supervisorScript(from: string = __dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    for (const candidate of [path.join(dir, SUPERVISOR_BUNDLE), path.join(dir, 'dist', SUPERVISOR_BUNDLE)])
      if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`the agent supervisor (${SUPERVISOR_BUNDLE}) is missing from the extension`);
  }
}
