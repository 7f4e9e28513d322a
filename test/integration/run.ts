/**
 * Runs the integration suites inside a real VS Code extension host with @vscode/test-electron. Where VS Code can
 * be downloaded (ACP_TEST_VSCODE=desktop) test-electron fetches desktop VS Code; here it runs code-server's real
 * extension host through test/support/code-server-executable (see ../shared/REAL-VSCODE.md).
 */
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { removeOnSuccess } from '../support/remove-on-success';
import { repoRoot } from '../support/repo-root';

async function main(): Promise<void> {
  const root = repoRoot();
  const scratch = mkdtempSync(path.join(tmpdir(), 'acp-integration-'));
  removeOnSuccess('integration', scratch);
  const workspace = path.join(scratch, 'workspace');
  cpSync(path.join(root, 'test', 'fixtures', 'workspace'), workspace, { recursive: true });
  const desktop = process.env['ACP_TEST_VSCODE'] === 'desktop';
  await runTests({
    ...(desktop ? {} : { vscodeExecutablePath: path.join(root, 'test', 'support', 'code-server-executable') }),
    extensionDevelopmentPath: root,
    extensionTestsPath: path.join(root, 'out', 'test', 'integration', 'index.js'),
    launchArgs: [workspace, `--user-data-dir=${path.join(scratch, 'user-data')}`, `--extensions-dir=${path.join(scratch, 'extensions')}`],
    extensionTestsEnv: { ACP_TEST_WORKSPACE: workspace },
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
