/**
 * Agent configuration from settings. `acpClient.agents` has the shape of Zed's `agent_servers` so users can
 * paste theirs: `{ "<display name>": { command, args?, env? } }`. Invalid entries are reported, not fatal.
 */
import { z } from 'zod';

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
  /** The env variable an API key goes in: Sign In offers to store one in secret storage and pass it at spawn. */
  readonly apiKeyEnv?: string;
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
    const { command, args, env, protocolVersion, mcpServers, apiKeyEnv } = parsed.data;
    agents.push({
      name,
      command,
      args,
      env,
      ...(protocolVersion !== undefined ? { protocolVersion } : {}),
      ...(mcpServers !== undefined ? { mcpServers } : {}),
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
