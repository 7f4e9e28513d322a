/**
 * `${env:NAME}` and `${input:ID}` in MCP server values, as VS Code's `mcp.json` writes them, so secrets stay out
 * of settings: `env` from the extension host's environment, `input` from a secret store that asks the user once.
 * A server whose reference cannot be resolved is skipped with the reason: sending it half-configured would fail
 * later, inside the agent, where the user cannot see why.
 */
import type { McpInputPrompts, McpServerConfig } from './mcp-servers';

/** Values for `${input:ID}`: stored ones, else asked for once and stored. Never written to settings. */
export interface InputValues {
  /** Undefined when the user gave none (dismissed the box). */
  value(id: string, prompt: string): Promise<string | undefined>;
}

export interface ReferenceSources {
  readonly env: (name: string) => string | undefined;
  readonly inputs: InputValues;
  /** Prompts from `mcp.json`'s `inputs`; an id without one gets a generic prompt naming the server. */
  readonly inputPrompts?: McpInputPrompts;
}

export interface ResolvedMcpServer {
  readonly config: McpServerConfig;
  /** Every value a reference brought in, alone and as resolved in place: masked wherever the wire is traced. */
  readonly secrets: readonly string[];
}

export type Resolution = { readonly ok: true; readonly server: ResolvedMcpServer } | { readonly ok: false; readonly problem: string };

const REFERENCE = /\$\{(env|input):([^}]*)\}/g;

class Unresolved extends Error {}

/** The environment variables `${env:NAME}` references in `texts` name, each once, in order of appearance. */
export function environmentReferences(texts: readonly string[]): string[] {
  const names = new Set<string>();
  for (const text of texts) for (const [, kind, id = ''] of text.matchAll(REFERENCE)) if (kind === 'env') names.add(id.trim());
  return [...names];
}

export async function resolveReferences(server: McpServerConfig, sources: ReferenceSources): Promise<Resolution> {
  const secrets: string[] = [];
  // Whatever a reference brought in is a secret, wherever it stands (an env value, a header, an argument, a URL):
  // `${env:}` is how mcp.json keeps tokens out of settings, so its value is as secret as an input's. Both the
  // value alone and the text around it are masked, so an agent quoting either back shows neither.
  const resolve = async (text: string): Promise<string> => {
    let referenced = false;
    let result = '';
    let last = 0;
    for (const match of text.matchAll(REFERENCE)) {
      const [whole, kind, id = ''] = match;
      const value = await valueOf(kind === 'env' ? 'env' : 'input', id.trim());
      secrets.push(value);
      result += text.slice(last, match.index) + value;
      referenced = true;
      last = match.index + whole.length;
    }
    result += text.slice(last);
    if (referenced) secrets.push(result);
    return result;
  };
  const valueOf = async (kind: 'env' | 'input', id: string): Promise<string> => {
    if (kind === 'env') {
      const value = sources.env(id);
      if (value === undefined) throw new Unresolved(`the environment variable ${id} is not set`);
      return value;
    }
    const prompt = sources.inputPrompts?.get(id) ?? `Value of \${input:${id}} for the MCP server "${server.name}"`;
    const value = await sources.inputs.value(id, prompt);
    if (value === undefined) throw new Unresolved(`no value was given for \${input:${id}}`);
    return value;
  };
  try {
    const config: McpServerConfig =
      server.transport === 'stdio'
        ? {
            ...server,
            command: await resolve(server.command),
            args: await resolveAll(server.args, resolve),
            env: await resolveRecord(server.env, resolve),
          }
        : { ...server, url: await resolve(server.url), headers: await resolveRecord(server.headers, resolve) };
    return { ok: true, server: { config, secrets } };
  } catch (error) {
    if (error instanceof Unresolved) return { ok: false, problem: `MCP server "${server.name}" skipped: ${error.message}` };
    throw error;
  }
}

/** One after another: the same input asked for twice must be asked once (the store keeps the first answer). */
async function resolveAll(values: readonly string[], resolve: (text: string) => Promise<string>): Promise<string[]> {
  const resolved: string[] = [];
  for (const value of values) resolved.push(await resolve(value));
  return resolved;
}

async function resolveRecord(
  record: Readonly<Record<string, string>>,
  resolve: (text: string) => Promise<string>,
): Promise<Record<string, string>> {
  const resolved: Record<string, string> = {};
  for (const [name, value] of Object.entries(record)) resolved[name] = await resolve(value);
  return resolved;
}
