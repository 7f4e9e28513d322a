import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { AgentProcess, type AgentExit } from '../../../src/agents/agent-process';

const node = process.execPath;
/** Running, not merely a zombie waiting for a reaper (containers often have none). */
const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
};

function agent(script: string, stdinGraceMs = 200): AgentProcess {
  return new AgentProcess(
    { name: 't', command: node, args: ['-e', script], env: {} },
    { cwd: process.cwd(), stdinGraceMs, termGraceMs: 200 },
  );
}

describe('agent process', () => {
  it('stops a well-behaved agent by closing stdin', async () => {
    // Generous grace: on a loaded machine Node itself can take a while to start and listen.
    const proc = agent("process.stdin.on('end', () => process.exit(0)); process.stdin.resume();", 5000);
    const exit = await proc.stop();
    assert.equal(exit.code, 0);
    assert.equal(exit.requested, true);
  });

  it('escalates to SIGKILL for an agent that ignores stdin EOF and SIGTERM', async () => {
    const proc = agent(
      "process.on('SIGTERM', () => {}); process.stdin.resume(); process.stdin.on('end', () => {}); setInterval(() => {}, 1000); process.stdout.write('ready\\n');",
    );
    // Only once it says it ignores SIGTERM: on a loaded machine Node can take a while to get there.
    await new Promise((resolve) => proc.stdout.once('data', resolve));
    const exit = await proc.stop();
    assert.equal(exit.signal, 'SIGKILL');
  });

  it('kills the whole process group: a launcher child does not outlive stop', async () => {
    const proc = agent(
      "const c = require('child_process').spawn(process.execPath, ['-e', 'setInterval(()=>{},1000)'], { stdio: 'ignore' }); console.log(c.pid); process.stdin.resume(); setInterval(() => {}, 1000);",
    );
    const childPid = await new Promise<number>((resolve) => proc.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
    assert.ok(isAlive(childPid));
    await proc.stop();
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(isAlive(childPid), false);
  });

  it('reports a crash with its exit code and last stderr lines', async () => {
    const proc = agent("process.stderr.write('starting\\nfatal: simulated crash\\n'); process.exit(3);");
    const exit = await new Promise<AgentExit>((resolve) => proc.onExit(resolve));
    assert.equal(exit.code, 3);
    assert.equal(exit.requested, false);
    assert.deepEqual(exit.stderrTail.slice(-1), ['fatal: simulated crash']);
  });

  it('reports a command that cannot be started', async () => {
    const proc = new AgentProcess({ name: 't', command: '/nonexistent/agent-binary', args: [], env: {} }, { cwd: process.cwd() });
    const exit = await new Promise<AgentExit>((resolve) => proc.onExit(resolve));
    assert.equal(exit.code, null);
    assert.match(exit.stderrTail.join('\n'), /ENOENT/);
  });
});
