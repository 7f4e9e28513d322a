/**
 * The header's agent name and its tooltip. DOM-free, so the unit tests (plain Node, no DOM) check what the header
 * shows. The name comes from a registry index, a workspace's settings or the agent itself, so bidi and invisible
 * characters show as `<U+XXXX>`: a right-to-left override must not make one agent's name read as another's.
 */
import type { InstallProgress } from '../../src/shared/install-status';
import type { AgentStatus } from '../../src/shared/model';
import { visibleText } from '../../src/shared/visible-text';

export interface AgentNameLabel {
  readonly text: string;
  readonly title: string;
}

/** The agent the chat is with, or (`selectedAgent`) the one it would start. */
export function agentNameLabel(agent: AgentStatus, selectedAgent: string | undefined): AgentNameLabel {
  const name = visibleText(agent.phase === 'none' ? (selectedAgent ?? 'No agent') : agent.agentName);
  return { text: name, title: name };
}

/** A registry agent being installed: its name, and in the tooltips its version (also the registry's words). */
export function installingAgentLabel(install: InstallProgress): AgentNameLabel & { readonly statusTitle: string } {
  const name = visibleText(install.agentName);
  const version = visibleText(install.version);
  return { text: name, title: `${name} ${version}`, statusTitle: `Installing ${name} ${version} from the ACP registry` };
}
