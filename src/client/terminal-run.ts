/**
 * One command an agent runs through `terminal/create`, under the same supervisor as an agent
 * (agents/supervisor/supervised-process.ts): it leads the command's process group, so kill and release end
 * everything the command started, and the whole tree ends when the extension host dies without `deactivate`. The
 * supervisor holds the group after the command exits (what it left in the background is the agent's until it
 * releases the terminal), and the exit status is the command's own, as the supervisor reported it.
 */
import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';
import { SupervisedProcess } from '../agents/supervisor/supervised-process';
import { OutputBuffer } from './output-buffer';

export interface TerminalExitStatus {
  readonly exitCode: number | null;
  readonly signal: string | null;
}

export interface TerminalLaunch {
  readonly command: string;
  readonly args: readonly string[];
  /** Set over the host's environment. */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  readonly outputByteLimit: number | undefined;
}

/** How long the output has to drain after the command's exit when a background child still holds it open. */
const DRAIN_MS = 200;

export class TerminalRun {
  readonly output: OutputBuffer;
  exit: TerminalExitStatus | undefined;
  readonly exited: Promise<TerminalExitStatus>;
  private readonly supervised: SupervisedProcess;

  constructor(launch: TerminalLaunch, onOutput: (text: string) => void) {
    this.output = new OutputBuffer(launch.outputByteLimit);
    // Terminals keep their Windows behaviour from before the supervisor: the command is started as given.
    this.supervised = new SupervisedProcess(
      { command: launch.command, args: launch.args, env: launch.env, holdGroup: true, windowsBatch: false },
      { cwd: launch.cwd, stdin: 'ignore' },
    );
    const supervised = this.supervised;
    const say = (text: string): void => {
      this.output.append(Buffer.from(text));
      onOutput(text);
    };
    // One decoder per stream: a character split across two reads is sent whole, never as two broken halves.
    const listen = (stream: Readable): Promise<void> => {
      const decoder = new StringDecoder('utf8');
      stream.on('data', (data: Buffer) => {
        this.output.append(data);
        const text = decoder.write(data);
        if (text) onOutput(text);
      });
      return new Promise((resolve) => stream.once('close', resolve));
    };
    const drained = Promise.all([listen(supervised.stdout), listen(supervised.stderr)]);
    this.exited = new Promise<TerminalExitStatus>((resolve) => {
      const settle = (code: number | null, signal: string | null): void => resolve({ exitCode: code, signal });
      supervised.onReport((report) => {
        if (report.kind === 'error') say(`${report.message}\n`);
        if (report.kind !== 'exit') return;
        // The supervisor lets go of the output at the command's start, so its end means everything is in; a
        // background grandchild (`sleep 300 &`) holding it open must not delay the answer beyond a short drain.
        const status = (): void => {
          settle(report.code, report.signal);
          // What the supervisor still holds (a background child) does not keep a Node host running, as a finished
          // command never did; it still ends with the host.
          supervised.unref();
        };
        void drained.then(status);
        setTimeout(status, DRAIN_MS).unref();
      });
      supervised.onSpawnError((error) => {
        say(`${error.message}\n`);
        settle(null, null);
      });
      // Without an exit report (the group killed at once, or the command never started): the supervisor's exit.
      const fallback = (code: number | null, signal: NodeJS.Signals | null): void => {
        const exit = supervised.commandExit(code, signal);
        settle(exit.code, exit.signal);
      };
      supervised.onSupervisorClose(fallback);
      supervised.onSupervisorExit((code, signal) => setTimeout(() => fallback(code, signal), DRAIN_MS).unref());
    });
    void this.exited.then((status) => (this.exit = status));
  }

  /**
   * Ends the command and everything it started. Also after the command's own exit: what it left in the background
   * is still in the group, which the supervisor holds until this kill (never signalled once it is reaped).
   */
  kill(): void {
    this.supervised.killGroup('SIGKILL');
  }
}
