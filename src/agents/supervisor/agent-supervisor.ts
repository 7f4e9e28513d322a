/**
 * The agent supervisor: a tiny Node program (its own bundle, dist/agent-supervisor.js) between the extension host
 * and one agent. It leads the agent's process group and lives exactly as long as the agent, which gives the host
 * two things it cannot have alone:
 *
 * - The tree ends when the host dies without `deactivate` (a crash, SIGTERM or SIGKILL of the VS Code server).
 *   The supervisor holds a pipe to the host (fd 3); when the pipe closes with the agent still running, it sends
 *   SIGTERM to the group, then SIGKILL. The agent alone would only see its stdin close, which a child of it that
 *   ignores SIGTERM and SIGHUP never notices.
 * - A group id that is never stale. The group is named after the supervisor, which exits only after it has
 *   reported the agent's exit and killed what was left of the group, so while the host has not reaped it, the
 *   group id cannot belong to anyone else; once it has, the host signals nothing any more.
 *
 * stdin, stdout and stderr are inherited: the agent talks to the host directly, nothing is copied. The supervisor
 * ignores SIGTERM, SIGHUP and SIGINT sent to the group, so it outlives the agent long enough to report its exit.
 *
 * A terminal's command (client/terminal-manager.ts) runs under it the same way, with `holdGroup`: the supervisor then
 * keeps the group after the command's exit, until the host kills it (terminal/kill, release) or goes.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, statSync, writeSync } from 'node:fs';
import { Socket } from 'node:net';
import { CONTROL_FD, parseLaunch, RELEASE, type SupervisorLaunch, type SupervisorReport } from './supervisor-protocol';
import { carriesMark, findProcesses, signalMarked, TREE_MARK_VARIABLE } from './tree-mark';
import { windowsSpawnPlan } from './windows-command';
import { errorMessage } from '../../shared/error-text';

const windows = process.platform === 'win32';
let agent: ChildProcess | undefined;
let orphanGraceMs = 1000;
let holdGroup = false;
let exited = false;
/** The mark in the environment of everything the command starts (tree-mark.ts); '' until the launch. */
let treeMark = '';

function report(message: SupervisorReport): void {
  try {
    writeSync(CONTROL_FD, `${JSON.stringify(message)}\n`);
  } catch {
    // the host is gone: nobody to tell
  }
}

/** Everything of the agent's, and the supervisor with it (on POSIX it is in the group it kills). */
function killTree(signal: NodeJS.Signals): void {
  if (windows) {
    if (agent?.pid !== undefined) spawnSync('taskkill', ['/T', '/F', '/PID', String(agent.pid)], { windowsHide: true, stdio: 'ignore' });
    if (signal === 'SIGKILL') process.exit(1);
    return;
  }
  // First what left the group (setsid): SIGKILL to the group ends this process too.
  signalMarked(treeMark, signal);
  try {
    process.kill(-process.pid, signal);
  } catch {
    process.exit(1);
  }
}

function start(launch: SupervisorLaunch): void {
  orphanGraceMs = launch.orphanGraceMs;
  holdGroup = launch.holdGroup;
  treeMark = launch.env[TREE_MARK_VARIABLE] ?? '';
  const env: Record<string, string | undefined> = { ...process.env, ...launch.env };
  if (launch.electronRunAsNode === null) delete env['ELECTRON_RUN_AS_NODE'];
  else env['ELECTRON_RUN_AS_NODE'] = launch.electronRunAsNode;
  try {
    const plan =
      windows && launch.windowsBatch
        ? windowsSpawnPlan(launch.command, launch.args, { env, exists: fileExists })
        : { file: launch.command, args: [...launch.args], verbatim: false };
    agent = spawn(plan.file, plan.args, {
      env: { ...env, ...plan.env },
      stdio: 'inherit',
      windowsHide: true,
      windowsVerbatimArguments: plan.verbatim,
    });
  } catch (error) {
    report({ kind: 'error', message: errorMessage(error) });
    process.exit(1);
  }
  const started = agent;
  started.on('spawn', () => {
    report({ kind: 'started', pid: started.pid ?? -1 });
    if (holdGroup) letGoOfOutput();
  });
  started.on('error', (error) => {
    report({ kind: 'error', message: error.message });
    process.exit(1);
  });
  started.on('exit', (code, signal) => {
    exited = true;
    report({ kind: 'exit', code, signal });
    if (holdGroup) {
      releaseIfAlone();
      return;
    }
    // The host reads this before the agent's output ends (the supervisor still holds it open), so it knows the
    // end of the output is the agent's exit, not a fault. It answers `release`; a host that does not answer soon
    // is not waited for.
    setTimeout(release, 2000);
  });
}

/**
 * A supervisor that outlives its command must not hold the command's output open: the host reads the end of the
 * output as "everything is in" (a terminal's wait_for_exit). Its stdout and stderr become /dev/null: open() takes
 * the lowest free fd, which is the one just closed. POSIX only; on Windows the host's short drain stands in.
 */
function letGoOfOutput(): void {
  if (windows) return;
  for (const fd of [1, 2]) {
    try {
      closeSync(fd);
      const reopened = openSync('/dev/null', 'w');
      if (reopened !== fd) closeSync(reopened);
    } catch {
      // keeps the output open: the host's drain after the exit report stands in
    }
  }
}

/**
 * A held group with nothing left in it but the supervisor is not worth a process (some tens of MB): it goes. Linux
 * only (/proc), and only after two looks, so a member that forked and exited between them is not missed; elsewhere,
 * or when /proc cannot say, the group is held until the host kills it. A child that left the group (setsid) but
 * carries the tree's mark keeps it held too: releasing the terminal ends it, as it ends a background job.
 */
function releaseIfAlone(): void {
  if (alone()) setTimeout(() => (alone() ? release() : undefined), 50);
}

/** Nothing else in the group, nor anything carrying the tree's mark; false where /proc cannot say. */
function alone(): boolean {
  const others = findProcesses((group, environment) => group === process.pid || carriesMark(environment(), treeMark));
  return others !== undefined && others.length === 0;
}

function fileExists(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) process.on(signal, () => undefined);

/** The agent has exited and the host knows: whatever it left in its group (a launcher's child) goes with it. */
function release(): void {
  killTree('SIGKILL');
  process.exit(0);
}

// The pipe to the host: first the launch, then `release` after the agent's exit; it closes when the host is gone.
const host = new Socket({ fd: CONTROL_FD, readable: true, writable: false });
let pending = '';
host.setEncoding('utf8');
host.on('data', (text: string) => {
  pending += text;
  for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
    const line = pending.slice(0, end);
    pending = pending.slice(end + 1);
    if (agent) {
      if (line === RELEASE && exited) release();
      continue;
    }
    const launch = parseLaunch(line);
    if (!launch) {
      report({ kind: 'error', message: 'the agent supervisor got no valid launch' });
      process.exit(1);
    }
    start(launch);
  }
});
const orphaned = (): void => {
  if (!agent || exited) release();
  killTree('SIGTERM');
  setTimeout(() => killTree('SIGKILL'), orphanGraceMs);
};
host.on('end', orphaned);
host.on('error', orphaned);
