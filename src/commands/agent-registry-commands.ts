/**
 * "ACP: Add Agent…" (every registry agent in a searchable picker; picking installs it and starts it) and
 * "ACP: Manage Agents…" (update, pin, unpin, uninstall what was installed). Thin: the work is in
 * src/agents/registry.
 */
import { cachedIcons } from '../agents/registry/registry-icons';
import * as vscode from 'vscode';
import type { AgentInstaller } from '../agents/registry/agent-installer';
import type { InstallActivity } from '../agents/registry/install-activity';
import type { InstalledAgent } from '../agents/registry/installed-manifest';
import { agentListing, installState, installStateText } from '../agents/registry/registry-listing';
import { DEFAULT_REGISTRY_URL, RegistryIndexSource, type LoadedIndex } from '../agents/registry/registry-index-source';
import type { RegistryAgent } from '../agents/registry/registry-schema';
import { withInstallProgress } from '../editor/install-progress';
import { registryUrl, unofficialRegistryHost } from '../editor/registry-settings';
import { shownPickItem, shownText } from '../shared/shown-text';
import { UNTRUSTED_INSTALL } from '../shared/wording';
import { errorMessage } from '../shared/error-text';

export interface AgentRegistryDeps {
  readonly installer: AgentInstaller;
  /** The install under way, which the chat shows while it would start the agent in place. */
  readonly installs: InstallActivity;
  /** The extension's global storage folder: the index cache lives there. */
  readonly storageDir: string;
  readonly log: vscode.LogOutputChannel;
}

/** No dead ends: a setup error comes with the actions that may fix it; the one picked runs. */
async function errorWithFixes<T>(message: string, fixes: Readonly<Record<string, () => Thenable<T> | Promise<T>>>): Promise<T | undefined> {
  const picked = await vscode.window.showErrorMessage(shownText(message, 'notification'), ...Object.keys(fixes));
  const fix = picked === undefined ? undefined : fixes[picked];
  return fix ? await fix() : undefined;
}

const openRegistrySettings = (): Thenable<undefined> =>
  vscode.commands.executeCommand<undefined>('workbench.action.openSettings', 'acpClient.registry.url');

/** Nothing installs, updates or starts in Restricted Mode: say so, with the way out. */
async function refusedWhileRestricted(): Promise<boolean> {
  if (vscode.workspace.isTrusted) return false;
  const manage = 'Manage Workspace Trust';
  // A toast shows no `detail`: the way out goes in the message itself.
  const picked = await vscode.window.showWarningMessage(`ACP: ${UNTRUSTED_INSTALL.title}. ${UNTRUSTED_INSTALL.detail}`, manage);
  if (picked === manage) await vscode.commands.executeCommand('workbench.trust.manage');
  return true;
}

