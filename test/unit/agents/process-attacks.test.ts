/**
 * Attacks on process ownership, on real processes and the real AgentProcess class: a pid we already reaped is
 * never signalled (it may belong to another program by then), and an agent's whole tree ends within seconds when
 * the extension host dies without `deactivate`, even if the agent and its child ignore SIGTERM, SIGHUP and EOF.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { AgentProcess, type AgentExit } from '../../../src/agents/agent-process';
import type { AttackCase } from '../../support/attack-case';
import { eventually, processesMarked } from '../../support/processes';
import { repoRoot } from '../../support/repo-root';

/** Every process.kill call made while `during` runs (the calls are not made). */
async function killsDuring(during: () => unknown): Promise<{ pid: number; signal: unknown }[]> {
  const calls: { pid: number; signal: unknown }[] = [];
  const original = process.kill;
  process.kill = (pid: number, signal?: string | number): true => {
    calls.push({ pid, signal });
    return true;
  };
  try {
    await during();
  } finally {
    process.kill = original;
  }
  return calls;
}

const exitedAgent = async (): Promise<AgentProcess> => {
  const agent = new AgentProcess(
    { name: 't', command: process.execPath, args: ['-e', 'process.exit(0)'], env: {} },
    { cwd: process.cwd() },
  );
  await new Promise<AgentExit>((resolve) => agent.onExit(resolve));
  return agent;
};

/** Starts a host process that runs one stubborn agent; resolves with the pids once the agent's child runs. */
async function hostWithStubbornAgent(
  marker: string,
): Promise<{ host: ReturnType<typeof spawn>; pids: { group: number; agent: number; grandchild: number } }> {
  const host = spawn(process.execPath, [path.join(repoRoot(), 'out', 'test', 'support', 'agent-host.js')], {
    env: { ...process.env, ACP_TEST_MARK: marker },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: host.stdout }).once('line', resolve);
    host.once('exit', (code) => reject(new Error(`the host exited (${code}) before its agent ran`)));
  });
  return { host, pids: JSON.parse(line) as { group: number; agent: number; grandchild: number } };
}

interface ProcessAttack extends AttackCase {
  readonly run: () => Promise<void>;
}

const hostDies =
  (signal: NodeJS.Signals): (() => Promise<void>) =>
  async () => {
    const marker = `ACP_HOST_DIES_${randomUUID()}`;
    const { host, pids } = await hostWithStubbornAgent(marker);
    assert.ok(processesMarked(marker).includes(pids.grandchild), 'the agent’s child runs');
    const killedAt = Date.now();
    host.kill(signal);
    try {
      await eventually(() => processesMarked(marker).length === 0, 'every process of the agent’s tree is gone', 6000);
    } finally {
      for (const pid of processesMarked(marker)) process.kill(pid, 'SIGKILL');
    }
    const took = Date.now() - killedAt;
    console.log(`      (tree gone ${took} ms after ${signal} of the host)`);
  };

const attacks: readonly ProcessAttack[] = [
  {
    attack: 'stop after the agent exited and was reaped signals a pid that may be reused',
    driven: 'a real agent that exits by itself; Stop afterwards, with process.kill spied',
    sees: 'the exit as before; no signal is sent to the old pid or its group',
    run: async () => {
      const agent = await exitedAgent();
      const calls = await killsDuring(() => agent.stop());
      assert.deepEqual(calls, []);
    },
  },
  {
    attack: 'deactivate after the agent exited kills a reused pid',
    driven: 'a real agent that exits by itself; killNow (deactivate’s path) afterwards, with process.kill spied',
    sees: 'nothing is signalled',
    run: async () => {
      const agent = await exitedAgent();
      const calls = await killsDuring(() => agent.killNow());
      assert.deepEqual(calls, []);
    },
  },
  {
    attack: 'the stop ladder’s timers fire after the agent exited',
    driven: 'a real agent that exits 50 ms after Stop closed its stdin; the ladder’s SIGTERM/SIGKILL times pass',
    sees: 'a requested exit; no signal after the reap',
    run: async () => {
      const agent = new AgentProcess(
        {
          name: 't',
          command: process.execPath,
          args: ['-e', "process.stdin.on('end', () => setTimeout(() => process.exit(0), 50)); process.stdin.resume();"],
          env: {},
        },
        { cwd: process.cwd(), stdinGraceMs: 400, termGraceMs: 200 },
      );
      const exit = await agent.stop();
      assert.equal(exit.requested, true);
      const calls = await killsDuring(() => new Promise((resolve) => setTimeout(resolve, 800)));
      assert.deepEqual(calls, []);
    },
  },
  {
    attack: 'an agent starts a child in a session of its own (setsid): Stop leaves the child running',
    driven: "a real agent `sh -c 'setsid sleep 300 & exec sleep 300'` (deaf to its stdin closing); Stop once both run",
    sees: 'the agent and the child that left its process group both gone',
    run: async () => {
      const marker = `ACP_AGENT_SETSID_${randomUUID()}`;
      const agent = new AgentProcess(
        { name: 't', command: 'sh', args: ['-c', 'setsid sleep 300 & exec sleep 300'], env: { ACP_TEST_MARK: marker } },
        { cwd: process.cwd(), stdinGraceMs: 100, termGraceMs: 200 },
      );
      try {
        await eventually(() => processesMarked(marker).length >= 2, 'the agent and its child run');
        await agent.stop();
        await eventually(() => processesMarked(marker).length === 0, 'every process of the agent is gone', 6000);
      } finally {
        agent.killNow();
        for (const pid of processesMarked(marker)) process.kill(pid, 'SIGKILL');
      }
    },
  },
  {
    attack: 'the extension host is SIGKILLed: the agent and a child ignoring SIGTERM/SIGHUP/EOF outlive it',
    driven: 'a host process running the real AgentProcess with a stubborn agent, a stubborn child and a detached one; SIGKILL to the host',
    sees: 'every process of the agent’s tree gone within seconds (the supervisor ends the group)',
    run: hostDies('SIGKILL'),
  },
  {
    attack: 'the VS Code server is stopped with SIGTERM: deactivate never runs, the agent tree lives on',
    driven: 'the same host process, SIGTERM to it (no handler: it dies without deactivate)',
    sees: 'every process of the agent’s tree gone within seconds',
    run: hostDies('SIGTERM'),
  },
];

describe('process ownership attacks (real processes)', function () {
  this.timeout(30_000);
  for (const row of attacks) it(`attack: ${row.attack}`, () => row.run());
});
