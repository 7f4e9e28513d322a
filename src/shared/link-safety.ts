/**
 * Which links rendered markdown may carry, and what a click on one does. Agents write the markdown, so a link is
 * untrusted: only http(s) and mailto links (VS Code opens them outside, asking first for an untrusted site), file
 * links on this machine and scheme-less paths (workspace files; the host checks where they lead) survive. Not
 * `vscode:`, which reaches VS Code's and every extension's URI handlers (open a file, clone a repository, install).
 * Pure and DOM-free.
 */
import { refusedLinkPath } from './link-paths';

const EXTERNAL_SCHEMES = new Set(['http', 'https', 'mailto']);
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;

/** What browsers ignore when they parse a URL: tabs and newlines anywhere, controls and spaces at the ends. */
function normalizeForScheme(url: string): string {
  // eslint-disable-next-line no-control-regex
  return url.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
}

export type LinkTarget =
  | { readonly type: 'external'; readonly url: string }
  | { readonly type: 'file'; readonly path: string; readonly line?: number }
  | { readonly type: 'blocked' };

export function classifyLink(url: string): LinkTarget {
  const normalized = normalizeForScheme(url);
  if (normalized === '' || normalized.startsWith('//') || normalized.startsWith('\\\\')) return { type: 'blocked' };
  const scheme = SCHEME.exec(normalized)?.[1]?.toLowerCase();
  // A one-letter "scheme" is a Windows drive (C:\...), i.e. a path.
  if (scheme === undefined || scheme.length === 1) {
    if (normalized.startsWith('#')) return { type: 'blocked' };
    return fileTarget(normalized);
  }
  if (EXTERNAL_SCHEMES.has(scheme)) return { type: 'external', url: normalized };
  if (scheme === 'file') {
    const withoutScheme = normalized.slice('file:'.length);
    // `file://host/share` is a file on another machine: only an empty authority or localhost is this one.
    const authority = /^\/\/([^/]*)/.exec(withoutScheme);
    const host = authority ? safeDecode(authority[1] ?? '').toLowerCase() : '';
    if (host !== '' && host !== 'localhost') return { type: 'blocked' };
    return fileTarget(authority ? withoutScheme.slice(authority[0].length) : withoutScheme);
  }
  return { type: 'blocked' };
}

/** The markdown renderer's `validateLink`. */
export function isSafeLink(url: string): boolean {
  return classifyLink(url).type !== 'blocked';
}

function fileTarget(reference: string): LinkTarget {
  let path = reference;
  let line: number | undefined;
  const hash = path.indexOf('#');
  if (hash !== -1) {
    const fragment = /^L?(\d+)/.exec(path.slice(hash + 1));
    if (fragment) line = Number(fragment[1]);
    path = path.slice(0, hash);
  }
  const lineSuffix = /:(\d+)(?::\d+)?$/.exec(path);
  if (lineSuffix && line === undefined) {
    line = Number(lineSuffix[1]);
    path = path.slice(0, lineSuffix.index);
  }
  path = safeDecode(path);
  if (path === '' || refusedLinkPath(path) !== undefined) return { type: 'blocked' };
  return line === undefined ? { type: 'file', path } : { type: 'file', path, line };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
