/**
 * Why a path from an agent's link must not be opened at all, whatever folder it is in: it names another machine
 * (`\\host\share`, `//host/share`, or either separator mixed, which Windows reads as a UNC path and reaches over
 * SMB, handing the host the user's credentials), a device or long path (`\\?\`, `\\.\`), or it holds a NUL. The
 * webview's link check and the host's open both ask it, so a link the webview would show cannot be opened by a
 * message that skips it. Pure.
 */
export function refusedLinkPath(path: string): string | undefined {
  if (path.includes('\u0000')) return 'the path contains a NUL character';
  if (/^[\\/]{2}/.test(path)) return 'the path names another machine or a device (a UNC path)';
  return undefined;
}
