/**
 * MCP servers the user configured for agents. `acpClient.mcpServers` has the shape of VS Code's `mcp.json`
 * `servers`, so people can paste theirs: `{ "<name>": { type?: "stdio", command, args?, env? } | { type: "http" |
 * "sse", url, headers? } }`. The workspace's `.vscode/mcp.json` can be read too (opt-in); it is JSONC, as VS Code
 * writes it. Invalid entries are reported and skipped, never fatal.
 */
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { z } from 'zod';

export type McpServerConfig =
  | {
      readonly name: string;
      readonly transport: 'stdio';
      readonly command: string;
      readonly args: readonly string[];
      readonly env: Readonly<Record<string, string>>;
    }
  | { readonly name: string; readonly transport: 'http' | 'sse'; readonly url: string; readonly headers: Readonly<Record<string, string>> };

export interface ParsedMcpServers {
  readonly servers: readonly McpServerConfig[];
  /** One line per entry that was skipped, saying why. */
  readonly problems: readonly string[];
}

/** What `mcp.json`'s `inputs` say about an `${input:ID}`: the prompt to show when asking for it. */
export type McpInputPrompts = ReadonlyMap<string, string>;

const stringRecord = z.record(z.string(), z.string()).optional().default({});

// VS Code's mcp.json also knows `cwd`, `envFile`, `dev`...; ACP has no field for them, so they pass unread.
const stdioEntry = z
  .object({
    type: z.literal('stdio').optional(),
    command: z.string().min(1, 'command must not be empty'),
    args: z.array(z.string()).optional().default([]),
    env: stringRecord,
  })
  .loose();

const remoteEntry = z
  .object({
    type: z.enum(['http', 'sse']),
    url: z.string().min(1, 'url must not be empty'),
    headers: stringRecord,
  })
  .loose();

/** Which shape an entry claims: `type` http/sse is remote, anything else must be a command (VS Code's rule). */
function isRemote(entry: unknown): boolean {
  const type = typeof entry === 'object' && entry !== null && 'type' in entry ? entry.type : undefined;
  return type === 'http' || type === 'sse';
}

function parseEntry(name: string, entry: unknown): { server: McpServerConfig } | { issues: z.core.$ZodIssue[] } {
  if (isRemote(entry)) {
    const parsed = remoteEntry.safeParse(entry);
    if (!parsed.success) return { issues: parsed.error.issues };
    return { server: { name, transport: parsed.data.type, url: parsed.data.url, headers: parsed.data.headers } };
  }
  const parsed = stdioEntry.safeParse(entry);
  if (!parsed.success) return { issues: parsed.error.issues };
  return { server: { name, transport: 'stdio', command: parsed.data.command, args: parsed.data.args, env: parsed.data.env } };
}

/** `where` names the source in problems ("acpClient.mcpServers", ".vscode/mcp.json"). */
export function parseMcpServers(raw: unknown, where: string): ParsedMcpServers {
  if (raw === undefined || raw === null) return { servers: [], problems: [] };
  if (typeof raw !== 'object' || Array.isArray(raw)) return { servers: [], problems: [`${where} must be an object keyed by server name`] };
  const servers: McpServerConfig[] = [];
  const problems: string[] = [];
  for (const [name, entry] of Object.entries(raw)) {
    const parsed = parseEntry(name, entry);
    if ('server' in parsed) {
      servers.push(parsed.server);
      continue;
    }
    const reason = parsed.issues.map((issue) => `${issue.path.join('.') || 'entry'}: ${issue.message}`).join('; ');
    problems.push(`${where}["${name}"] skipped: ${reason}`);
  }
  return { servers, problems };
}

const inputsSchema = z.array(z.object({ id: z.string(), description: z.string().optional() }).loose()).catch([]);

/** A workspace `mcp.json` (JSONC): its `servers`, and the prompts its `inputs` give for `${input:ID}`. */
export function parseMcpJson(text: string, where: string): ParsedMcpServers & { readonly inputPrompts: McpInputPrompts } {
  const errors: ParseError[] = [];
  const document: unknown = parseJsonc(text, errors, { allowTrailingComma: true });
  if (errors.length > 0 || typeof document !== 'object' || document === null) {
    const first = errors[0];
    const reason = first ? `${printParseErrorCode(first.error)} at offset ${first.offset}` : 'not an object';
    return { servers: [], problems: [`${where} could not be read: ${reason}`], inputPrompts: new Map() };
  }
  const servers = 'servers' in document ? document.servers : undefined;
  const inputs = inputsSchema.parse('inputs' in document ? document.inputs : undefined);
  const inputPrompts = new Map(inputs.flatMap((input) => (input.description ? [[input.id, input.description] as const] : [])));
  return { ...parseMcpServers(servers, `${where} servers`), inputPrompts };
}

/** One list; a server named in settings wins over the workspace file's of the same name (the user's own word). */
export function mergeMcpServers(
  fromSettings: readonly McpServerConfig[],
  fromWorkspace: readonly McpServerConfig[],
): readonly McpServerConfig[] {
  const named = new Set(fromSettings.map((server) => server.name));
  return [...fromSettings, ...fromWorkspace.filter((server) => !named.has(server.name))];
}
