/**
 * One agent process. Spawned in its own process group so that stopping it also ends whatever a launcher
 * (`npx`, a shell shim) started under it. Stopping is a ladder, because some agents ignore stdin EOF:
 * close stdin -> wait -> SIGTERM the group -> wait -> SIGKILL the group.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { EventEmitter } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import type { AgentConfig } from './agent-config';
import { StderrTail } from './stderr-tail';

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
}

export class AgentProcess {
  readonly stdout: Readable;
  readonly stdin: Writable;
  readonly pid: number | undefined;
  private readonly child: ChildProcessWithoutNullStreams;
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
    this.child = spawn(config.command, [...config.args], {
      cwd: options.cwd,
      env: { ...process.env, ...config.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      // Own process group: kill(-pid) reaches the whole tree a launcher starts.
      detached: true,
      windowsHide: true,
    });
    this.pid = this.child.pid;
    this.stdout = this.child.stdout;
    this.stdin = this.child.stdin;
    // Writing to a dead agent must surface as a connection close, never as an uncaught EPIPE.
    this.child.stdin.on('error', () => undefined);
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (text: string) => {
      for (const line of this.stderr.push(text)) options.onStderrLine?.(line);
    });
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
      this.killGroup('SIGKILL'); // children of a launcher may outlive it
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
      this.child.stdin.end();
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
    if (this.pid === undefined) return;
    try {
      process.kill(-this.pid, signal);
    } catch {
      try {
        this.child.kill(signal);
      } catch {
        // already gone
      }
    }
  }

  private finish(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.exitInfo) return;
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
