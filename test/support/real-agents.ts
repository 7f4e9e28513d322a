/**
 * How the tests run OpenCode, Qwen Code, Gemini CLI and GitHub Copilot CLI offline: each agent's executable from node_modules, an
 * environment pointing it at a local mock model API, and a throwaway HOME / XDG tree with settings that keep it
 * quiet (no telemetry, no auto-update, no background memory agent) and in its "ask before edits" mode.
 * Node agents run on the extension host's own Node, as the extension would run them.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { packageBin } from './package-bin';
import { repoRoot } from './repo-root';

export interface AgentLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
  /** The throwaway HOME: remove it after the suite. */
  home: string;
}

/** A fresh HOME with XDG folders inside it, so nothing is read from or left in the user's own. */
function throwawayHome(prefix: string): { home: string; env: Record<string, string> } {
  const home = mkdtempSync(path.join(tmpdir(), `acp-${prefix}-home-`));
  const folders = {
    XDG_CONFIG_HOME: '.config',
    XDG_DATA_HOME: '.local/share',
    XDG_CACHE_HOME: '.cache',
    XDG_STATE_HOME: '.local/state',
    TMPDIR: 'tmp',
  };
  const env: Record<string, string> = { HOME: home };
  for (const [name, relative] of Object.entries(folders)) {
    env[name] = path.join(home, relative);
    mkdirSync(env[name], { recursive: true });
  }
  return { home, env };
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value, null, 2));
}

/** OpenCode's native binary (`opencode acp`) with an OpenAI-compatible provider at `<mockUrl>/v1`. */
export function openCodeLaunch(mockUrl: string): AgentLaunch {
  const { home, env } = throwawayHome('opencode');
  const config = {
    provider: {
      mock: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Mock',
        options: { baseURL: `${mockUrl}/v1`, apiKey: 'test' },
        // Two models, so the model picker has a choice whose effect shows in the request's `model`.
        models: { 'mock-model': { name: 'Mock model' }, 'mock-model-2': { name: 'Mock second model' } },
      },
    },
    model: 'mock/mock-model',
    small_model: 'mock/mock-model',
    autoupdate: false,
    share: 'disabled',
    // OpenCode edits without asking by default; asking makes its permission requests reach the client.
    permission: { edit: 'ask', bash: 'ask' },
    // A primary agent is offered as a mode: this one keeps OpenCode's default, editing on disk without asking.
    agent: { direct: { mode: 'primary', description: 'Edits without asking', permission: { edit: 'allow' } } },
  };
  return {
    command: packageBin('opencode-ai', 'opencode'),
    args: ['acp'],
    // OpenCode reads its flags as 1/0 (an empty value is an error).
    env: {
      ...env,
      OPENCODE_CONFIG_CONTENT: JSON.stringify(config),
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    },
    home,
  };
}

/** Qwen Code (`qwen --acp`, Node 22+) with OPENAI_BASE_URL at `<mockUrl>/v1`. */
export function qwenCodeLaunch(mockUrl: string): AgentLaunch {
  const { home, env } = throwawayHome('qwen');
  // Its managed auto-memory and its follow-up suggestions run tool-offering side calls after each turn, which
  // would take the replies the test scripted for its next turn; "default" approval asks before edits and shell
  // commands (its own default, "auto", does not).
  writeJson(path.join(home, '.qwen', 'settings.json'), {
    privacy: { usageStatisticsEnabled: false },
    memory: { enableManagedAutoMemory: false },
    ui: { enableFollowupSuggestions: false },
    tools: { approvalMode: 'default' },
  });
  return {
    command: process.execPath,
    args: [packageBin('@qwen-code/qwen-code', 'qwen'), '--acp'],
    env: { ...env, OPENAI_BASE_URL: `${mockUrl}/v1`, OPENAI_API_KEY: 'test', OPENAI_MODEL: 'mock-model' },
    home,
  };
}

