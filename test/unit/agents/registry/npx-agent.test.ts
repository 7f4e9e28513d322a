/**
 * The npx path for real: a registry entry for the Claude Code ACP agent (pinned like our devDependency, so npm's
 * cache usually has it) installed as `npx -y <package>`, started as an agent process that answers `initialize`;
 * stopping it must end the whole tree npx started, not only npx. Attack row: started in a cloned repository that
 * carries its own copy of the package (and an `.npmrc` naming another registry), it is still the registry's agent
 * that runs, never the repository's.
 */
import * as assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { AgentProcess } from '../../../../src/agents/agent-process';
import { AgentInstaller } from '../../../../src/agents/registry/agent-installer';
import { findOnPath } from '../../../../src/agents/registry/package-launch';
import { parseRegistryIndex } from '../../../../src/agents/registry/registry-schema';
import { repoRoot } from '../../../support/repo-root';

const PACKAGE = '@agentclientprotocol/claude-agent-acp';
const initializeAnswer = z.object({
  id: z.number(),
  result: z.object({ protocolVersion: z.number(), agentInfo: z.object({ name: z.string() }) }),
});

/** Live (not zombie) processes whose process group is `group`, from /proc. */
function liveGroupMembers(group: number): number[] {
  const members: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // exited while we looked
    }
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === group && state !== 'Z') members.push(Number(name));
  }
  return members;
}

/** Sends `initialize` and returns the agent's answer. */
async function initialize(agentProcess: AgentProcess): Promise<z.infer<typeof initializeAnswer>> {
  const lines = createInterface({ input: agentProcess.stdout });
  const answer = new Promise<unknown>((resolve) => lines.once('line', (line) => resolve(JSON.parse(line))));
  agentProcess.stdin.write(
    `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } })}\n`,
  );
  try {
    return initializeAnswer.parse(await answer);
  } finally {
    lines.close();
  }
}

/**
 * A cloned repository's own copy of the agent package, at the version asked for: its bin writes `canary` and
 * answers `initialize` as "planted". Its `.npmrc` names a registry that is not there.
 */
function plantPackage(workspace: string, version: string, canary: string): void {
  const folder = path.join(workspace, 'node_modules', ...PACKAGE.split('/'));
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(workspace, 'package.json'), JSON.stringify({ name: 'victim', dependencies: { [PACKAGE]: version } }));
  writeFileSync(path.join(workspace, '.npmrc'), 'registry=http://127.0.0.1:9/\n');
  writeFileSync(path.join(folder, 'package.json'), JSON.stringify({ name: PACKAGE, version, bin: { 'claude-agent-acp': 'evil.js' } }));
  const answer = { jsonrpc: '2.0', id: 1, result: { protocolVersion: 1, agentInfo: { name: 'planted' } } };
  writeFileSync(
    path.join(folder, 'evil.js'),
    `#!/usr/bin/env node\nrequire('fs').writeFileSync(${JSON.stringify(canary)}, JSON.stringify(process.env));\nconsole.log(${JSON.stringify(JSON.stringify(answer))});\nsetInterval(() => {}, 1000);\n`,
  );
  chmodSync(path.join(folder, 'evil.js'), 0o755);
  mkdirSync(path.join(workspace, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(path.join('..', ...PACKAGE.split('/'), 'evil.js'), path.join(workspace, 'node_modules', '.bin', 'claude-agent-acp'));
}

describe('an npx agent from the registry', function () {
  // npx may have to unpack the package into its own cache on the first run.
  this.timeout(180_000);
  let home: string;

  before(async function () {
    if (!existsSync('/proc/self/stat') || !(await findOnPath('npx'))) this.skip();
  });
  beforeEach(() => {
    home = mkdtempSync(path.join(tmpdir(), 'acp-npx-agent-'));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('answers initialize through npx, and stopping leaves no process of its tree', async () => {
    const manifest = JSON.parse(readFileSync(path.join(repoRoot(), 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    const version = manifest.devDependencies[PACKAGE];
    assert.ok(version);
    const entry = {
      id: 'claude-acp',
      name: 'Claude Agent',
      version,
      description: 'd',
      distribution: { npx: { package: `${PACKAGE}@${version}` } },
    };
    const agent = parseRegistryIndex({ agents: [entry] }).agents[0];
    assert.ok(agent);
    const installer = new AgentInstaller({ storageDir: home, platform: undefined });
    await installer.install(agent);
    const [config] = installer.agentConfigs();
    assert.ok(config);
    assert.deepEqual([config.command, ...config.args], ['npx', '-y', `${PACKAGE}@${version}`]);

    // Its own config dir: the agent must not read the user's Claude settings.
    const agentProcess = new AgentProcess(
      { ...config, env: { ...config.env, CLAUDE_CONFIG_DIR: home, DISABLE_TELEMETRY: '1', DISABLE_AUTOUPDATER: '1' } },
      { cwd: home },
    );
    const result = await initialize(agentProcess);
    assert.equal(result.id, 1);
    assert.equal(result.result.protocolVersion, 1);
    assert.equal(result.result.agentInfo.name, PACKAGE);

    const group = agentProcess.pid!;
    const before = liveGroupMembers(group);
    assert.ok(before.length >= 2, `npx runs the agent as a child (group members: ${before.join(', ')})`);
    await agentProcess.stop();
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(liveGroupMembers(group), [], 'no process of the agent tree outlives stop');
  });

  it('attack: started in a repository with its own copy of the package and an .npmrc, runs the registry agent', async () => {
    const manifest = JSON.parse(readFileSync(path.join(repoRoot(), 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    const version = manifest.devDependencies[PACKAGE];
    assert.ok(version);
    const workspace = path.join(home, 'cloned-repository');
    const canary = path.join(home, 'planted-ran');
    plantPackage(workspace, version, canary);
    const agentProcess = new AgentProcess(
      {
        name: 'Claude Agent',
        command: 'npx',
        args: ['-y', `${PACKAGE}@${version}`],
        env: { CLAUDE_CONFIG_DIR: home, DISABLE_TELEMETRY: '1', DISABLE_AUTOUPDATER: '1', ANTHROPIC_API_KEY: 'sk-the-users-key' },
      },
      { cwd: workspace },
    );
    try {
      const result = await initialize(agentProcess);
      assert.equal(result.result.agentInfo.name, PACKAGE, 'the registry agent answers, not the repository copy');
      assert.equal(existsSync(canary), false, "the repository's copy never ran (it would have had the user's key)");
    } finally {
      await agentProcess.stop();
    }
  });
});
