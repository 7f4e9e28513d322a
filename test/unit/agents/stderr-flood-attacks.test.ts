/**
 * Attacks on the log through an agent's stderr, on real processes and the real AgentProcess class: whatever an
 * agent writes there, what reaches the log (`onStderrLine`, which the connection sends to the output channel and
 * its file on disk) stays within a fixed budget, and the crash report still has the agent's last lines.
 */
import * as assert from 'node:assert/strict';
import { AgentProcess, type AgentExit } from '../../../src/agents/agent-process';
import type { AttackCase } from '../../support/attack-case';

/** The bound the attack asserts: the log's budget (1,000,000 characters) plus one cut line and the notices. */
const MOST_LOGGED = 1_010_000;

interface FloodAttack extends AttackCase {
  /** Node code run as the agent: it floods stderr, ends with `fatal: last words` and exits with 3. */
  readonly script: string;
}

// exitCode, not exit(): Node writes a pipe asynchronously, and exit() would drop what is still queued.
const LAST_WORDS = "process.stderr.write('fatal: last words\\n'); process.exitCode = 3;";

const attacks: readonly FloodAttack[] = [
  {
    attack: 'an agent writes 40 MB of short lines and one 10 MB line to stderr',
    driven: 'a real agent process (node -e) flooding its stderr through the real AgentProcess, then crashing',
    sees: 'about 1 MB of its stderr in the log and a line saying the rest is not logged; the crash report’s last line',
    script:
      "const block = ('x'.repeat(99) + '\\n').repeat(10000);" +
      'for (let i = 0; i < 40; i++) process.stderr.write(block);' +
      "process.stderr.write('y'.repeat(10000000) + '\\n');" +
      LAST_WORDS,
  },
  {
    attack: 'an agent writes one 50 MB line to stderr',
    driven: 'a real agent process (node -e) writing one line of 50 MB through the real AgentProcess, then crashing',
    sees: 'the line’s start in the log, cut, with its length; the crash report’s last line',
    script: "process.stderr.write('z'.repeat(50000000) + '\\n');" + LAST_WORDS,
  },
];

/** Runs the agent to its exit; counts the characters logged and keeps the lines that say what was left out. */
async function flood(script: string): Promise<{ logged: number; notices: string[]; exit: AgentExit }> {
  let logged = 0;
  const notices: string[] = [];
  const agent = new AgentProcess(
    { name: 't', command: process.execPath, args: ['-e', script], env: {} },
    {
      cwd: process.cwd(),
      onStderrLine: (line) => {
        logged += line.length;
        if (/cut|not logged/.test(line)) notices.push(line);
      },
    },
  );
  const exit = await new Promise<AgentExit>((resolve) => agent.onExit(resolve));
  return { logged, notices, exit };
}

describe('stderr flood attacks (real processes)', function () {
  this.timeout(30_000);
  for (const row of attacks)
    it(`attack: ${row.attack}`, async () => {
      const { logged, notices, exit } = await flood(row.script);
      console.log(`      (${logged.toLocaleString('en')} characters of stderr logged)`);
      assert.ok(logged <= MOST_LOGGED, `${logged} characters logged`);
      assert.equal(exit.code, 3);
      assert.deepEqual(exit.stderrTail.slice(-1), ['fatal: last words']);
      assert.ok(notices.length > 0, 'the log says what it left out');
    });
});
