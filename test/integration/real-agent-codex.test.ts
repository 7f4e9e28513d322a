/**
 * Codex (`@agentclientprotocol/codex-acp`) without credentials: it starts on the extension host's Node, its
 * `initialize` answer lists how to authenticate, and the extension's stop ladder leaves no process behind.
 * Driven through the extension's own process and connection classes (the chat cannot open a session without
 * credentials).
 */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { AgentProcess } from '../../src/agents/agent-process';
import { AcpConnection } from '../../src/acp/connection';
import { codexLaunch } from '../support/real-agents';
import { sleep, workspaceRoot } from './helpers';

/** Processes of the group that still run (a zombie nobody reaps in a container does not count). */
function liveGroupMembers(pgid: number): number[] {
  return readdirSync('/proc').flatMap((name) => {
    if (!/^\d+$/.test(name)) return [];
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(group) === pgid && state !== 'Z' ? [Number(name)] : [];
    } catch {
      return []; // gone while we looked
    }
  });
}

async function settledGroup(pgid: number, timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  let live = liveGroupMembers(pgid);
  while (live.length > 0 && Date.now() < deadline) {
    await sleep(100);
    live = liveGroupMembers(pgid);
  }
  return live;
}

const quietLog = { error: () => undefined, warn: () => undefined, info: () => undefined, trace: () => undefined };

describe('a real agent: Codex (codex-acp) starts, lists its auth methods and stops cleanly', function () {
  this.timeout(60_000);

  it('answers initialize with authMethods, then exits on stop with its whole process group', async () => {
    const launch = codexLaunch();
    const agent = new AgentProcess(
      { name: 'Codex', command: launch.command, args: launch.args, env: launch.env },
      { cwd: workspaceRoot() },
    );
    const connection = new AcpConnection({ input: agent.stdout, output: agent.stdin, log: quietLog });
    try {
      const started = Date.now();
      const init = await connection.initialize({
        protocolVersion: 1,
        clientCapabilities: {},
        clientInfo: { name: 'acp-client-test', version: '0' },
      });
      console.log(`      Codex initialize answered in ${Date.now() - started} ms`);
      assert.equal(init.protocolVersion, 1);
      assert.ok((init.authMethods ?? []).length > 0, `it lists auth methods: ${JSON.stringify(init.authMethods)}`);
      assert.ok(agent.pid !== undefined && liveGroupMembers(agent.pid).length > 0, 'it runs');
      const exit = await agent.stop();
      assert.equal(exit.requested, true);
      // codex-acp starts the native codex binary in its group: the stop ladder must take it down too.
      assert.deepEqual(await settledGroup(agent.pid, 2_000), [], 'no process of its group is left');
    } finally {
      connection.dispose();
      agent.killNow();
      rmSync(launch.home, { recursive: true, force: true });
    }
  });
});
