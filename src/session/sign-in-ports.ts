/** What signing in needs from the editor: a picker, a progress notification, a terminal. */
import type { AuthMethod } from '../acp/schemas/auth-methods';
import type { CancellationSignal } from '../client/ports';

/** Exactly what a terminal sign-in runs: the agent's own command, the method's args appended, its env on top. */
export interface TerminalSignInCommand {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
}

export interface SignInPrompts {
  /** The agent's methods by name and description; undefined when the user dismisses the picker. */
  pickMethod(agentName: string, methods: readonly AuthMethod[]): Promise<AuthMethod | undefined>;
  /** Runs `task` while a cancellable progress notification says `title`; `signal` fires when the user cancels. */
  withProgress<T>(title: string, task: (signal: CancellationSignal) => Promise<T>): Promise<T>;
  /** Opens an interactive terminal running `command`; resolves with its exit code once it has exited (undefined: unknown). */
  runInTerminal(command: TerminalSignInCommand): Promise<number | undefined>;
}
