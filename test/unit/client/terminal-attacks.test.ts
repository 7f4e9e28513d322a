/**
 * Attacks through `terminal/create`, on real processes and the real TerminalManager: a command the agent runs ends
 * with the extension host even when the host dies without `deactivate` (its supervisor ends the group), and an agent
 * cannot keep an unbounded number of terminals (each a process tree and its output) alive.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { MAX_LIVE_TERMINALS, TerminalManager } from '../../../src/client/terminal-manager';
import type { AttackCase } from '../../support/attack-case';
import { eventually, processesMarked } from '../../support/processes';
import { repoRoot } from '../../support/repo-root';

interface TerminalAttack extends AttackCase {
  readonly run: () => Promise<void>;
}

let root: string;

const hostDies =
  (signal: NodeJS.Signals): (() => Promise<void>) =>
  async () => {
    const marker = `ACP_TERMINAL_HOST_DIES_${randomUUID()}`;
    const host = spawn(process.execPath, [path.join(repoRoot(), 'out', 'test', 'support', 'terminal-host.js')], {
      cwd: root,
      env: { ...process.env, ACP_TEST_MARK: marker },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        createInterface({ input: host.stdout }).once('line', () => resolve());
        host.once('exit', (code) => reject(new Error(`the host exited (${code}) before its terminal ran`)));
      });
      host.kill(signal);
      await new Promise((resolve) => host.once('exit', resolve));
      const killedAt = Date.now();
      await eventually(() => processesMarked(marker).length === 0, 'every process of the terminal’s tree is gone', 6000);
      console.log(`      (terminal gone ${Date.now() - killedAt} ms after ${signal} of the host)`);
    } finally {
      host.kill('SIGKILL');
      for (const pid of processesMarked(marker)) process.kill(pid, 'SIGKILL');
    }
  };

/**
 * Runs `script` (sh) as a terminal command marked with `marker`, waits until `expected` marked processes run,
 * then ends the terminal with `end` (after its exit, if `awaitExit`); resolves once nothing marked is left.
 */
const newSessionChild =
  (script: string, expected: number, end: 'kill' | 'release', awaitExit: boolean): (() => Promise<void>) =>
  async () => {
    const marker = `ACP_TERMINAL_SETSID_${randomUUID()}`;
    const terminals = new TerminalManager(
      () => [root],
      () => root,
      { onOutput: () => undefined, onExit: () => undefined },
    );
    try {
      const { terminalId } = await terminals.create({
        command: 'sh',
        args: ['-c', script],
        env: [{ name: 'ACP_TEST_MARK', value: marker }],
      });
      await eventually(() => processesMarked(marker).length >= expected, `the command's ${expected} processes run`);
      if (awaitExit) await eventually(() => terminals.output(terminalId).exitStatus !== undefined, 'the command exits');
      if (end === 'kill') terminals.kill(terminalId);
      else terminals.release(terminalId);
      await eventually(() => processesMarked(marker).length === 0, 'every process the command started is gone', 6000);
    } finally {
      terminals.disposeAll();
      for (const pid of processesMarked(marker)) process.kill(pid, 'SIGKILL');
    }
  };

const attacks: readonly TerminalAttack[] = [
  {
    attack: 'a terminal command starts a child in a session of its own (setsid): terminal/kill leaves it running',
    driven: "terminal/create of `sh -c 'setsid sleep 300 & sleep 300'`; terminal/kill once both sleeps run",
    sees: 'both sleeps gone: the one that left the process group too',
    run: newSessionChild('setsid sleep 300 & sleep 300', 3, 'kill', false),
  },
  {
    attack: 'a terminal command leaves a setsid child behind and exits: releasing the terminal leaves the child running',
    driven: "terminal/create of `sh -c 'setsid sleep 300 &'`; terminal/release after the command's exit",
    sees: 'the child gone once the terminal is released (until then it is the agent’s, like any background job)',
    run: newSessionChild('setsid sleep 300 & sleep 0.2', 1, 'release', true),
  },
  {
    attack: 'the extension host is SIGKILLed: a terminal command ignoring SIGTERM/SIGHUP outlives it',
    driven: 'a host process running the real TerminalManager with one stubborn command; SIGKILL to the host',
    sees: 'the command and its supervisor gone within seconds',
    run: hostDies('SIGKILL'),
  },
  {
    attack: 'the VS Code server is stopped with SIGTERM: deactivate never runs, the terminal lives on',
    driven: 'the same host process, SIGTERM to it (no handler: it dies without deactivate)',
    sees: 'the command and its supervisor gone within seconds',
    run: hostDies('SIGTERM'),
  },
  {
    attack: 'an agent keeps creating terminals and never releases them (each a process tree and its output)',
    driven: `terminal/create ${MAX_LIVE_TERMINALS + 1} times on one TerminalManager; then one release and one more create`,
    sees: 'the create over the cap refused with an error that says to release terminals; after a release, create works',
    run: async () => {
      const terminals = new TerminalManager(
        () => [root],
        () => root,
        { onOutput: () => undefined, onExit: () => undefined },
      );
      const sleeper = { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] };
      try {
        const ids: string[] = [];
        for (let i = 0; i < MAX_LIVE_TERMINALS; i++) ids.push((await terminals.create(sleeper)).terminalId);
        await assert.rejects(terminals.create(sleeper), (error: Error & { code?: number }) => {
          assert.equal(error.code, -32600);
          assert.match(error.message, /release/);
          assert.match(error.message, new RegExp(String(MAX_LIVE_TERMINALS)));
          return true;
        });
        // An exited command still counts until released (its output is kept); releasing one makes room.
        terminals.release(ids[0]!);
        const again = await terminals.create(sleeper);
        assert.ok(again.terminalId);
      } finally {
        terminals.disposeAll();
      }
    },
  },
];

describe('terminal attacks (real processes)', function () {
  this.timeout(30_000);
  before(() => (root = realpathSync(mkdtempSync(path.join(tmpdir(), 'acp-term-attack-')))));
  after(() => rmSync(root, { recursive: true, force: true }));
  for (const row of attacks) it(`attack: ${row.attack}`, () => row.run());
});
