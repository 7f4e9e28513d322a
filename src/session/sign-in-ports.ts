/** What signing in needs from the editor: a picker, a progress notification, a terminal. */
import type { AuthMethod } from '../acp/schemas/auth-methods';
import type { CancellationSignal } from '../acp/rpc-boundary';

/** Exactly what a terminal sign-in runs: the agent's own command, the method's args appended, its env on top. */
export interface TerminalSignInCommand {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
}

/** What the user picked: one of the agent's methods, or to type an API key (offered when `apiKeyEnv` is set). */
export type SignInChoice = AuthMethod | { readonly type: 'api_key'; readonly envName: string };

export interface SignInPrompts {
  /** The agent's methods by name and description, then "Enter API key…" when `apiKeyEnv` is given; undefined when dismissed. */
  pickMethod(agentName: string, methods: readonly AuthMethod[], apiKeyEnv: string | undefined): Promise<SignInChoice | undefined>;
  /** A password box for the agent's API key; undefined when dismissed. */
  askApiKey(agentName: string, envName: string): Promise<string | undefined>;
  /** Runs `task` while a cancellable progress notification says `title`; `signal` fires when the user cancels. */
  withProgress<T>(title: string, task: (signal: CancellationSignal) => Promise<T>): Promise<T>;
  /** Opens an interactive terminal running `command`; resolves with its exit code once it has exited (undefined: unknown). */
  runInTerminal(command: TerminalSignInCommand): Promise<number | undefined>;
}

/** API keys the user typed, per agent name: kept in the editor's secret storage, never in settings or logs. */
export interface AgentSecrets {
  apiKey(agentName: string): Promise<string | undefined>;
  storeApiKey(agentName: string, key: string): Promise<void>;
}