/** Gemini CLI (`gemini --acp`) with its gateway pointed at the mock Gemini API. */
export function geminiCliLaunch(mockUrl: string): AgentLaunch {
  const { home, env } = throwawayHome('gemini');
  // A fixed model skips the "auto" router's extra JSON call before every turn; trusting folders lets an answered
  // permission run (an untrusted folder refuses the "allow always" answer).
  writeJson(path.join(home, '.gemini', 'settings.json'), {
    privacy: { usageStatisticsEnabled: false },
    model: { name: 'gemini-2.5-flash' },
    security: { folderTrust: { enabled: false } },
  });
  return {
    command: process.execPath,
    args: [packageBin('@google/gemini-cli', 'gemini'), '--acp'],
    env: { ...env, GOOGLE_GEMINI_BASE_URL: mockUrl, GEMINI_API_KEY: 'test', GEMINI_CLI_NO_RELAUNCH: 'true' },
    home,
  };
}

/** codex-acp with no credentials: enough to start, answer `initialize` and stop. */
export function codexLaunch(): AgentLaunch {
  const { home, env } = throwawayHome('codex');
  const codexHome = path.join(home, '.codex');
  mkdirSync(codexHome);
  return {
    command: process.execPath,
    args: [packageBin('@agentclientprotocol/codex-acp', 'codex-acp')],
    env: { ...env, CODEX_HOME: codexHome },
    home,
  };
}

/** GitHub Copilot CLI's native binary (the package's `copilot` bin is a Node launcher that spawns it and waits). */
export function copilotBinary(): string {
  // The platform package's `exports` hide its files from require.resolve: it is installed beside @github/copilot.
  const require = createRequire(path.join(repoRoot(), 'package.json'));
  const launcher = path.dirname(require.resolve('@github/copilot/package.json'));
  const platformPackage = path.join(path.dirname(launcher), `copilot-${process.platform}-${process.arch}`);
  return path.join(platformPackage, process.platform === 'win32' ? 'copilot.exe' : 'copilot');
}

/**
 * The one cache every Copilot CLI start of a test run shares: the binary unpacks ~235 MB into
 * `$XDG_CACHE_HOME/copilot` on its first start (13–20 s here), which would otherwise count in each start-up.
 */
export const copilotCacheHome = (): string => process.env['ACP_TEST_COPILOT_CACHE'] ?? path.join(tmpdir(), 'acp-test-copilot-cache');

/** Unpacks Copilot CLI into the shared cache (a `--version` run), outside any timed step; a warm cache takes ~1 s. */
export function warmCopilotCache(): Promise<number> {
  const cache = copilotCacheHome();
  mkdirSync(cache, { recursive: true });
  const { home, env } = throwawayHome('copilot-warm');
  const started = Date.now();
  return new Promise((resolve, reject) => {
    execFile(
      copilotBinary(),
      ['--version'],
      { env: { ...env, XDG_CACHE_HOME: cache, COPILOT_OFFLINE: 'true' }, timeout: 240_000 },
      (error) => {
        rmSync(home, { recursive: true, force: true });
        if (error) reject(error);
        else resolve(Date.now() - started);
      },
    );
  });
}

/**
 * GitHub Copilot CLI (`copilot --acp`) in its own-provider mode: Chat Completions at `<mockUrl>/v1`, no GitHub
 * sign-in, no update check, its state in the throwaway HOME and its unpacked binary in the shared cache.
 */
export function copilotLaunch(mockUrl: string): AgentLaunch {
  const { home, env } = throwawayHome('copilot');
  return {
    command: copilotBinary(),
    args: ['--acp', '--no-auto-update'],
    env: {
      ...env,
      XDG_CACHE_HOME: copilotCacheHome(),
      COPILOT_HOME: path.join(home, '.copilot'),
      COPILOT_PROVIDER_BASE_URL: `${mockUrl}/v1`,
      COPILOT_PROVIDER_TYPE: 'openai',
      COPILOT_PROVIDER_API_KEY: 'test',
      COPILOT_MODEL: 'mock-model',
      COPILOT_OFFLINE: 'true',
      COPILOT_AUTO_UPDATE: 'false',
    },
    home,
  };
}
