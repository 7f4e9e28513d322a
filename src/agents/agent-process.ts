/**
 * One agent process, started through its supervisor (supervisor/agent-supervisor.ts), which leads the agent's
 * process group, ends the whole tree if the extension host dies without `deactivate`, and tells us how the agent
 * exited. Stopping also ends whatever a launcher (`npx`, a shell shim) started under the agent. Stopping is a
 * ladder, because some agents ignore stdin EOF: close stdin -> wait -> SIGTERM the group -> wait -> SIGKILL.
 *
 * Nothing is signalled once the supervisor has been reaped: its pid, and so the group id, may belong to another
 * program by then. Until then the id is ours, since the supervisor only exits after the rest of its group.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { homedir } from 'node:os';
import { createInterface } from 'node:readline';
import { Duplex, type Readable, type Writable } from 'node:stream';
import type { AgentConfig } from './agent-config';
import { argsOutsideWorkspace } from './launcher-prefix';
import { StderrTail } from './stderr-tail';
import { CONTROL_FD, parseReport, RELEASE, type SupervisorLaunch, type SupervisorReport } from './supervisor/supervisor-protocol';
import { supervisorScript } from './supervisor/supervisor-script';

export interface AgentExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** True when we asked it to stop (not a crash). */
  readonly requested: boolean;
  /** Why we stopped it ourselves when it misbehaved (it is still a failure, not a requested stop). */
  readonly fault?: string;
  readonly stderrTail: readonly string[];
}

export interface AgentProcessOptions {
  readonly cwd: string;
  readonly onStderrLine?: (line: string) => void;
  /** Grace periods of the stop ladder, in ms. */
  readonly stdinGraceMs?: number;
  readonly termGraceMs?: number;
  /** How long the tree has after SIGTERM, once the host is gone, before SIGKILL. */
  readonly orphanGraceMs?: number;
}

export class AgentProcess {
  readonly stdout: Readable;
  readonly stdin: Writable;
  /** The supervisor's pid, which is the id of the agent's process group. */
  readonly pid: number | undefined;
  /** The agent's own pid, once the supervisor has started it. */
  agentPid: number | undefined;
  private readonly child: ChildProcess;
  /** The supervisor has been reaped: its pid and group id are no longer ours to signal. */
  private reaped = false;
  /** How the agent exited (or why it never ran), as the supervisor reported it. */
  private reported: SupervisorReport | undefined;
  /** The pipe to the supervisor: the launch, then `release`; it stays open for as long as the host lives. */
  private readonly control: Duplex | undefined;
  private readonly stderr = new StderrTail();
  private readonly events = new EventEmitter();
  private exitInfo: AgentExit | undefined;
  private stopRequested = false;
  private fault: string | undefined;
  private stopping: Promise<AgentExit> | undefined;

  constructor(
    readonly config: AgentConfig,
    private readonly options: AgentProcessOptions,
  ) {
    const launch: SupervisorLaunch = {
      command: config.command,
      // The launcher (npx) must not take the agent from the workspace it starts in: launcher-prefix.ts.
      args: argsOutsideWorkspace(config.command, config.args, homedir()),
      env: config.env,
      electronRunAsNode: config.env['ELECTRON_RUN_AS_NODE'] ?? process.env['ELECTRON_RUN_AS_NODE'] ?? null,
      orphanGraceMs: options.orphanGraceMs ?? 1000,
    };
    // The supervisor runs on the host's own executable: Node, or Electron asked to act as Node. Its own
    // environment is the host's; the agent's (keys included) goes over the pipe, never into argv.
    this.child = spawn(process.execPath, [supervisorScript()], {
      cwd: options.cwd,
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
      // Own process group, led by the supervisor: kill(-pid) reaches the whole tree a launcher starts.
      detached: true,
      windowsHide: true,
    });
    // First of the 'exit' listeners, so that nothing after the reap can still signal the pid.
    this.child.on('exit', () => {
      this.reaped = true;
    });
    this.pid = this.child.pid;
    const [stdin, stdout, stderr, control] = [this.child.stdin, this.child.stdout, this.child.stderr, this.child.stdio[CONTROL_FD]];
    if (!stdin || !stdout || !stderr || !(control instanceof Duplex)) throw new Error('the agent supervisor has no pipes');
    this.stdout = stdout;
    this.stdin = stdin;
    // Writing to a dead agent must surface as a connection close, never as an uncaught EPIPE; a read reset when
    // its group is killed, as the stream's end (its 'close' still follows).
    for (const stream of [stdin, stdout, stderr]) stream.on('error', () => undefined);
    stderr.setEncoding('utf8');
    stderr.on('data', (text: string) => {
      for (const line of this.stderr.push(text)) options.onStderrLine?.(line);
    });
    this.control = control;
    control.on('error', () => undefined);
    // Kept open for as long as this process lives: its end is how the supervisor learns that the host is gone.
    control.write(`${JSON.stringify(launch)}\n`);
    const reports = createInterface({ input: control });
    reports.on('line', (line) => this.receive(line));
    // readline passes its input's errors on (a reset when the group is killed): the end of the reports, no more.
    reports.on('error', () => undefined);
    this.child.on('error', (error: Error) => {
      this.stderr.push(`${error.message}\n`);
      this.finish(null, null);
    });
    // 'close' comes after stderr is drained, so the crash explanation has the last lines; a grandchild holding
    // the pipes open must not delay the exit forever, hence the fallback after 'exit'.
    this.child.on('exit', (code, signal) => {
      setTimeout(() => this.finish(code, signal), 300).unref();
    });
    this.child.on('close', (code: number | null, signal: NodeJS.Signals | null) => this.finish(code, signal));
  }

