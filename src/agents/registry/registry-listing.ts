/** How a registry agent stands against what is installed, and the words the pickers show for it. */
import { displayText } from './display-text';
import type { InstalledAgent } from './installed-manifest';
import type { RegistryAgent } from './registry-schema';

export type InstallState =
  | { readonly kind: 'not_installed' }
  | { readonly kind: 'up_to_date'; readonly version: string }
  | { readonly kind: 'update_available'; readonly installed: string; readonly latest: string }
  | { readonly kind: 'pinned'; readonly installed: string; readonly latest: string };

/** The registry lists one version per agent: any other installed version is "behind" it unless pinned. */
export function installState(agent: RegistryAgent, installed: InstalledAgent | undefined): InstallState {
  if (!installed) return { kind: 'not_installed' };
  if (installed.version === agent.version) return { kind: 'up_to_date', version: installed.version };
  return installed.pinned
    ? { kind: 'pinned', installed: installed.version, latest: agent.version }
    : { kind: 'update_available', installed: installed.version, latest: agent.version };
}

export function installStateText(state: InstallState): string {
  switch (state.kind) {
    case 'not_installed':
      return '';
    case 'up_to_date':
      return 'installed';
    case 'update_available':
      return `update available: ${state.installed} → ${state.latest}`;
    case 'pinned':
      return `pinned at ${state.installed} (registry has ${state.latest})`;
  }
}

export interface AgentListing {
  readonly label: string;
  readonly description: string;
  readonly detail: string;
}

/** One row of "Add Agent…": name; version, license and install state; the agent's description. */
export function agentListing(agent: RegistryAgent, installed: InstalledAgent | undefined): AgentListing {
  const state = installStateText(installState(agent, installed));
  const license = agent.license ? displayText(agent.license, 40) : undefined;
  return {
    label: displayText(agent.name, 80),
    description: [`v${displayText(agent.version, 40)}`, license, state].filter(Boolean).join(' · '),
    detail: displayText(agent.description),
  };
}
