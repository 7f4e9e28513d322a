/**
 * Serves `terminal/*`: runs the agent's command in the workspace (its own process group, so kill and release end
 * everything it started), keeps its output within the agent's byte limit, and tells listeners about output so
 * the chat and a VS Code terminal can show it live. After release the output stays for display.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { RpcError, RpcErrorCode } from '../acp/rpc-boundary';
import { terminalDisplayChars } from '../shared/model';
import { OutputBuffer } from './output-buffer';
import { confinePath } from './path-confinement';

export interface TerminalExitStatus {
  readonly exitCode: number | null;
  readonly signal: string | null;
}

export interface TerminalCreateParams {
  readonly command: string;
  readonly args?: readonly string[] | null;
  readonly env?: readonly { readonly name: string; readonly value: string }[] | null;
  readonly cwd?: string | null;
  readonly outputByteLimit?: number | null;
}

export interface TerminalEvents {
  /** `keep`: characters of the newest output worth showing (terminalDisplayChars of the agent's limit). */
  onOutput(terminalId: string, text: string, keep: number): void;
  onExit(terminalId: string, status: TerminalExitStatus): void;
}

interface RunningTerminal {
  readonly id: string;
  readonly child: ChildProcess;
  readonly output: OutputBuffer;
  exit: TerminalExitStatus | undefined;
  readonly exited: Promise<TerminalExitStatus>;
  released: boolean;
}

export class TerminalManager {
  private readonly terminals = new Map<string, RunningTerminal>();
  private nextId = 1;

  constructor(
    private readonly roots: () => readonly string[],
    private readonly defaultCwd: () => string | undefined,
    private readonly events: TerminalEvents,
  ) {}

  async create(params: TerminalCreateParams): Promise<{ terminalId: string }> {
    const cwd = await this.resolveCwd(params.cwd ?? undefined);
    const id = `term-${this.nextId++}`;
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const variable of params.env ?? []) env[variable.name] = variable.value;
    const child = spawn(params.command, [...(params.args ?? [])], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const output = new OutputBuffer(params.outputByteLimit ?? undefined);
    const keep = terminalDisplayChars(params.outputByteLimit ?? undefined);
    // One decoder per stream: a character split across two reads is sent whole, never as two broken halves.
    const listen = (stream: NodeJS.ReadableStream | null): void => {
      const decoder = new StringDecoder('utf8');
      stream?.on('data', (data: Buffer) => {
        output.append(data);
        const text = decoder.write(data);
        if (text) this.events.onOutput(id, text, keep);
      });
    };
    listen(child.stdout);
    listen(child.stderr);
    const exited = new Promise<TerminalExitStatus>((resolve) => {
      child.on('error', (error) => {
        const message = `${error.message}\n`;
        output.append(Buffer.from(message));
        this.events.onOutput(id, message, keep);
        resolve({ exitCode: null, signal: null });
      });
      child.on('close', (code, signal) => resolve({ exitCode: code, signal }));
      // 'close' waits for the pipes, which a background grandchild (`sleep 300 &`) holds open: the command has
      // exited all the same, so wait_for_exit answers shortly after 'exit' (time for the last output to drain).
      child.on('exit', (code, signal) => setTimeout(() => resolve({ exitCode: code, signal }), 200).unref());
    });
    const terminal: RunningTerminal = { id, child, output, exit: undefined, exited, released: false };
    void exited.then((status) => {
      terminal.exit = status;
      this.events.onExit(id, status);
    });
    this.terminals.set(id, terminal);
    return { terminalId: id };
  }

  output(terminalId: string): { output: string; truncated: boolean; exitStatus?: TerminalExitStatus } {
    const terminal = this.get(terminalId);
    return {
      output: terminal.output.text(),
      truncated: terminal.output.truncated,
      ...(terminal.exit ? { exitStatus: terminal.exit } : {}),
    };
  }

  async waitForExit(terminalId: string): Promise<TerminalExitStatus> {
    return this.get(terminalId).exited;
  }

  kill(terminalId: string): Record<string, never> {
    killGroup(this.get(terminalId).child);
    return {};
  }

  release(terminalId: string): Record<string, never> {
    const terminal = this.get(terminalId);
    killGroup(terminal.child);
    terminal.released = true;
    this.terminals.delete(terminalId);
    return {};
  }

  /** Ends every terminal (agent stopped, extension deactivated). */
  disposeAll(): void {
    for (const terminal of this.terminals.values()) killGroup(terminal.child);
    this.terminals.clear();
  }

  private get(terminalId: string): RunningTerminal {
    const terminal = this.terminals.get(terminalId);
    if (!terminal) throw new RpcError(RpcErrorCode.InvalidParams, `Unknown or released terminal ${terminalId}`);
    return terminal;
  }

  private async resolveCwd(requested: string | undefined): Promise<string> {
    const fallback = this.defaultCwd();
    if (requested === undefined) {
      if (!fallback) throw new RpcError(RpcErrorCode.InvalidParams, 'No workspace folder is open to run the command in');
      return fallback;
    }
    const verdict = await confinePath(requested, this.roots());
    if (!verdict.allowed) throw new RpcError(RpcErrorCode.InvalidParams, `Refused to run a command in ${requested}: ${verdict.reason}`);
    return verdict.realPath;
  }
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  // Even when the command itself has exited: what it left in the background (`sleep 300 &`) is still in its
  // group, and the group id cannot be taken by anyone else while a member lives (ESRCH when none is left).
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}
