/**
 * `files.watcherExclude`-style globs (`**`, `*`, `?`, `{a,b}`, `[a-z]`, `[!x]`), matched against a path relative to
 * its workspace folder. VS Code has no public glob matcher for plain paths; picomatch is the one its glob syntax
 * follows. The posix build: paths here always use forward slashes, on every OS.
 */
import picomatch from 'picomatch/posix';

export function globToRegExp(glob: string): RegExp {
  // As VS Code's globs: `*` also matches names that start with a dot (`dot`), `[!x]` negates a class (`posix`), and
  // a class matches one character of it, never the brackets as written (`literalBrackets: false`).
  return picomatch.makeRe(glob, { dot: true, posix: true, literalBrackets: false });
}

/** True when `relativePath` (forward slashes) or one of its parent folders matches a pattern; `.git/` always. */
export function isExcluded(relativePath: string, patterns: readonly RegExp[]): boolean {
  const parts = relativePath.split('/');
  if (parts.includes('.git')) return true;
  for (let end = parts.length; end > 0; end--) {
    const prefix = parts.slice(0, end).join('/');
    if (patterns.some((pattern) => pattern.test(prefix))) return true;
  }
  return false;
}
