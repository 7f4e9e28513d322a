/** An installed devDependency's executable, found through its package.json `bin` (paths inside a package move). */
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { repoRoot } from './repo-root';

export function packageBin(packageName: string, binName?: string): string {
  const require = createRequire(path.join(repoRoot(), 'package.json'));
  let manifestPath: string;
  try {
    manifestPath = require.resolve(`${packageName}/package.json`);
  } catch {
    throw new Error(`${packageName} is not installed: run npm ci (it is a devDependency)`);
  }
  const manifest: unknown = require(manifestPath);
  const bin = typeof manifest === 'object' && manifest !== null && 'bin' in manifest ? manifest.bin : undefined;
  const entries: [string, unknown][] =
    typeof bin === 'string' ? [[packageName, bin]] : typeof bin === 'object' && bin !== null ? Object.entries(bin) : [];
  const relative = (binName === undefined ? entries[0] : entries.find(([name]) => name === binName))?.[1];
  if (typeof relative !== 'string') throw new Error(`${packageName}/package.json has no bin entry${binName ? ` ${binName}` : ''}`);
  return path.join(path.dirname(manifestPath), relative);
}