export function registerAgentRegistryCommands(deps: AgentRegistryDeps): vscode.Disposable {
  const loadIndex = async (force: boolean): Promise<LoadedIndex | undefined> => {
    const source = new RegistryIndexSource({ url: registryUrl(), cacheDir: deps.storageDir });
    try {
      const index = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Loading the ACP registry' }, () =>
        source.load(force),
      );
      for (const problem of index.problems) deps.log.warn(problem);
      if (index.offlineReason) {
        deps.log.warn(index.offlineReason);
        void vscode.window.showWarningMessage(shownText(`ACP: showing the cached registry (${index.offlineReason}).`, 'notification'));
      }
      return index;
    } catch (error) {
      deps.log.error(`Loading the ACP registry failed: ${errorMessage(error)}`);
      return errorWithFixes<LoadedIndex | undefined>(`ACP: ${errorMessage(error)}`, {
        Retry: () => loadIndex(true),
        'Registry Settings': openRegistrySettings,
        'Show Log': () => (deps.log.show(), Promise.resolve(undefined)),
      });
    }
  };

  const warnInstalled = (text: string): void => {
    deps.log.warn(text);
    void vscode.window.showWarningMessage(shownText(`ACP: ${text}`, 'notification'));
  };

  const startChatting = (name: string): Thenable<unknown> => vscode.commands.executeCommand('acpClient.selectAgent', name);

  const install = async (agent: RegistryAgent, verb: 'Installing' | 'Updating'): Promise<InstalledAgent | undefined> => {
    // Trust can be taken back while a picker is open: checked again right before anything is written.
    if (await refusedWhileRestricted()) return undefined;
    try {
      const name = agentListing(agent, undefined).label;
      const installed = await withInstallProgress(
        `${verb} ${name} ${agent.version}`,
        { agentName: name, version: agent.version },
        deps.installs,
        (progress) => {
          // http only from a registry the user chose: registryUrl() reads user settings alone, so a URL other than
          // the official one is the user's own.
          const options = { ...progress, allowInsecure: registryUrl() !== DEFAULT_REGISTRY_URL, onWarning: warnInstalled };
          return verb === 'Updating' ? deps.installer.update(agent, options) : deps.installer.install(agent, options);
        },
      );
      deps.log.info(`Installed ${installed.id} ${installed.version} (${installed.kind}): ${installed.command} ${installed.args.join(' ')}`);
      return installed;
    } catch (error) {
      if (/cancelled/i.test(errorMessage(error))) {
        // The user's own Cancel is not an error; they may still want it.
        const again = await vscode.window.showInformationMessage(
          shownText(`ACP: ${verb.toLowerCase()} ${agent.name} was cancelled.`, 'notification'),
          'Retry',
        );
        return again ? install(agent, verb) : undefined;
      }
      deps.log.error(`Installing ${agent.id} failed: ${errorMessage(error)}`);
      return errorWithFixes<InstalledAgent | undefined>(`ACP: ${errorMessage(error)}`, {
        Retry: () => install(agent, verb),
        'Registry Settings': openRegistrySettings,
        'Show Log': () => (deps.log.show(), Promise.resolve(undefined)),
      });
    }
  };

  const addAgent = async (): Promise<void> => {
    if (await refusedWhileRestricted()) return;
    let force = false;
    for (;;) {
      const index = await loadIndex(force);
      if (!index) return;
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
      if (!picked) return;
      if (picked.refresh) {
        force = true;
        continue;
      }
      if (!picked.agent) return;
      const state = installState(picked.agent, deps.installer.find(picked.agent.id));
      const installed =
        state.kind === 'up_to_date' || state.kind === 'pinned'
          ? deps.installer.find(picked.agent.id)
          : await install(picked.agent, state.kind === 'update_available' ? 'Updating' : 'Installing');
      if (installed) await startChatting(installed.name);
      return;
    }
  };

  const manageAgents = async (): Promise<void> => {
    if (await refusedWhileRestricted()) return;
    if (deps.installer.installed.length === 0) {
      const add = 'Add Agent…';
      if ((await vscode.window.showInformationMessage('ACP: no agent is installed from the registry yet.', add)) === add) await addAgent();
      return;
    }
    const index = await loadIndex(false);
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
    await manageOne(picked.entry, latest(picked.entry.id));
  };

  const manageOne = async (entry: InstalledAgent, registry: RegistryAgent | undefined): Promise<void> => {
    type Action = vscode.QuickPickItem & { run: () => Promise<unknown> };
    const actions: Action[] = [{ label: '$(comment-discussion) Chat with it', run: () => Promise.resolve(startChatting(entry.name)) }];
    if (registry && registry.version !== entry.version && !entry.pinned)
      actions.push({
        label: `$(cloud-download) Update to ${shownText(registry.version, 'quick-pick')}`,
        run: () => install(registry, 'Updating'),
      });
    actions.push(
      entry.pinned
        ? { label: '$(unlock) Unpin', description: 'follow the registry again', run: () => deps.installer.setPinned(entry.id, false) }
        : {
            label: `$(lock) Pin version ${entry.version}`,
            description: 'never update it',
            run: () => deps.installer.setPinned(entry.id, true),
          },
      {
        label: '$(trash) Uninstall',
        description: entry.kind === 'binary' ? 'removes its files' : `forgets the ${entry.kind} launch line`,
        run: () => uninstall(entry),
      },
    );
    const action = await vscode.window.showQuickPick(actions, { title: `ACP: ${entry.name} ${entry.version}` });
    try {
      await action?.run();
    } catch (error) {
      void vscode.window.showErrorMessage(shownText(`ACP: ${errorMessage(error)}`, 'notification'));
    }
  };

  const uninstall = async (entry: InstalledAgent): Promise<void> => {
    const confirm = 'Uninstall';
    if ((await vscode.window.showWarningMessage(`Uninstall ${entry.name} ${entry.version}?`, { modal: true }, confirm)) !== confirm) return;
    await deps.installer.uninstall(entry.id);
    deps.log.info(`Uninstalled ${entry.id}`);
  };

  return vscode.Disposable.from(
    vscode.commands.registerCommand('acpClient.addAgent', addAgent),
    vscode.commands.registerCommand('acpClient.manageAgents', manageAgents),
  );
}
