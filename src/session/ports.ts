/** What the session layer needs from its surroundings, so it runs in VS Code, in tests and in benchmarks alike. */
import type { TraceLevel } from '../acp/log-sink';
import type { AgentConfig } from '../agents/agent-config';
import type { ResolvedMcpServer } from '../agents/mcp-references';

/** The agents the user can chat with (settings and installed ones), and the one to start when none was chosen. */
export interface AgentCatalog {
  agents(): readonly AgentConfig[];
  defaultAgent(): AgentConfig | undefined;
}

export interface UserNotifier {
  /** A non-modal warning with action buttons; resolves with the chosen button, if any. */
  warn(message: string, ...actions: string[]): Promise<string | undefined>;
  /**
   * A non-modal information message: news about a conversation no longer open to say it in, or why a toast's button
   * clicked after its moment passed does nothing.
   */
  info(message: string): void;
}

export interface SessionEnvironment {
  /** The working directory for the agent and `session/new`: the first workspace folder. */
  cwd(): string | undefined;
  /** Every workspace folder: commands the agent runs must start inside one. */
  roots(): readonly string[];
  /** Whether agents may run at all (workspace trust). */
  isTrusted(): boolean;
  trace(): TraceLevel;
  /** How long `initialize` and `session/new` may take before the chat says the agent is not responding. */
  startupTimeoutMs(): number;
  /** How long an agent may sit with no turn running before it is stopped (0: never). Absent: never. */
  idleTimeoutMs?(): number;
  extensionVersion: string;
}

/** The MCP servers an agent gets: configured, switched off per agent, references resolved (may ask for a secret). */
export interface McpServerSource {
  forAgent(agent: AgentConfig): Promise<{ readonly servers: readonly ResolvedMcpServer[]; readonly problems: readonly string[] }>;
}

/**
 * Whether an agent may start: a definition the workspace wrote runs only once the user approved it. Undefined: go;
 * else what the chat says instead (why, and how to approve it later).
 */
export interface LaunchApproval {
  refusal(agent: AgentConfig): Promise<{ readonly title: string; readonly detail: string } | undefined>;
}
