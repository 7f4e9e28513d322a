/**
 * A fresh home for one end-to-end suite: the packaged `.vsix` installed into code-server folders of its own, and a
 * copy of the fixture workspace to open, so no suite sees another's settings, storage or files.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { CodeServer } from './code-server';
import { removeOnSuccess } from './remove-on-success';
import { repoRoot } from './repo-root';

export interface E2eHome {
  readonly home: string;
  readonly workspace: string;
  readonly userDataDir: string;
  readonly extensionsDir: string;
}

/** Where every e2e suite saves its screenshots. */
export const E2E_RESULTS = path.join(repoRoot(), 'test-results');

/** ACP_VSIX runs a suite against another build (e.g. one from before a fix, to see its rows fail). */
export function e2eHome(name: string, vsix = process.env['ACP_VSIX'] ?? path.join(repoRoot(), 'acp-client.vsix')): E2eHome {
  if (!existsSync(vsix)) throw new Error(`${vsix} is missing: run \`npm run package\` first`);
  mkdirSync(E2E_RESULTS, { recursive: true });
  const home = mkdtempSync(path.join(tmpdir(), `acp-e2e-${name}-`));
  const workspace = path.join(home, 'workspace');
  cpSync(path.join(repoRoot(), 'test', 'fixtures', 'workspace'), workspace, { recursive: true });
  const userDataDir = path.join(home, 'user-data');
  const extensionsDir = path.join(home, 'extensions');
  CodeServer.installExtension(vsix, { home, userDataDir, extensionsDir });
  removeOnSuccess(`e2e ${name}`, home);
  return { home, workspace, userDataDir, extensionsDir };
}
