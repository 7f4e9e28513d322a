/**
 * code-server (the real VS Code server and web workbench, see ../shared/REAL-VSCODE.md) started for a test: its
 * own process group, its own config/data/temp dirs, a free loopback port. `stop()` kills the whole group.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import * as path from 'node:path';
import { repoRoot } from './repo-root';

export interface CodeServerPaths {
  readonly node24: string;
  readonly entry: string;
}

export function codeServerPaths(): CodeServerPaths {
  const base = path.join(repoRoot(), '.vscode-test');
  return {
    node24: path.join(base, 'node24', 'bin', 'node'),
    entry: path.join(base, 'code-server', 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
  };
}

/** User settings that keep start-up quiet and deterministic. */
export const QUIET_SETTINGS = {
  'workbench.startupEditor': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'telemetry.telemetryLevel': 'off',
  'chat.disableAIFeatures': true,
  'workbench.tips.enabled': false,
  'security.workspace.trust.enabled': false,
  'update.mode': 'none',
};

export interface CodeServerOptions {
  readonly home: string;
  readonly userDataDir: string;
  readonly extensionsDir: string;
  readonly folder?: string;
  readonly settings?: Record<string, unknown>;
  readonly smokeTestDriver?: boolean;
  /** Workspace trust on (VS Code's default): the folder opens in Restricted Mode until trusted. Off without it. */
  readonly workspaceTrust?: boolean;
  readonly log?: (line: string) => void;
}

export class CodeServer {
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
  ) {}

  /** code-server's main process (the leader of its group), for tests that signal it alone. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  static async start(options: CodeServerOptions): Promise<CodeServer> {
    const { node24, entry } = codeServerPaths();
    const port = await freePort();
    writeUserSettings(options.userDataDir, { ...QUIET_SETTINGS, ...options.settings });
    const args = [
      entry,
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--auth',
      'none',
      '--disable-telemetry',
      '--disable-update-check',
      ...(options.workspaceTrust ? [] : ['--disable-workspace-trust']),
      '--disable-getting-started-override',
      '--reconnection-grace-time',
      '5',
      '--user-data-dir',
      options.userDataDir,
      '--extensions-dir',
      options.extensionsDir,
      ...(options.smokeTestDriver ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
      ...(options.folder ? [options.folder] : []),
    ];
    const child = spawn(node24, args, { env: isolatedEnv(options.home), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const log = options.log ?? (() => undefined);
    child.stdout?.setEncoding('utf8').on('data', (text: string) =>
      text
        .split('\n')
        .filter(Boolean)
        .forEach((line) => log(`[code-server] ${line}`)),
    );
    child.stderr?.setEncoding('utf8').on('data', (text: string) =>
      text
        .split('\n')
        .filter(Boolean)
        .forEach((line) => log(`[code-server] ${line}`)),
    );
    const server = new CodeServer(child, port);
    await server.waitHealthy(60_000);
    return server;
  }

  /** Installs a packaged extension offline into the given extensions dir. */
  static installExtension(vsix: string, options: Pick<CodeServerOptions, 'home' | 'userDataDir' | 'extensionsDir'>): void {
    const { node24, entry } = codeServerPaths();
    const result = spawnSync(
      node24,
      [entry, '--user-data-dir', options.userDataDir, '--extensions-dir', options.extensionsDir, '--install-extension', vsix],
      {
        env: isolatedEnv(options.home),
        encoding: 'utf8',
        timeout: 120_000,
      },
    );
    if (result.status !== 0) throw new Error(`installing ${vsix} failed (${result.status}): ${result.stderr || result.stdout}`);
  }

  stop(): void {
    if (this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }

  private async waitHealthy(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null) throw new Error(`code-server exited with ${this.child.exitCode}`);
      try {
        const response = await fetch(`${this.url}/healthz`);
        if (response.ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    this.stop();
    throw new Error('code-server did not become healthy in time');
  }
}

/** Keeps code-server and the browser out of the real home: everything under `home`. */
export function isolatedEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // An exported PORT would override --bind-addr's port.
  delete env['PORT'];
  for (const [name, dir] of [
    ['XDG_CONFIG_HOME', 'config'],
    ['XDG_DATA_HOME', 'data'],
    ['XDG_CACHE_HOME', 'cache'],
    ['TMPDIR', 'tmp'],
  ] as const) {
    env[name] = path.join(home, dir);
    mkdirSync(env[name], { recursive: true });
  }
  return env;
}

export function writeUserSettings(userDataDir: string, settings: Record<string, unknown>): void {
  const dir = path.join(userDataDir, 'User');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'settings.json'), JSON.stringify(settings, null, 2));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
