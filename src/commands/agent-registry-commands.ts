/**
 * "ACP: Add Agent…" (every registry agent in a searchable picker; picking installs it and starts it) and
 * "ACP: Manage Agents…" (update, pin, unpin, uninstall what was installed). Thin: the work is in
 * src/agents/registry; loading the index and installing are in registry-install.ts.
 */
import { cachedIcons } from '../agents/registry/registry-icons';
import * as vscode from 'vscode';
import type { InstalledAgent } from '../agents/registry/installed-manifest';
import { agentListing, installState, installStateText } from '../agents/registry/registry-listing';
import type { LoadedIndex } from '../agents/registry/registry-index-source';
import type { RegistryAgent } from '../agents/registry/registry-schema';
import { registryUrl, unofficialRegistryHost } from '../editor/registry-settings';
import { shownPickItem, shownText } from '../shared/shown-text';
import { errorMessage } from '../shared/error-text';
import { installAgent, loadIndex, refusedWhileRestricted, type AgentRegistryDeps } from './registry-install';

export function registerAgentRegistryCommands(deps: AgentRegistryDeps): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand('acpClient.addAgent', () => addAgent(deps)),
    vscode.commands.registerCommand('acpClient.manageAgents', () => manageAgents(deps)),
  );
}

const startChatting = (name: string): Thenable<unknown> => vscode.commands.executeCommand('acpClient.selectAgent', name);

/** "Add Agent…": pick from the registry, install (or update) what is not there yet, and chat with it. */
async function addAgent(deps: AgentRegistryDeps): Promise<void> {
  if (await refusedWhileRestricted()) return;
  let force = false;
  for (;;) {
    const index = await loadIndex(deps, force);
    if (!index) return;
    const picked = await pickFromRegistry(deps, index);
    if (picked === 'refresh') {
      force = true;
      continue;
    }
    if (!picked) return;
    const state = installState(picked, deps.installer.find(picked.id));
    const installed =
      state.kind === 'up_to_date' || state.kind === 'pinned'
        ? deps.installer.find(picked.id)
        : await installAgent(deps, picked, state.kind === 'update_available' ? 'Updating' : 'Installing');
    if (installed) await startChatting(installed.name);
    return;
  }
}

/** The registry's agents in a searchable picker, with their icons, and a Refresh at the end. */
async function pickFromRegistry(deps: AgentRegistryDeps, index: LoadedIndex): Promise<RegistryAgent | 'refresh' | undefined> {
  type Item = vscode.QuickPickItem & { agent?: RegistryAgent; refresh?: true };
  const icons = await cachedIcons(
    index.agents.flatMap((agent) => (agent.icon ? [agent.icon] : [])),
    { cacheDir: deps.storageDir },
  ).catch(() => new Map<string, string>());
  const items: Item[] = [...index.agents]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((agent) => {
      const icon = agent.icon === undefined ? undefined : icons.get(agent.icon);
      return {
        ...shownPickItem(agentListing(agent, deps.installer.find(agent.id))),
        agent,
        ...(icon ? { iconPath: vscode.Uri.file(icon) } : {}),
      };
    });
  items.push({ label: '', kind: vscode.QuickPickItemKind.Separator }, { label: '$(refresh) Refresh the registry', refresh: true });
  // The user's own registry URL may point anywhere: a list that is not the official one says whose it is.
  const host = unofficialRegistryHost(registryUrl());
  const picked = await vscode.window.showQuickPick(items, {
    title: host ? `ACP: Add Agent (registry: ${shownText(host, 'plain')})` : 'ACP: Add Agent',
    placeHolder: `${index.agents.length} agents in the ${host ? `registry at ${shownText(host, 'plain')}` : 'ACP registry'}: type to search`,
    matchOnDescription: true,
    matchOnDetail: true,
  });
  return picked?.refresh ? 'refresh' : picked?.agent;
}

/** "Manage Agents…": the installed agents, each with what the registry has for it now. */
async function manageAgents(deps: AgentRegistryDeps): Promise<void> {
  if (await refusedWhileRestricted()) return;
  if (deps.installer.installed.length === 0) {
    const add = 'Add Agent…';
    if ((await vscode.window.showInformationMessage('ACP: no agent is installed from the registry yet.', add)) === add)
      await addAgent(deps);
    return;
  }
  const index = await loadIndex(deps, false);
  const latest = (id: string): RegistryAgent | undefined => index?.agents.find((agent) => agent.id === id);
  type Item = vscode.QuickPickItem & { entry: InstalledAgent };
  const picked = await vscode.window.showQuickPick<Item>(
    deps.installer.installed.map((entry) => {
      const registry = latest(entry.id);
      const state = registry ? installStateText(installState(registry, entry)) : 'not in the registry any more';
      return shownPickItem({
        label: entry.name,
        description: [`v${entry.version}`, entry.kind, entry.pinned ? 'pinned' : undefined, state].filter(Boolean).join(' · '),
        detail: [entry.command, ...entry.args].join(' '),
        entry,
      });
    }),
    { title: 'ACP: Manage Agents', placeHolder: 'Installed agent to manage' },
  );
  if (!picked) return;
  await manageOne(deps, picked.entry, latest(picked.entry.id));
}

/** What can be done with one installed agent: chat, update, pin or unpin, uninstall. */
async function manageOne(deps: AgentRegistryDeps, entry: InstalledAgent, registry: RegistryAgent | undefined): Promise<void> {
  type Action = vscode.QuickPickItem & { run: () => Promise<unknown> };
  const actions: Action[] = [{ label: '$(comment-discussion) Chat with it', run: () => Promise.resolve(startChatting(entry.name)) }];
  if (registry && registry.version !== entry.version && !entry.pinned)
    actions.push({
      label: `$(cloud-download) Update to ${shownText(registry.version, 'quick-pick')}`,
      run: () => installAgent(deps, registry, 'Updating'),
    });
  actions.push(
    entry.pinned
      ? { label: '$(unlock) Unpin', description: 'follow the registry again', run: () => deps.installer.setPinned(entry.id, false) }
      : {
          label: `$(lock) Pin version ${shownText(entry.version, 'quick-pick')}`,
          description: 'never update it',
          run: () => deps.installer.setPinned(entry.id, true),
        },
    {
      label: '$(trash) Uninstall',
      description: entry.kind === 'binary' ? 'removes its files' : `forgets the ${entry.kind} launch line`,
      run: () => uninstall(deps, entry),
    },
  );
  const action = await vscode.window.showQuickPick(actions, { title: shownText(`ACP: ${entry.name} ${entry.version}`, 'plain') });
  try {
    await action?.run();
  } catch (error) {
    void vscode.window.showErrorMessage(shownText(`ACP: ${errorMessage(error)}`, 'notification'));
  }
}

async function uninstall(deps: AgentRegistryDeps, entry: InstalledAgent): Promise<void> {
  const confirm = 'Uninstall';
  const question = shownText(`Uninstall ${entry.name} ${entry.version}?`, 'plain');
  if ((await vscode.window.showWarningMessage(question, { modal: true }, confirm)) !== confirm) return;
  await deps.installer.uninstall(entry.id);
  deps.log.info(`Uninstalled ${entry.id}`);
}
