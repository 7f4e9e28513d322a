/**
 * The real VS Code the streaming lines measure: code-server in a scratch home with the packaged .vsix installed and
 * the paced flood agent (`count` chunks at `rate` a second) as the chat's default agent (the baseline's too).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { CodeServer } from '../../test/support/code-server';
import { removeOnSuccess } from '../../test/support/remove-on-success';
import { repoRoot } from '../../test/support/repo-root';
import { packageBaselineExtension } from './baseline-extension';

export interface PacedServer {
  readonly home: string;
  readonly workspace: string;
  readonly server: CodeServer;
}

/** `withBaseline`: the baseline webview view is installed beside ours (bench/webview/baseline-extension.ts). */
export async function startPacedServer(prefix: string, count: number, rate: number, withBaseline = false): Promise<PacedServer> {
  const root = repoRoot();
  const home = mkdtempSync(path.join(tmpdir(), prefix));
  removeOnSuccess(prefix, home);
  const workspace = path.join(home, 'workspace');
  mkdirSync(workspace);
  writeFileSync(path.join(workspace, 'README.md'), '# bench\n');
  const userDataDir = path.join(home, 'user-data');
  const extensionsDir = path.join(home, 'extensions');
  CodeServer.installExtension(path.join(root, 'acp-client.vsix'), { home, userDataDir, extensionsDir });
  if (withBaseline) CodeServer.installExtension(packageBaselineExtension(home), { home, userDataDir, extensionsDir });
  const server = await CodeServer.start({
    home,
    userDataDir,
    extensionsDir,
    folder: workspace,
    settings: {
      'acpClient.agents': {
        Paced: {
          command: process.execPath,
          args: [path.join(root, 'out', 'bench', 'flood-agent.js')],
          env: { FLOOD_COUNT: String(count), FLOOD_RATE: String(rate) },
        },
      },
      'acpClient.defaultAgent': 'Paced',
    },
  });
  return { home, workspace, server };
}
