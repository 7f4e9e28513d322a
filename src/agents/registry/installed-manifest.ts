/**
 * The record of installed agents: a small JSON file in global storage. Read through zod (it is on disk, and a
 * hand edit or an older build may have written it); a broken file reads as "nothing installed" plus a problem,
 * never as a crash. Written aside and renamed, so it is never torn.
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { z } from 'zod';
import { errorMessage } from '../../shared/error-text';

const installedAgentSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  version: z.string().min(1),
  pinned: z.boolean().default(false),
  kind: z.enum(['binary', 'npx', 'uvx']),
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
  /** Binary installs only: the version folder that `uninstall` and `update` remove. */
  folder: z.string().optional(),
});
export type InstalledAgent = z.infer<typeof installedAgentSchema>;

const manifestSchema = z.object({ agents: z.array(installedAgentSchema) });

export interface ManifestRead {
  readonly agents: readonly InstalledAgent[];
  readonly problem?: string;
}

export async function readManifest(file: string): Promise<ManifestRead> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return { agents: [] };
  }
  try {
    const parsed = manifestSchema.safeParse(JSON.parse(text));
    if (parsed.success) return { agents: parsed.data.agents };
    return {
      agents: [],
      problem: `${file} is not a valid list of installed agents: ${parsed.error.issues[0]?.message ?? 'unknown shape'}`,
    };
  } catch (error) {
    return { agents: [], problem: `${file} is not JSON: ${errorMessage(error)}` };
  }
}

export async function writeManifest(file: string, agents: readonly InstalledAgent[]): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  // A new file ('wx'): a link left at the temporary name is removed, never written through.
  await rm(temporary, { force: true });
  await writeFile(temporary, `${JSON.stringify({ agents }, null, 2)}\n`, { flag: 'wx' });
  await rename(temporary, file);
}
