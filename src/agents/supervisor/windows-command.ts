/**
 * How to start an agent command on Windows without a shell injection. `npx`, `uvx` and most launchers are
 * `.cmd` shims there; Node refuses to spawn a batch file without a shell since the April 2024 fix (CVE-2024-27980),
 * and a shell line built carelessly runs whatever `&`, `|` or `%VAR%` an argument holds. A batch file is started as
 * `cmd.exe /d /s /v:off /c "<line>"` (no AutoRun, no delayed expansion), where every argument is quoted the way
 * programs split their command line and every character cmd would act on is escaped with `^`, twice: once for the
 * line cmd reads, once more for the `%*` the shim passes on, which cmd reads again. Pure, so it is tested on any OS.
 */

export interface SpawnPlan {
  readonly file: string;
  readonly args: readonly string[];
  /** The arguments are one prepared command line: Node must not quote them again. */
  readonly verbatim: boolean;
  /** Set over the environment. */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * cmd.exe looks for a bare command in the current folder before PATH unless this is set: an npm shim (`gemini.cmd`)
 * runs a bare `node` when no node.exe sits beside it, and the current folder is the workspace, where a repository
 * could plant `node.bat`. Inherited by the shim's cmd and what it starts.
 */
const NO_CURRENT_FOLDER = { NoDefaultCurrentDirectoryInExePath: '1' };

export interface WindowsLookup {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly exists: (file: string) => boolean;
}

const BATCH = /\.(cmd|bat)$/i;
/** Characters cmd acts on outside quotes (`%` even inside them, so the whole argument is escaped unquoted). */
const CMD_SPECIAL = /[()%!^"<>&|]/g;

export function windowsSpawnPlan(command: string, args: readonly string[], lookup: WindowsLookup): SpawnPlan {
  const resolved = resolveCommand(command, lookup);
  if (!BATCH.test(resolved)) return { file: resolved, args: [...args], verbatim: false };
  if (/["%\r\n\0]/.test(resolved))
    throw new Error(`cannot start ${JSON.stringify(resolved)} safely: its path holds " or % or a line break`);
  const line = [`"${resolved}"`, ...args.map(batchArgument)].join(' ');
  const shell = envValue(lookup.env, 'COMSPEC') ?? 'cmd.exe';
  return { file: shell, args: ['/d', '/s', '/v:off', '/c', `"${line}"`], verbatim: true, env: NO_CURRENT_FOLDER };
}

/** One argument for a batch file's command line: quoted for the program at the end, then escaped for cmd twice. */
export function batchArgument(arg: string): string {
  if (/[\r\n\0]/.test(arg)) throw new Error('an argument for a .cmd or .bat agent cannot hold a line break or NUL');
  return escapeForCmd(escapeForCmd(quoteForProgram(arg)));
}

/** The quoting programs' argument splitters (the C runtime's, CommandLineToArgvW) undo: always in quotes. */
export function quoteForProgram(arg: string): string {
  let quoted = '"';
  let backslashes = 0;
  for (const char of arg) {
    if (char === '\\') {
      backslashes++;
      continue;
    }
    // Backslashes are literal unless they precede a quote: then each is doubled, and the quote escaped.
    quoted += char === '"' ? '\\'.repeat(backslashes * 2 + 1) + '"' : '\\'.repeat(backslashes) + char;
    backslashes = 0;
  }
  // Before the closing quote, backslashes would escape it: doubled.
  return `${quoted}${'\\'.repeat(backslashes * 2)}"`;
}

function escapeForCmd(text: string): string {
  return text.replace(CMD_SPECIAL, '^$&');
}

/**
 * Where `command` runs from: a path as given (with PATHEXT tried when it has no extension); a bare name from the
 * first PATH folder that has it, never from the current folder (the workspace could plant an `npx.cmd` there), nor
 * from a relative PATH entry (`.`, `node_modules\.bin`), which names a folder of the workspace too.
 */
function resolveCommand(command: string, { env, exists }: WindowsLookup): string {
  const hasExtension = /\.[^.\\/]+$/.test(command);
  const extensions = (envValue(env, 'PATHEXT') ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean);
  const candidates = (base: string): string[] => (hasExtension ? [base] : extensions.map((extension) => base + extension.toLowerCase()));
  if (/[\\/]/.test(command)) return hasExtension ? command : (candidates(command).find(exists) ?? command);
  for (const directory of (envValue(env, 'PATH') ?? '').split(';').filter(isAbsoluteWindowsPath)) {
    const found = candidates(`${directory.replace(/[\\/]+$/, '')}\\${command}`).find(exists);
    if (found) return found;
  }
  return command;
}

/** Windows variable names ignore case; a copy of `process.env` does not. */
function envValue(env: WindowsLookup['env'], name: string): string | undefined {
  const key = Object.keys(env).find((candidate) => candidate.toUpperCase() === name);
  return key === undefined ? undefined : env[key];
}

/** `C:\…`, `C:/…` or a UNC path: a PATH folder that does not depend on the current folder. */
function isAbsoluteWindowsPath(directory: string): boolean {
  return /^[a-zA-Z]:[\\/]/.test(directory) || /^[\\/]{2}[^\\/]/.test(directory);
}
