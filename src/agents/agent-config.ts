/**
 * Agent configuration from settings. `acpClient.agents` has the shape of Zed's `agent_servers` so users can
 * paste theirs: `{ "<display name>": { command, args?, env? } }`. Invalid entries are reported, not fatal.
 */
import { z } from 'zod';
import { entriesByScope, originOf, type DefinitionOrigin, type InspectedSetting } from './definition-scopes';

/** Which ACP version to offer: 1 (stable), 2 (the draft, falling back to 1), or auto (offer 2, accept either). */
export type ProtocolPreference = 1 | 2 | 'auto';

export interface AgentConfig {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** Absent: the global `acpClient.protocolVersion`. */
  readonly protocolVersion?: ProtocolPreference;
  /** `false`: this agent gets none of the configured MCP servers. */
  readonly mcpServers?: boolean;
  /** `false`: this agent is not offered the editor's own MCP server (its language services as tools). */
  readonly editorTools?: boolean;
  /** The env variable an API key goes in: Sign In offers to store one in secret storage and pass it at spawn. */
  readonly apiKeyEnv?: string;
  /** Absent: the user's own (settings or an install). A workspace's definition runs only once approved. */
  readonly origin?: DefinitionOrigin;
}

/**
 * Whose API key in secret storage this agent gets: a user's definition keeps the name it always had (existing keys
 * stay), a workspace's definition its workspace and exact definition, never a name a workspace could claim.
 */
export function apiKeyOwner(agent: AgentConfig): string {
  const origin = agent.origin;
  return origin?.kind === 'workspace' ? `workspace.${origin.workspaceKey}.${origin.fingerprint}` : agent.name;
}

/** Accepts 1, 2, "1", "2" and "auto", as people write them in settings.json. */
export const protocolPreferenceSchema = z
  .union([z.literal(1), z.literal(2), z.literal('1'), z.literal('2'), z.literal('auto')])
  .transform((value): ProtocolPreference => (value === 'auto' ? 'auto' : value === 2 || value === '2' ? 2 : 1));

const agentEntrySchema = z.object({
  command: z.string().min(1, 'command must not be empty'),
  args: z.array(z.string()).optional().default([]),
  env: z.record(z.string(), z.string()).optional().default({}),
  protocolVersion: protocolPreferenceSchema.optional(),
  mcpServers: z.boolean().optional(),
  editorTools: z.boolean().optional(),
  apiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'apiKeyEnv must be an environment variable name')
    .optional(),
});

export interface ParsedAgents {
  readonly agents: readonly AgentConfig[];
  /** One line per entry that was skipped, saying why. */
  readonly problems: readonly string[];
}

/**
 * `acpClient.agents` scope by scope (`inspect()`): an agent the workspace names is its definition alone (no `env`
 * of the user's entry of that name), marked as the workspace's with a fingerprint of everything that runs.
 */
export function resolveAgentsSetting(inspected: InspectedSetting | undefined, workspaceKey: string): ParsedAgents {
  const agents: AgentConfig[] = [];
  const problems: string[] = [];
  for (const entry of entriesByScope(inspected)) {
    const parsed = parseAgentsSetting({ [entry.name]: entry.raw });
    problems.push(...parsed.problems);
    for (const agent of parsed.agents)
      agents.push(
        entry.from === 'user' ? agent : { ...agent, origin: originOf('workspace', agent, "this workspace's settings", workspaceKey) },
      );
  }
  return { agents, problems };
}

export function parseAgentsSetting(raw: unknown): ParsedAgents {
  if (raw === undefined || raw === null) return { agents: [], problems: [] };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    return { agents: [], problems: ['acpClient.agents must be an object keyed by agent name'] };
  }
  const agents: AgentConfig[] = [];
  const problems: string[] = [];
  for (const [name, entry] of Object.entries(raw)) {
    const parsed = agentEntrySchema.safeParse(entry);
    if (!parsed.success) {
      const reason = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'entry'}: ${issue.message}`).join('; ');
      problems.push(`acpClient.agents["${name}"] skipped: ${reason}`);
      continue;
    }
    const { command, args, env, protocolVersion, mcpServers, editorTools, apiKeyEnv } = parsed.data;
    agents.push({
      name,
      command,
      args,
      env,
      ...(protocolVersion !== undefined ? { protocolVersion } : {}),
      ...(mcpServers !== undefined ? { mcpServers } : {}),
      ...(editorTools !== undefined ? { editorTools } : {}),
      ...(apiKeyEnv !== undefined ? { apiKeyEnv } : {}),
    });
  }
  return { agents, problems };
}

/** The agent to start: the configured default when it exists, else the only agent, else none (ask). */
export function pickDefaultAgent(agents: readonly AgentConfig[], defaultName: string | undefined): AgentConfig | undefined {
  if (defaultName) {
    const named = agents.find((agent) => agent.name === defaultName);
    if (named) return named;
  }
  return agents.length === 1 ? agents[0] : undefined;
}
