/**
 * The command line for an `npx` or `uvx` distribution. Nothing is installed ahead: the launcher fetches the
 * package on first start and caches it. When the launcher is missing we say what to install now, not at spawn.
 */
import { access, constants } from 'node:fs/promises';
import * as path from 'node:path';
import type { PackageDistribution } from './registry-schema';

export type PackageLauncher = 'npx' | 'uvx';

export interface LaunchLine {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

export function packageLaunchLine(launcher: PackageLauncher, distribution: PackageDistribution): LaunchLine {
  const { package: pkg, cmd, args, env } = distribution;
  if (launcher === 'npx') {
    // -y: never stop on npx's "Ok to proceed?" prompt, which nobody would see on the agent's stdin.
    return { command: 'npx', args: cmd ? ['-y', '--package', pkg, cmd, ...args] : ['-y', pkg, ...args], env };
  }
  return { command: 'uvx', args: cmd ? ['--from', pkg, cmd, ...args] : [pkg, ...args], env };
}

const WHAT_TO_INSTALL: Record<PackageLauncher, string> = {
  npx: 'This agent runs through npx, which is not on PATH: install Node.js (https://nodejs.org), which includes npm and npx, then try again.',
  uvx: 'This agent runs through uvx, which is not on PATH: install uv (https://docs.astral.sh/uv/getting-started/installation/), which includes uvx, then try again.',
};

/** Undefined when the launcher is on PATH, else the sentence telling the user what to install. */
export async function missingLauncher(launcher: PackageLauncher, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  return (await findOnPath(launcher, env)) ? undefined : WHAT_TO_INSTALL[launcher];
}

export async function findOnPath(command: string, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  const directories = (env.PATH ?? env.Path ?? '').split(path.delimiter).filter(Boolean);
  const suffixes = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  for (const directory of directories) {
    for (const suffix of suffixes) {
      const candidate = path.join(directory, command + suffix);
      try {
        await access(candidate, process.platform === 'win32' ? constants.F_OK : constants.X_OK);
        return candidate;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}
