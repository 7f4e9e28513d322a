/**
 * The sign-in methods an agent lists in its `initialize` answer, and whether it can log out. Parsed item by item:
 * one method we cannot use (an unknown `type`, a malformed entry) is left out, never the whole list.
 */
import { z } from 'zod';

/** `agent`: we send `authenticate {methodId}`. `terminal`: we run the agent's own command with `args`/`env` added. */
export type AuthMethod =
  | { readonly type: 'agent'; readonly id: string; readonly name: string; readonly description?: string }
  | {
      readonly type: 'terminal';
      readonly id: string;
      readonly name: string;
      readonly description?: string;
      readonly args: readonly string[];
      readonly env: Readonly<Record<string, string>>;
    };

const commonFields = {
  id: z.string().min(1),
  name: z.string(),
  description: z.string().nullish().catch(undefined),
};

// The spec: a missing `type` means `agent`; `null` args/env mean none.
const agentMethod = z.object({ ...commonFields, type: z.literal('agent').optional() }).loose();
const terminalMethod = z
  .object({
    ...commonFields,
    type: z.literal('terminal'),
    args: z.array(z.string()).nullish(),
    env: z.record(z.string(), z.string()).nullish(),
  })
  .loose();

export function parseAuthMethods(raw: readonly unknown[] | null | undefined, problems: string[]): AuthMethod[] {
  const methods: AuthMethod[] = [];
  for (const item of raw ?? []) {
    const terminal = terminalMethod.safeParse(item);
    if (terminal.success) {
      const { id, name, description, args, env } = terminal.data;
      methods.push({ type: 'terminal', id, name, ...(description ? { description } : {}), args: args ?? [], env: env ?? {} });
      continue;
    }
    const agent = agentMethod.safeParse(item);
    if (agent.success) {
      const { id, name, description } = agent.data;
      methods.push({ type: 'agent', id, name, ...(description ? { description } : {}) });
      continue;
    }
    problems.push(`authMethods: left out a method we cannot use: ${JSON.stringify(item).slice(0, 200)}`);
  }
  return methods;
}

/** `agentCapabilities.auth.logout`: present (even `{}`) means the agent serves `logout`. */
export function canLogOut(agentCapabilities: unknown): boolean {
  const parsed = z
    .object({
      auth: z
        .object({ logout: z.object({}).loose().nullish() })
        .loose()
        .nullish(),
    })
    .loose()
    .safeParse(agentCapabilities);
  return parsed.success && parsed.data.auth?.logout !== undefined && parsed.data.auth.logout !== null;
}
