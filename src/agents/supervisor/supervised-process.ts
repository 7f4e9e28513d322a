/**
 * The host's side of one supervisor (agent-supervisor.ts), shared by an agent (agent-process.ts) and a terminal's
 * command (client/terminal-manager.ts): it starts the supervisor as the leader of a new process group with the
 * control pipe on fd 3, sends the launch over that pipe, reads the reports (the command's pid, its exit, why it could
 * not start), and signals the group.
 *
 * Nothing is signalled once the supervisor has been reaped: its pid, and so the group id, may belong to another
 * program by then. Until then the id is ours, since the supervisor only exits after the rest of its group.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { Duplex, type Readable, type Writable } from 'node:stream';
import { CONTROL_FD, parseReport, RELEASE, type SupervisorLaunch, type SupervisorReport } from './supervisor-protocol';
import { supervisorScript } from './supervisor-script';
import { newTreeMark, signalMarked, TREE_MARK_VARIABLE } from './tree-mark';

export interface SupervisedLaunch {
  readonly command: string;
  readonly args: readonly string[];
  /** Set over the host's environment for the command. */
  readonly env: Readonly<Record<string, string>>;
  /** How long the group has after SIGTERM, once the host is gone, before SIGKILL. */
  readonly orphanGraceMs?: number;
  readonly holdGroup?: boolean;
  readonly windowsBatch?: boolean;
}

export interface SupervisedOptions {
  readonly cwd: string;
  /** An agent reads its stdin (ACP); a terminal's command gets none. */
  readonly stdin: 'pipe' | 'ignore';
}

/** The command's exit as the supervisor reported it, or the supervisor's own when it could not report. */
export interface CommandExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export class SupervisedProcess {
  /** The supervisor's pid, which is the id of the command's process group. */
  readonly pid: number | undefined;
  /** Only with `stdin: 'pipe'`. */
  readonly stdin: Writable | undefined;
  readonly stdout: Readable;
  readonly stderr: Readable;
  /** The command's own pid, once the supervisor has started it. */
  commandPid: number | undefined;
  private readonly child: ChildProcess;
  private readonly control: Duplex;
  private readonly events = new EventEmitter();
  /** The supervisor has been reaped: its pid and group id are no longer ours to signal. */
  private isReaped = false;
  /** How the command exited (or why it never ran), as the supervisor reported it. */
  private last: Exclude<SupervisorReport, { kind: 'started' }> | undefined;
  /** In the environment of everything the command starts: what left the group is found by it (tree-mark.ts). */
  private readonly treeMark = newTreeMark();

  constructor(launch: SupervisedLaunch, options: SupervisedOptions) {
    const message: SupervisorLaunch = {
      command: launch.command,
      args: launch.args,
      // Last, so neither the host's environment nor a terminal/create's env can set it (tree-mark.ts).
      env: { ...launch.env, [TREE_MARK_VARIABLE]: this.treeMark },
      electronRunAsNode: launch.env['ELECTRON_RUN_AS_NODE'] ?? process.env['ELECTRON_RUN_AS_NODE'] ?? null,
      orphanGraceMs: launch.orphanGraceMs ?? 1000,
      holdGroup: launch.holdGroup ?? false,
      windowsBatch: launch.windowsBatch ?? true,
    };
    // The supervisor runs on the host's own executable: Node, or Electron asked to act as Node. Its own
    // environment is the host's; the command's (keys included) goes over the pipe, never into argv.
    this.child = spawn(process.execPath, [supervisorScript()], {
      cwd: options.cwd,
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      stdio: [options.stdin, 'pipe', 'pipe', 'pipe'],
      // Own process group, led by the supervisor: kill(-pid) reaches the whole tree the command starts.
      detached: true,
      windowsHide: true,
    });
    // First of the 'exit' listeners, so that nothing after the reap can still signal the pid.
    this.child.on('exit', () => {
      this.isReaped = true;
    });
    this.pid = this.child.pid;
    const [stdout, stderr, control] = [this.child.stdout, this.child.stderr, this.child.stdio[CONTROL_FD]];
    if (!stdout || !stderr || !(control instanceof Duplex) || (options.stdin === 'pipe' && !this.child.stdin))
      throw new Error('the supervisor has no pipes');
    this.stdin = this.child.stdin ?? undefined;
    this.stdout = stdout;
    this.stderr = stderr;
    // Writing to a dead command must surface as a close, never as an uncaught EPIPE; a read reset when its group is
    // killed, as the stream's end (its 'close' still follows).
    for (const stream of [this.stdin, stdout, stderr]) stream?.on('error', () => undefined);
    this.control = control;
    control.on('error', () => undefined);
    // Kept open for as long as this process lives: its end is how the supervisor learns that the host is gone.
    control.write(`${JSON.stringify(message)}\n`);
    const reports = createInterface({ input: control });
    reports.on('line', (line) => this.receive(line));
    // readline passes its input's errors on (a reset when the group is killed): the end of the reports, no more.
    reports.on('error', () => undefined);
  }

