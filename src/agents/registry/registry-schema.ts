/**
 * The ACP registry index (`registry.json`, built from the agentclientprotocol/registry repository's
 * `agent.schema.json`). Lenient where we only display (unknown fields pass, a malformed agent is dropped with a
 * reason instead of failing the whole index), strict on what we execute: the distribution's archive URL, checksum,
 * command, arguments and environment.
 */
import { z } from 'zod';

/** The platform keys the registry uses for binary builds. */
export const PLATFORMS = ['darwin-aarch64', 'darwin-x86_64', 'linux-aarch64', 'linux-x86_64', 'windows-aarch64', 'windows-x86_64'] as const;
export type Platform = (typeof PLATFORMS)[number];

const stringMap = z.record(z.string(), z.string());
const httpUrl = z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' });

const binaryTargetSchema = z.object({
  archive: httpUrl,
  sha256: z
    .string()
    .regex(/^[a-fA-F0-9]{64}$/, 'must be 64 hex digits')
    .optional(),
  cmd: z.string().min(1),
  args: z.array(z.string()).optional().default([]),
  env: stringMap.optional().default({}),
});
export type BinaryTarget = z.infer<typeof binaryTargetSchema>;

const packageDistributionSchema = z.object({
  // A leading dash would be read by npx/uvx as an option of theirs, not as a package.
  package: z
    .string()
    .min(1)
    .regex(/^[^-\s]\S*$/, 'must be a package name'),
  /** FORMAT.md: when set, run this command of the package instead of its default one. */
  cmd: z
    .string()
    .min(1)
    .regex(/^[^-\s]\S*$/, 'must be a command name')
    .optional(),
  args: z.array(z.string()).optional().default([]),
  env: stringMap.optional().default({}),
});
export type PackageDistribution = z.infer<typeof packageDistributionSchema>;

const distributionSchema = z.object({
  // Unknown platform keys are dropped (zod strips them) rather than failing the agent: the list grows over time.
  binary: z
    .object({
      'darwin-aarch64': binaryTargetSchema.optional(),
      'darwin-x86_64': binaryTargetSchema.optional(),
      'linux-aarch64': binaryTargetSchema.optional(),
      'linux-x86_64': binaryTargetSchema.optional(),
      'windows-aarch64': binaryTargetSchema.optional(),
      'windows-x86_64': binaryTargetSchema.optional(),
    } satisfies Record<Platform, z.ZodType>)
    .optional(),
  npx: packageDistributionSchema.optional(),
  uvx: packageDistributionSchema.optional(),
});

export const registryAgentSchema = z.looseObject({
  id: z.string().regex(/^[a-z][a-z0-9-]*$/, 'must be lowercase letters, digits and hyphens'),
  name: z.string().min(1),
  version: z.string().min(1),
  description: z.string().optional().default(''),
  license: z.string().optional(),
  repository: z.string().optional(),
  website: z.string().optional(),
  authors: z.array(z.string()).optional().default([]),
  icon: z.string().optional(),
  distribution: distributionSchema,
});
export type RegistryAgent = z.infer<typeof registryAgentSchema>;

export interface RegistryIndex {
  readonly version: string | undefined;
  readonly agents: readonly RegistryAgent[];
  /** One line per agent entry that was left out, saying why. */
  readonly problems: readonly string[];
}

const indexShape = z.looseObject({ version: z.string().optional(), agents: z.array(z.unknown()) });

/** Throws when the document is not a registry index at all; drops (and reports) single broken agents. */
export function parseRegistryIndex(raw: unknown): RegistryIndex {
  const index = indexShape.parse(raw);
  const agents: RegistryAgent[] = [];
  const problems: string[] = [];
  for (const entry of index.agents) {
    const parsed = registryAgentSchema.safeParse(entry);
    if (parsed.success) {
      agents.push(parsed.data);
      continue;
    }
    const id = typeof entry === 'object' && entry !== null && 'id' in entry ? String(entry.id) : '?';
    problems.push(
      `registry agent "${id}" skipped: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'entry'}: ${issue.message}`).join('; ')}`,
    );
  }
  return { version: index.version, agents, problems };
}