  get exited(): AgentExit | undefined {
    return this.exitInfo;
  }

  onExit(listener: (exit: AgentExit) => void): { dispose(): void } {
    if (this.exitInfo) {
      const info = this.exitInfo;
      queueMicrotask(() => listener(info));
      return { dispose: () => undefined };
    }
    this.events.on('exit', listener);
    return { dispose: () => this.events.off('exit', listener) };
  }

  stderrTail(count = 5): string[] {
    return this.stderr.last(count);
  }

  /** Stops an agent that can no longer do its job (say, it closed its output): its exit reads as a failure. */
  stopForFault(reason: string): Promise<AgentExit> {
    if (!this.exitInfo && !this.stopping) this.fault = reason;
    const stopping = this.stop();
    if (this.fault !== undefined) this.stopRequested = false;
    return stopping;
  }

  /** Runs the stop ladder; resolves when the process has exited. Safe to call more than once. */
  stop(): Promise<AgentExit> {
    if (this.exitInfo) {
      this.killGroup('SIGKILL'); // only while the supervisor is not reaped: then it is still ours
      return Promise.resolve(this.exitInfo);
    }
    if (this.stopping) return this.stopping;
    this.stopRequested = true;
    const stdinGrace = this.options.stdinGraceMs ?? 1500;
    const termGrace = this.options.termGraceMs ?? 1500;
    this.stopping = new Promise<AgentExit>((resolve) => {
      const timers: NodeJS.Timeout[] = [];
      this.onExit((exit) => {
        timers.forEach(clearTimeout);
        // The group may still hold grandchildren that ignored the parent's exit.
        this.killGroup('SIGKILL');
        resolve(exit);
      });
      this.stdin.end();
      timers.push(setTimeout(() => this.killGroup('SIGTERM'), stdinGrace));
      timers.push(setTimeout(() => this.killGroup('SIGKILL'), stdinGrace + termGrace));
    });
    return this.stopping;
  }

  /** Immediate, synchronous kill of the whole group: for deactivation, where nothing can be awaited long. */
  killNow(): void {
    this.stopRequested = true;
    this.killGroup('SIGKILL');
  }

  private killGroup(signal: NodeJS.Signals): void {
    if (this.pid === undefined || this.reaped) return;
    if (process.platform === 'win32') {
      // No process groups: the tree under the supervisor, and no gentler step (a console app gets no SIGTERM).
      spawnSync('taskkill', ['/T', '/F', '/PID', String(this.pid)], { windowsHide: true, stdio: 'ignore' });
      return;
    }
    try {
      process.kill(-this.pid, signal);
    } catch {
      // already gone
    }
  }

  private receive(line: string): void {
    const report = parseReport(line);
    if (report?.kind === 'started') this.agentPid = report.pid;
    else if (report?.kind === 'error') this.stderr.push(`${report.message}\n`);
    if (report && report.kind !== 'started') this.reported = report;
    if (report?.kind === 'exit') this.control?.write(`${RELEASE}\n`);
  }

  /**
   * The agent has exited (its exit is reported once its output is drained): the end of its output that follows
   * is that exit, not a fault.
   */
  get exiting(): boolean {
    return this.exitInfo !== undefined || this.reported?.kind === 'exit';
  }

  /** The supervisor's own code and signal stand in only when it could not report the agent's (killed at once). */
  private finish(supervisorCode: number | null, supervisorSignal: NodeJS.Signals | null): void {
    if (this.exitInfo) return;
    const reported = this.reported;
    const code = reported ? (reported.kind === 'exit' ? reported.code : null) : supervisorCode;
    const signal = reported ? (reported.kind === 'exit' ? reported.signal : null) : supervisorSignal;
    this.exitInfo = {
      code,
      signal,
      requested: this.stopRequested,
      ...(this.fault !== undefined ? { fault: this.fault } : {}),
      stderrTail: this.stderr.last(8),
    };
    this.events.emit('exit', this.exitInfo);
  }
}
