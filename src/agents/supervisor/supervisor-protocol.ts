/**
 * What the agent supervisor (agent-supervisor.ts) and the host say to each other over the supervisor's fd 3 (a
 * pipe to the host): the host writes the launch as the first JSON line (not in argv or in the supervisor's own
 * environment, where other users and `ps` could read the agent's keys), the supervisor answers with one JSON line
 * per event, and answers the agent's exit with a `release` line. The pipe closing tells the supervisor that the host
 * is gone.
 */
import { constants } from 'node:os';

export interface SupervisorLaunch {
  readonly command: string;
  readonly args: readonly string[];
  /** Set over the host's environment for the agent (its settings' env, the stored key). */
  readonly env: Readonly<Record<string, string>>;
  /**
   * The agent's value of ELECTRON_RUN_AS_NODE (null: unset). The supervisor runs on the host's own executable,
   * which in desktop VS Code is Electron and needs that variable to act as Node; the agent gets its own value back.
   */
  readonly electronRunAsNode: string | null;
  /** How long the agent's group has after SIGTERM, once the host is gone, before SIGKILL. */
  readonly orphanGraceMs: number;
  /**
   * Keep the group after the command exits, until the host kills it or goes (a terminal: what its command left in
   * the background runs, and prints, until the agent releases the terminal). Else the group goes at `release`.
   */
  readonly holdGroup: boolean;
  /**
   * On Windows, start a `.cmd`/`.bat` command through cmd.exe with its arguments escaped (windows-command.ts): an
   * agent's launcher (`npx`) is such a shim. A terminal's command is started as given, as it always was.
   */
  readonly windowsBatch: boolean;
}

export type SupervisorReport =
  | { readonly kind: 'started'; readonly pid: number }
  | { readonly kind: 'exit'; readonly code: number | null; readonly signal: NodeJS.Signals | null }
  | { readonly kind: 'error'; readonly message: string };

/** The host's answer to an `exit` report: it knows, so the rest of the group may go. */
export const RELEASE = 'release';

/** The fd of the pipe to the host in the supervisor (stdin, stdout and stderr are the command's). */
export const CONTROL_FD = 3;

function isSignal(name: string): name is NodeJS.Signals {
  return Object.prototype.hasOwnProperty.call(constants.signals, name);
}

export function parseReport(line: string): SupervisorReport | undefined {
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value !== 'object' || value === null || !('kind' in value)) return undefined;
    if (value.kind === 'started' && 'pid' in value && typeof value.pid === 'number') return { kind: 'started', pid: value.pid };
    if (value.kind === 'error' && 'message' in value && typeof value.message === 'string') return { kind: 'error', message: value.message };
    if (value.kind === 'exit' && 'code' in value && 'signal' in value) {
      const code = typeof value.code === 'number' ? value.code : null;
      const signal = typeof value.signal === 'string' && isSignal(value.signal) ? value.signal : null;
      return { kind: 'exit', code, signal };
    }
  } catch {
    // not a report
  }
  return undefined;
}

/** The launch line the host wrote; undefined for anything else. */
export function parseLaunch(line: string): SupervisorLaunch | undefined {
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value !== 'object' || value === null) return undefined;
    if (!('command' in value) || typeof value.command !== 'string') return undefined;
    if (!('args' in value) || !isStrings(value.args)) return undefined;
    if (!('env' in value) || typeof value.env !== 'object' || value.env === null) return undefined;
    const env: Record<string, string> = {};
    for (const [name, text] of Object.entries(value.env)) if (typeof text === 'string') env[name] = text;
    const electron = 'electronRunAsNode' in value && typeof value.electronRunAsNode === 'string' ? value.electronRunAsNode : null;
    const grace = 'orphanGraceMs' in value && typeof value.orphanGraceMs === 'number' ? value.orphanGraceMs : 1000;
    const holdGroup = 'holdGroup' in value && value.holdGroup === true;
    const windowsBatch = !('windowsBatch' in value) || value.windowsBatch !== false;
    return { command: value.command, args: value.args, env, electronRunAsNode: electron, orphanGraceMs: grace, holdGroup, windowsBatch };
  } catch {
    return undefined;
  }
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
