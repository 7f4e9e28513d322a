/**
 * A stand-in for the extension host, run as its own Node process: it starts one agent with the real AgentProcess
 * class and prints `{"group":…,"agent":…,"grandchild":…}` once the agent's child is running. A test then kills this
 * process (SIGKILL or SIGTERM, so `deactivate` never runs) and watches whether the agent's tree ends.
 *
 * The agent (inline below) ignores SIGTERM, SIGHUP and the end of its stdin, and starts a child that ignores
 * SIGTERM and SIGHUP too, and another such child detached (a session and a process group of its own, as a daemon
 * has): the worst case a real launcher can leave behind.
 */
import { AgentProcess } from '../../src/agents/agent-process';
import { STUBBORN_CHILD } from './stubborn-child';

const GRANDCHILD = STUBBORN_CHILD;
const AGENT = `
for (const s of ['SIGTERM', 'SIGHUP']) process.on(s, () => {});
process.stdin.on('data', () => {}); process.stdin.on('end', () => {});
const child = require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(GRANDCHILD)}], { stdio: 'ignore' });
require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(GRANDCHILD)}], { stdio: 'ignore', detached: true }).unref();
setTimeout(() => process.stdout.write(JSON.stringify({ grandchild: child.pid }) + '\\n'), 200);
setInterval(() => {}, 1000);
`;

const agent = new AgentProcess(
  { name: 'stubborn', command: process.execPath, args: ['-e', AGENT], env: {} },
  { cwd: process.cwd(), orphanGraceMs: Number(process.env['ACP_ORPHAN_GRACE_MS'] ?? 1000) },
);
agent.stdout.once('data', (data: Buffer) => {
  const { grandchild } = JSON.parse(String(data)) as { grandchild: number };
  process.stdout.write(`${JSON.stringify({ group: agent.pid, agent: agent.agentPid, grandchild })}\n`);
});
setInterval(() => undefined, 1000);
