/** What the session layer needs from its surroundings, so it runs in VS Code, in tests and in benchmarks alike. */
import type { AgentConfig } from '../agents/agent-config';

export interface SessionLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /** Wire tracing; called only when tracing is on. */
  trace(message: string): void;
}

export interface UserNotifier {
  /** A non-modal warning with action buttons; resolves with the chosen button, if any. */
  warn(message: string, ...actions: string[]): Promise<string | undefined>;
}

export interface SessionEnvironment {
  /** The working directory for the agent and `session/new`: the first workspace folder. */
  cwd(): string | undefined;
  /** Every workspace folder: commands the agent runs must start inside one. */
  roots(): readonly string[];
  /** Whether agents may run at all (workspace trust). */
  isTrusted(): boolean;
  trace(): 'off' | 'messages' | 'verbose';
  extensionVersion: string;
}

export interface AgentSource {
  /** The agent to start when none was chosen, if any. */
  defaultAgent(): AgentConfig | undefined;
}
