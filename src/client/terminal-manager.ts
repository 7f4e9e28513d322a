/**
 * Serves `terminal/*`: runs the agent's command in the workspace under a supervisor (terminal-run.ts: its own
 * process group, so kill and release end everything it started, and nothing outlives the extension host), keeps its
 * output within the agent's byte limit, bounds how many terminals an agent keeps, and tells listeners about output
 * so the chat and a VS Code terminal can show it live. After release the output stays for display.
 */
import { RpcError, RpcErrorCode } from '../acp/rpc-boundary';
import { terminalDisplayChars } from '../shared/model';
import { confinePath } from './path-confinement';
import { TerminalRun, type TerminalExitStatus } from './terminal-run';

export type { TerminalExitStatus } from './terminal-run';

/**
 * Terminals an agent may hold at once (created, not yet released; an exited command counts until then, since its
 * output and its group are kept). Each is a supervisor (a Node process of some tens of MB), a command tree and up to
 * the agent's output limit; 16 is more than an agent runs side by side in practice (a build, a dev server, tests and
 * a few quick commands), while 20 held commands were seen keeping 371 MB alive.
 */
export const MAX_LIVE_TERMINALS = 16;

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

export class TerminalManager {
  private readonly terminals = new Map<string, TerminalRun>();
  private nextId = 1;

  constructor(
    private readonly roots: () => readonly string[],
    private readonly defaultCwd: () => string | undefined,
    private readonly events: TerminalEvents,
  ) {}

  async create(params: TerminalCreateParams): Promise<{ terminalId: string }> {
    const cwd = await this.resolveCwd(params.cwd ?? undefined);
    // Counted after the await, right before the terminal is added: creates in flight cannot pass the cap together.
    if (this.terminals.size >= MAX_LIVE_TERMINALS)
      throw new RpcError(
        RpcErrorCode.InvalidRequest,
        `Too many terminals: ${MAX_LIVE_TERMINALS} are not released yet. Release the terminals you no longer need ` +
          '(terminal/release), then create this one again.',
      );
    const id = `term-${this.nextId++}`;
    const env: Record<string, string> = {};
    for (const variable of params.env ?? []) env[variable.name] = variable.value;
    const keep = terminalDisplayChars(params.outputByteLimit ?? undefined);
    const terminal = new TerminalRun(
      { command: params.command, args: [...(params.args ?? [])], env, cwd, outputByteLimit: params.outputByteLimit ?? undefined },
      (text) => this.events.onOutput(id, text, keep),
    );
    void terminal.exited.then((status) => this.events.onExit(id, status));
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
    this.get(terminalId).kill();
    return {};
  }

  release(terminalId: string): Record<string, never> {
    this.get(terminalId).kill();
    this.terminals.delete(terminalId);
    return {};
  }

  /** Ends every terminal (agent stopped, extension deactivated). */
  disposeAll(): void {
    for (const terminal of this.terminals.values()) terminal.kill();
    this.terminals.clear();
  }

  private get(terminalId: string): TerminalRun {
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
