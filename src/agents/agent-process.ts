/**
 * One agent process, started through its supervisor (supervisor/agent-supervisor.ts), which leads the agent's
 * process group, ends the whole tree if the extension host dies without `deactivate`, and tells us how the agent
 * exited. Stopping also ends whatever a launcher (`npx`, a shell shim) started under the agent. Stopping is a
 * ladder, because some agents ignore stdin EOF: close stdin -> wait -> SIGTERM the group -> wait -> SIGKILL.
 *
 * Nothing is signalled once the supervisor has been reaped (supervisor/supervised-process.ts).
 */
import { EventEmitter } from 'node:events';
import { homedir } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import type { AgentConfig } from './agent-config';
import { argsOutsideWorkspace } from './launcher-prefix';
import { StderrLogBudget } from './stderr-log-budget';
import { StderrTail } from './stderr-tail';
import { SupervisedProcess } from './supervisor/supervised-process';

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
  /** The lines to log, within a budget per process (stderr-log-budget.ts): an agent may write without end. */
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
  private readonly supervised: SupervisedProcess;
  private readonly stderr = new StderrTail();
  private readonly stderrLog = new StderrLogBudget();
  private readonly events = new EventEmitter();
  private exitInfo: AgentExit | undefined;
  private stopRequested = false;
  private fault: string | undefined;
  private stopping: Promise<AgentExit> | undefined;

  constructor(
    readonly config: AgentConfig,
    private readonly options: AgentProcessOptions,
  ) {
    this.supervised = new SupervisedProcess(
      {
        command: config.command,
        // The launcher (npx) must not take the agent from the workspace it starts in: launcher-prefix.ts.
        args: argsOutsideWorkspace(config.command, config.args, homedir()),
        env: config.env,
        orphanGraceMs: options.orphanGraceMs ?? 1000,
      },
      { cwd: options.cwd, stdin: 'pipe' },
    );
    const supervised = this.supervised;
    this.pid = supervised.pid;
    this.stdout = supervised.stdout;
    this.stdin = supervised.stdin!; // asked for with stdin: 'pipe'
    supervised.stderr.setEncoding('utf8');
    const onStderrLine = options.onStderrLine;
    supervised.stderr.on('data', (text: string) => {
      this.stderr.push(text);
      if (onStderrLine) for (const line of this.stderrLog.push(text)) onStderrLine(line);
    });
    supervised.onReport((report) => {
      if (report.kind === 'error') this.stderr.push(`${report.message}\n`);
      // The agent's exit: the supervisor may end what the launcher left in the group.
      if (report.kind === 'exit') supervised.release();
    });
    supervised.onSpawnError((error) => {
      this.stderr.push(`${error.message}\n`);
      this.finish(null, null);
    });
    // 'close' comes after stderr is drained, so the crash explanation has the last lines; a grandchild holding
    // the pipes open must not delay the exit forever, hence the fallback after 'exit'.
    supervised.onSupervisorExit((code, signal) => {
      setTimeout(() => this.finish(code, signal), 300).unref();
    });
    supervised.onSupervisorClose((code, signal) => this.finish(code, signal));
  }

  /** The agent's own pid, once the supervisor has started it. */
  get agentPid(): number | undefined {
    return this.supervised.commandPid;
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
    this.supervised.killGroup(signal);
  }

  /**
   * The agent has exited (its exit is reported once its output is drained): the end of its output that follows
   * is that exit, not a fault.
   */
  get exiting(): boolean {
    return this.exitInfo !== undefined || this.supervised.reported?.kind === 'exit';
  }

  private finish(supervisorCode: number | null, supervisorSignal: NodeJS.Signals | null): void {
    if (this.exitInfo) return;
    const { code, signal } = this.supervised.commandExit(supervisorCode, supervisorSignal);
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