  get reaped(): boolean {
    return this.isReaped;
  }

  /** The command's exit or start failure, once reported. */
  get reported(): Exclude<SupervisorReport, { kind: 'started' }> | undefined {
    return this.last;
  }

  onReport(listener: (report: SupervisorReport) => void): void {
    this.events.on('report', listener);
  }

  /** The supervisor could not be started at all. */
  onSpawnError(listener: (error: Error) => void): void {
    this.child.on('error', listener);
  }

  /** The supervisor was reaped (its output may still be draining). */
  onSupervisorExit(listener: (code: number | null, signal: NodeJS.Signals | null) => void): void {
    this.child.on('exit', listener);
  }

  /** The supervisor was reaped and its output has ended. */
  onSupervisorClose(listener: (code: number | null, signal: NodeJS.Signals | null) => void): void {
    this.child.on('close', listener);
  }

  /**
   * The command's code and signal; the supervisor's own (`code`, `signal`, from its exit) stand in only when it
   * could not report the command's, say when the group was killed at once.
   */
  commandExit(supervisorCode: number | null, supervisorSignal: NodeJS.Signals | null): CommandExit {
    const reported = this.last;
    if (!reported) return { code: supervisorCode, signal: supervisorSignal };
    return reported.kind === 'exit' ? { code: reported.code, signal: reported.signal } : { code: null, signal: null };
  }

  /**
   * The supervisor (and the group it holds) no longer keeps the host's event loop alive. When the host ends, the
   * control pipe closes and the supervisor ends the group, as on any other death of the host.
   */
  unref(): void {
    this.child.unref();
    for (const stream of [this.stdin, this.stdout, this.stderr, this.control]) if (stream instanceof Socket) stream.unref();
  }

  /** Tells the supervisor that the host knows of the exit: the rest of the group may go. */
  release(): void {
    this.control.write(`${RELEASE}\n`);
  }

  killGroup(signal: NodeJS.Signals): void {
    if (this.pid === undefined || this.isReaped) return;
    if (process.platform === 'win32') {
      // No process groups: the tree under the supervisor, and no gentler step (a console app gets no SIGTERM).
      spawnSync('taskkill', ['/T', '/F', '/PID', String(this.pid)], { windowsHide: true, stdio: 'ignore' });
      return;
    }
    // What left the group (setsid) first: a SIGKILL to the group takes the supervisor, which would sweep it too.
    signalMarked(this.treeMark, signal);
    try {
      process.kill(-this.pid, signal);
    } catch {
      // already gone
    }
  }

  private receive(line: string): void {
    const report = parseReport(line);
    if (!report) return;
    if (report.kind === 'started') this.commandPid = report.pid;
    else this.last = report;
    this.events.emit('report', report);
  }
}
