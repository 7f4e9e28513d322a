/**
 * The editor's MCP server for one agent process: started when the process's first session opens, on the transport
 * the agent can reach (HTTP when it advertises `mcpCapabilities.http`, else the stdio bridge over a local socket),
 * with tokens of its own (one per conversation: caller-tokens.ts), and stopped when the process exits. Every
 * connection gets a fresh MCP server instance with the same tools, knowing which conversation's token it came with.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpServerWire } from '../agents/mcp-wire';
import type { McpCapabilities } from '../acp/agent-capabilities';
import { CallerTokens, type Caller } from './caller-tokens';
import { BRIDGE_ENV } from './bridge/bridge-env';
import { listenHttp } from './http-endpoint';
import { listenPipe } from './pipe-endpoint';
import type { ActionAsker, EditorActions } from './action-ports';
import type { EditorLanguage } from './ports';
import { registerTools } from './tools';
import { registerActionTools } from './action-tools';
import { WorkspaceScope } from './workspace-scope';

/** The name agents know the server by (Claude Code calls its tools `mcp__editor__<tool>`). */
export const EDITOR_SERVER_NAME = 'editor';
export const DEFAULT_TOOL_DEADLINE_MS = 10_000;

export interface EditorToolsOptions {
  readonly language: EditorLanguage;
  readonly roots: () => readonly string[];
  readonly deadlineMs?: number;
  /** VS Code's side of the actions; with an asker from the process, they are offered. */
  readonly actions?: EditorActions;
  /** The bridge for stdio-only agents: run with `node` (the editor's own, via ELECTRON_RUN_AS_NODE). */
  readonly bridge: { readonly node: string; readonly script: () => string };
}

export interface RunningEditorTools {
  /** The server with the process's own token (no conversation named). */
  readonly wire: McpServerWire;
  readonly transport: 'http' | 'stdio';
  /** The process token: never to show in a log. */
  readonly secrets: readonly string[];
  /** The server as one conversation is offered it: its own token, so an action asks on that conversation's card. */
  wireFor(conversation: string): { readonly wire: McpServerWire; readonly secret: string };
  /** A turn began: "changed in this turn" counts from now. */
  turnStarted(): void;
  stop(): Promise<void>;
}

export async function startEditorTools(
  options: EditorToolsOptions,
  capabilities: McpCapabilities,
  asker?: ActionAsker,
): Promise<RunningEditorTools> {
  const tokens = new CallerTokens();
  let turnStartedAt = Date.now();
  const scope = new WorkspaceScope(options.roots);
  const deps = {
    language: options.language,
    scope,
    deadlineMs: options.deadlineMs ?? DEFAULT_TOOL_DEADLINE_MS,
    turnStartedAt: () => turnStartedAt,
    ...(options.actions && asker ? { actions: { editor: options.actions, asker } } : {}),
  };
  const serverFor = (caller: Caller): McpServer => {
    const server = new McpServer({ name: 'acp-client-editor', version: '1.0.0' });
    registerTools(server, deps);
    if (deps.actions) registerActionTools(server, deps, deps.actions, caller);
    return server;
  };
  /** The process's wire, and each conversation's with a token of its own, from one way of writing a wire. */
  const served = (wireWith: (token: string) => McpServerWire) => ({
    secrets: [tokens.processToken],
    turnStarted: () => void (turnStartedAt = Date.now()),
    wire: wireWith(tokens.processToken),
    wireFor: (conversation: string) => {
      const secret = tokens.issue(conversation);
      return { wire: wireWith(secret), secret };
    },
  });
  if (capabilities.http) {
    const http = await listenHttp(tokens.identify, serverFor);
    const wireWith = (token: string): McpServerWire => ({
      type: 'http',
      name: EDITOR_SERVER_NAME,
      url: http.url,
      headers: [{ name: 'Authorization', value: `Bearer ${token}` }],
    });
    return { ...served(wireWith), transport: 'http', stop: () => http.close() };
  }
  // Found before listening: a .vsix without the bridge fails here and leaves no socket behind.
  const script = options.bridge.script();
  const pipe = await listenPipe(tokens.identify, serverFor);
  const wireWith = (token: string): McpServerWire => ({
    name: EDITOR_SERVER_NAME,
    command: options.bridge.node,
    args: [script],
    env: [
      { name: 'ELECTRON_RUN_AS_NODE', value: '1' },
      { name: BRIDGE_ENV.address, value: pipe.address },
      { name: BRIDGE_ENV.token, value: token },
    ],
  });
  return { ...served(wireWith), transport: 'stdio', stop: () => pipe.close() };
}
