/**
 * Whether an agent process gets the editor's MCP server, and why not: the setting, the agent's own entry, and
 * what the agent can reach. Decided once per process, after `initialize` (the capabilities are known then).
 */
import type { McpCapabilities } from '../acp/agent-capabilities';
import type { ActionAsker } from './action-ports';
import type { RunningEditorTools } from './editor-tools-server';
import { errorMessage } from '../shared/error-text';

export interface EditorToolsLauncher {
  /** `acpClient.editorTools.enabled`. */
  enabled(): boolean;
  /** `asker`: where the actions (rename, task, quick fix) ask the user; without one they are not offered. */
  start(capabilities: McpCapabilities, asker?: ActionAsker): Promise<RunningEditorTools>;
}

export type EditorToolsOffer =
  | { readonly kind: 'offered'; readonly running: RunningEditorTools }
  | { readonly kind: 'not_offered'; readonly reason: string };

export interface AgentWishes {
  readonly editorTools?: boolean;
  readonly mcpServers?: boolean;
}

export async function offerEditorTools(
  launcher: EditorToolsLauncher | undefined,
  agent: AgentWishes,
  capabilities: McpCapabilities,
  asker?: ActionAsker,
): Promise<EditorToolsOffer> {
  if (!launcher) return { kind: 'not_offered', reason: 'no editor tools in this host' };
  if (!launcher.enabled()) return { kind: 'not_offered', reason: 'acpClient.editorTools.enabled is off' };
  if (agent.editorTools === false) return { kind: 'not_offered', reason: 'disabled for this agent ("editorTools": false)' };
  if (agent.mcpServers === false) return { kind: 'not_offered', reason: 'MCP servers are off for this agent ("mcpServers": false)' };
  try {
    return { kind: 'offered', running: await launcher.start(capabilities, asker) };
  } catch (error) {
    return { kind: 'not_offered', reason: `the server could not start: ${errorMessage(error)}` };
  }
}

/** What the user reads about one agent's editor tools (the Sessions view, the log): given how, or not given and why. */
export type EditorToolsStatus = { readonly given: true; readonly how: string } | { readonly given: false; readonly reason: string };

export function statusOf(offer: EditorToolsOffer): EditorToolsStatus {
  if (offer.kind === 'not_offered') return { given: false, reason: offer.reason };
  const how = offer.running.transport === 'http' ? 'over HTTP on 127.0.0.1' : 'over stdio (the bridge, through a local socket)';
  return { given: true, how };
}

export function describeOffer(agentName: string, offer: EditorToolsOffer): string {
  const status = statusOf(offer);
  return status.given
    ? `${agentName} gets the editor's tools ${status.how}`
    : `${agentName} does not get the editor's tools: ${status.reason}`;
}
