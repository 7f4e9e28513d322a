/**
 * The steps the registry commands share: loading the index (with the cached copy offline), installing or updating
 * one agent under a cancellable progress, and the answers when that does not go as planned: a setup error comes with
 * the actions that may fix it; the user's own Cancel is not an error, and offers Retry.
 */
import * as vscode from 'vscode';
import type { AgentInstaller } from '../agents/registry/agent-installer';
import { attemptInstall } from '../agents/registry/install-attempt';
import type { InstallActivity } from '../agents/registry/install-activity';
import type { InstalledAgent } from '../agents/registry/installed-manifest';
import { agentListing } from '../agents/registry/registry-listing';
import { DEFAULT_REGISTRY_URL, RegistryIndexSource, type LoadedIndex } from '../agents/registry/registry-index-source';
import type { RegistryAgent } from '../agents/registry/registry-schema';
import { withInstallProgress } from '../editor/install-progress';
import { registryUrl } from '../editor/registry-settings';
import { shownText } from '../shared/shown-text';
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

export type InstallVerb = 'Installing' | 'Updating';

/** No dead ends: a setup error comes with the actions that may fix it; the one picked runs. */
async function errorWithFixes<T>(message: string, fixes: Readonly<Record<string, () => Thenable<T> | Promise<T>>>): Promise<T | undefined> {
  const picked = await vscode.window.showErrorMessage(shownText(message, 'notification'), ...Object.keys(fixes));
  const fix = picked === undefined ? undefined : fixes[picked];
  return fix ? await fix() : undefined;
}

const openRegistrySettings = (): Thenable<undefined> =>
  vscode.commands.executeCommand<undefined>('workbench.action.openSettings', 'acpClient.registry.url');

/** The fixes every registry error offers besides Retry. */
const fixesBesidesRetry = (deps: AgentRegistryDeps): Record<string, () => Thenable<undefined> | Promise<undefined>> => ({
  'Registry Settings': openRegistrySettings,
  'Show Log': () => (deps.log.show(), Promise.resolve(undefined)),
});

/** Nothing installs, updates or starts in Restricted Mode: say so, with the way out. */
export async function refusedWhileRestricted(): Promise<boolean> {
  if (vscode.workspace.isTrusted) return false;
  const manage = 'Manage Workspace Trust';
  // A toast shows no `detail`: the way out goes in the message itself.
  const picked = await vscode.window.showWarningMessage(`ACP: ${UNTRUSTED_INSTALL.title}. ${UNTRUSTED_INSTALL.detail}`, manage);
  if (picked === manage) await vscode.commands.executeCommand('workbench.trust.manage');
  return true;
}

/** The registry's index (`force`: fetched again, not from the cache); a failure offers Retry and the fixes. */
export async function loadIndex(deps: AgentRegistryDeps, force: boolean): Promise<LoadedIndex | undefined> {
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
      Retry: () => loadIndex(deps, true),
      ...fixesBesidesRetry(deps),
    });
  }
}

/** Installs (or updates) `agent` under a cancellable progress; undefined when it did not happen. */
export async function installAgent(deps: AgentRegistryDeps, agent: RegistryAgent, verb: InstallVerb): Promise<InstalledAgent | undefined> {
  // Trust can be taken back while a picker is open: checked again right before anything is written.
  if (await refusedWhileRestricted()) return undefined;
  const outcome = await attemptInstall(() => runInstall(deps, agent, verb));
  switch (outcome.kind) {
    case 'installed': {
      const { installed } = outcome;
      deps.log.info(`Installed ${installed.id} ${installed.version} (${installed.kind}): ${installed.command} ${installed.args.join(' ')}`);
      return installed;
    }
    case 'cancelled':
      return offerRetryAfterCancel(deps, agent, verb);
    case 'failed':
      deps.log.error(`Installing ${agent.id} failed: ${outcome.message}`);
      return errorWithFixes<InstalledAgent | undefined>(`ACP: ${outcome.message}`, {
        Retry: () => installAgent(deps, agent, verb),
        ...fixesBesidesRetry(deps),
      });
  }
}

function runInstall(deps: AgentRegistryDeps, agent: RegistryAgent, verb: InstallVerb): Thenable<InstalledAgent> {
  const name = agentListing(agent, undefined).label;
  return withInstallProgress(`${verb} ${name} ${agent.version}`, { agentName: name, version: agent.version }, deps.installs, (progress) => {
    const warn = (text: string): void => {
      deps.log.warn(text);
      void vscode.window.showWarningMessage(shownText(`ACP: ${text}`, 'notification'));
    };
    // http only from a registry the user chose: registryUrl() reads user settings alone, so a URL other than
    // the official one is the user's own.
    const options = { ...progress, allowInsecure: registryUrl() !== DEFAULT_REGISTRY_URL, onWarning: warn };
    return verb === 'Updating' ? deps.installer.update(agent, options) : deps.installer.install(agent, options);
  });
}

/** The user's own Cancel is not an error; they may still want it. */
async function offerRetryAfterCancel(
  deps: AgentRegistryDeps,
  agent: RegistryAgent,
  verb: InstallVerb,
): Promise<InstalledAgent | undefined> {
  const again = await vscode.window.showInformationMessage(
    shownText(`ACP: ${verb.toLowerCase()} ${agent.name} was cancelled.`, 'notification'),
    'Retry',
  );
  return again ? installAgent(deps, agent, verb) : undefined;
}
