/**
 * Where a definition that runs something came from. VS Code's `get()` deep-merges object settings across scopes, so
 * a workspace that names the user's agent would inherit the user's `env` (API keys) under its own command. Each
 * scope of `inspect()` is read on its own instead: an entry the workspace names is the workspace's alone.
 */
import { createHash } from 'node:crypto';

/** The parts of VS Code's `WorkspaceConfiguration.inspect()` that matter here (user/remote vs workspace). */
export interface InspectedSetting {
  readonly globalValue?: unknown;
  readonly workspaceValue?: unknown;
  readonly workspaceFolderValue?: unknown;
}

/** `user`: the user's (or the remote machine's) settings, honoured as they are. `workspace`: needs approval. */
export type DefinitionOrigin =
  | { readonly kind: 'user' }
  | {
      readonly kind: 'workspace';
      /** Where the workspace said it, for the dialog ("this workspace's settings", ".vscode/mcp.json"). */
      readonly file: string;
      /** Hash of the whole definition: an approval and its secrets hold for exactly this one. */
      readonly fingerprint: string;
      /** Hash of the workspace's identity: secrets of its definitions are never another workspace's. */
      readonly workspaceKey: string;
    };

export interface ScopedEntry {
  readonly name: string;
  readonly raw: unknown;
  readonly from: 'user' | 'workspace';
}

function entriesOf(value: unknown): ReadonlyArray<readonly [string, unknown]> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.entries(value) : [];
}

/**
 * One entry per name: the workspace's own when the workspace (or its folder) names it, never merged with the user's
 * entry of that name (VS Code's precedence, without its merge); else the user's. Order: the user's names first.
 */
export function entriesByScope(inspected: InspectedSetting | undefined): readonly ScopedEntry[] {
  const workspace = new Map<string, unknown>([...entriesOf(inspected?.workspaceValue), ...entriesOf(inspected?.workspaceFolderValue)]);
  const result: ScopedEntry[] = [];
  for (const [name, raw] of entriesOf(inspected?.globalValue))
    result.push(workspace.has(name) ? { name, raw: workspace.get(name), from: 'workspace' } : { name, raw, from: 'user' });
  const userNames = new Set(result.map((entry) => entry.name));
  for (const [name, raw] of workspace) if (!userNames.has(name)) result.push({ name, raw, from: 'workspace' });
  return result;
}

/** A setting that may weaken a safety choice: only the user's own value counts, whatever the workspace says. */
export function userValueOf(inspected: (InspectedSetting & { readonly defaultValue?: unknown }) | undefined): unknown {
  return inspected?.globalValue !== undefined ? inspected.globalValue : inspected?.defaultValue;
}

/** JSON with object keys sorted, so the same definition always hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null)
    return `{${Object.entries(value)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

export function fingerprintOf(definition: unknown): string {
  return createHash('sha256').update(canonical(definition)).digest('hex').slice(0, 32);
}

/** A workspace's identity (its `.code-workspace` file, or its folders) as a short hash. */
export function workspaceKeyOf(identity: readonly string[]): string {
  return createHash('sha256').update(identity.join('\n')).digest('hex').slice(0, 16);
}

/** The origin of a definition that was read from `from`; `definition` is what the user approves, whole. */
export function originOf(from: 'user' | 'workspace', definition: unknown, file: string, workspaceKey: string): DefinitionOrigin {
  return from === 'user' ? { kind: 'user' } : { kind: 'workspace', file, fingerprint: fingerprintOf(definition), workspaceKey };
}
