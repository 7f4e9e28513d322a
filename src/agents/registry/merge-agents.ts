/** One agent list from settings and installs; a settings entry of the same name wins (the user's explicit word). */
import type { AgentConfig } from '../agent-config';

export function mergeAgents(fromSettings: readonly AgentConfig[], installed: readonly AgentConfig[]): readonly AgentConfig[] {
  const configured = new Set(fromSettings.map((agent) => agent.name));
  return [...fromSettings, ...installed.filter((agent) => !configured.has(agent.name))];
}
