/**
 * `files.watcherExclude`-style globs (`**`, `*`, `?`, `{a,b}`), matched against a path relative to its workspace
 * folder. VS Code has no public glob matcher for plain paths, and one small converter beats a dependency.
 */
export function globToRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        // `**/` matches any number of folders (none included); a trailing `**` matches everything below.
        const slash = glob[i + 2] === '/';
        out += slash ? '(?:.*/)?' : '.*';
        i += slash ? 2 : 1;
      } else out += '[^/]*';
    } else if (c === '?') out += '[^/]';
    else if (c === '{') out += '(?:';
    else if (c === '}') out += ')';
    else if (c === ',') out += glob.slice(0, i).lastIndexOf('{') > glob.slice(0, i).lastIndexOf('}') ? '|' : ',';
    else out += c.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
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
