/**
 * Which links rendered markdown may carry, and what a click on one does. Agents write the markdown, so a link is
 * untrusted: only http(s), mailto, vscode and file links, and scheme-less paths (workspace files), survive.
 * Pure and DOM-free.
 */

const EXTERNAL_SCHEMES = new Set(['http', 'https', 'mailto', 'vscode']);
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
    const withoutScheme = normalized.slice('file:'.length).replace(/^\/\/[^/]*/, '');
    return fileTarget(withoutScheme);
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
  if (path === '') return { type: 'blocked' };
  return line === undefined ? { type: 'file', path } : { type: 'file', path, line };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
