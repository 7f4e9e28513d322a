/**
 * How the tests run the real Claude Code ACP agent (`@agentclientprotocol/claude-agent-acp`, a devDependency)
 * offline against the mock Anthropic API: its bin script from node_modules, and an environment that points it
 * at the mock and keeps it away from the user's own Claude config and the network.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { packageBin } from './package-bin';

const PACKAGE = '@agentclientprotocol/claude-agent-acp';

/** The agent's executable JS file, found through its package.json `bin` (the path inside dist/ may move). */
export function claudeAgentBin(): string {
  return packageBin(PACKAGE);
}

export interface ClaudeAgentEnv {
  env: Record<string, string>;
  /** The throwaway HOME; the agent keeps its session files here. */
  home: string;
}

/**
 * A fresh HOME, CLAUDE_CONFIG_DIR and TMPDIR in a temp dir, so the agent neither reads nor writes the user's
 * config. Its settings start sessions in the "default" (ask before edits) mode: the built-in "auto" mode would
 * send every tool call to a classifier model first, which the mock does not imitate, and warns that the gateway
 * is unknown.
 */
export function claudeAgentEnv(baseUrl: string): ClaudeAgentEnv {
  const home = mkdtempSync(path.join(tmpdir(), 'acp-claude-home-'));
  const configDir = path.join(home, '.claude');
  mkdirSync(configDir);
  const temp = path.join(home, 'tmp');
  mkdirSync(temp);
  writeFileSync(path.join(configDir, 'settings.json'), JSON.stringify({ permissions: { defaultMode: 'default' } }));
  const env = {
    HOME: home,
    CLAUDE_CONFIG_DIR: configDir,
    // Claude Code keeps scratch dirs (claude-<uid>, cc-socks) in TMPDIR: removed with the HOME after the test.
    TMPDIR: temp,
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: 'test',
    // Claude Code refuses to run as root unless told it is in a sandbox (CI machines run as root).
    IS_SANDBOX: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
  return { env, home };
}
