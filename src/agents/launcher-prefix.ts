/**
 * npx runs a package from the nearest folder above its working folder that has a `package.json` or a
 * `node_modules`, and reads that folder's `.npmrc`: started in a cloned repository, `npx -y <agent>` ran the
 * repository's own `node_modules/<agent>` (or fetched it from a registry the repository named) with the user's
 * keys in its environment. npm's `--prefix`, given on the command line, sets that folder instead (npm's config:
 * a prefix from the command line is the local prefix), so the launcher is pointed at the user's home folder, as
 * if run from a terminal there; the agent itself still works in the workspace (session/new's cwd). Pure.
 */
import * as path from 'node:path';

/** The launcher a command names, without a Windows shim's extension: `npx`, `npx.cmd` → `npx`. */
function launcherName(command: string): string {
  return path
    .basename(command.replace(/\\/g, '/'))
    .toLowerCase()
    .replace(/\.(cmd|bat|exe|ps1)$/, '');
}

/** Whether the arguments already choose a prefix (the user's own choice is kept). */
const choosesPrefix = (args: readonly string[]): boolean => args.some((arg) => arg === '--prefix' || arg.startsWith('--prefix='));

/**
 * The arguments to start `command` with: for npx (and `npm exec`/`npm x`), `--prefix <home>` first, so neither the
 * workspace's packages nor its `.npmrc` decide what runs. Other commands' arguments as they are.
 */
export function argsOutsideWorkspace(command: string, args: readonly string[], home: string): readonly string[] {
  if (choosesPrefix(args)) return args;
  const launcher = launcherName(command);
  if (launcher === 'npx') return ['--prefix', home, ...args];
  if (launcher === 'npm' && (args[0] === 'exec' || args[0] === 'x')) return ['--prefix', home, ...args];
  return args;
}
