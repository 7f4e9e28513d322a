/**
 * Installs, updates, pins and uninstalls registry agents in global storage (`<storage>/agents/<id>/<version>`),
 * and keeps the manifest of what is installed. Editor-free: the VS Code commands drive it with progress and a
 * cancel signal. Calls are serialized so two installs never write the manifest at once.
 */
import { rm } from 'node:fs/promises';
import * as path from 'node:path';
import type { AgentConfig } from '../agent-config';
import { installBinary } from './binary-install';
import { displayText } from './display-text';
import type { DownloadProgress } from './download';
import type { ExtractionLimits } from './extraction-limits';
import { readManifest, writeManifest, type InstalledAgent } from './installed-manifest';
import { removeStalePartials } from './partial-folders';
import { missingLauncher, packageLaunchLine, type PackageLauncher } from './package-launch';
import type { Platform, RegistryAgent } from './registry-schema';

export interface InstallOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: DownloadProgress) => void;
  /**
   * Plain-http archives allowed. Only for a registry URL the user set themselves (never one a workspace chose):
   * the caller knows where the URL came from. Default false: https only.
   */
  readonly allowInsecure?: boolean;
  /** Told what the user should know about an install that went ahead (the registry gave no checksum). */
  readonly onWarning?: (text: string) => void;
}

export interface AgentInstallerOptions {
  /** The extension's global storage folder. */
  readonly storageDir: string;
  readonly platform: Platform | undefined;
  readonly fetch?: typeof fetch;
  /** Where npx/uvx are looked up; the extension host's own environment by default. */
  readonly env?: NodeJS.ProcessEnv;
  /** Caps on unpacking one archive; the defaults suit real agents (tests set them low). */
  readonly limits?: Partial<ExtractionLimits>;
}

export class AgentInstaller {
  private readonly agentsRoot: string;
  private readonly manifestFile: string;
  private entries: readonly InstalledAgent[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly options: AgentInstallerOptions) {
    this.agentsRoot = path.join(options.storageDir, 'agents');
    this.manifestFile = path.join(this.agentsRoot, 'installed.json');
  }

  /**
   * Reads the manifest; returns the problem when the file was unreadable (then nothing counts as installed). Also
   * removes what a crashed install left (`.partial-*` folders and downloads).
   */
  async load(): Promise<string | undefined> {
    await removeStalePartials(this.agentsRoot);
    const read = await readManifest(this.manifestFile);
    this.entries = read.agents;
    this.changed();
    return read.problem;
  }

  get installed(): readonly InstalledAgent[] {
    return this.entries;
  }

  find(id: string): InstalledAgent | undefined {
    return this.entries.find((entry) => entry.id === id);
  }

  /** The installed agents as agent definitions, for the same list the settings fill. */
  agentConfigs(): readonly AgentConfig[] {
    return this.entries.map((entry) => ({ name: entry.name, command: entry.command, args: entry.args, env: entry.env }));
  }

  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Installs (or reinstalls) the registry's version; a pin on an earlier install is kept. */
  install(agent: RegistryAgent, options: InstallOptions = {}): Promise<InstalledAgent> {
    return this.serialized(async () => {
      const previous = this.find(agent.id);
      const entry = await this.materialize(agent, previous?.pinned ?? false, options);
      await this.save([...this.entries.filter((other) => other.id !== agent.id), entry]);
      // The manifest is a file on disk: only a version folder of this agent is ever removed on its word.
      if (previous?.folder && previous.folder !== entry.folder && path.dirname(previous.folder) === this.agentFolder(agent.id))
        await rm(previous.folder, { recursive: true, force: true });
      return entry;
    });
  }

  /** Moves an installed agent to the registry's version, unless it is pinned. */
  async update(agent: RegistryAgent, options: InstallOptions = {}): Promise<InstalledAgent> {
    const current = this.find(agent.id);
    if (!current) throw new Error(`${agent.name} is not installed.`);
    if (current.pinned) throw new Error(`${current.name} is pinned to ${current.version}; unpin it to update.`);
    return this.install(agent, options);
  }

  setPinned(id: string, pinned: boolean): Promise<InstalledAgent> {
    return this.serialized(async () => {
      const current = this.find(id);
      if (!current) throw new Error(`No installed agent "${id}".`);
      const entry = { ...current, pinned };
      await this.save(this.entries.map((other) => (other.id === id ? entry : other)));
      return entry;
    });
  }

  /** Forgets the agent and removes everything installed for it. */
  uninstall(id: string): Promise<void> {
    return this.serialized(async () => {
      await rm(this.agentFolder(id), { recursive: true, force: true });
      await this.save(this.entries.filter((entry) => entry.id !== id));
    });
  }

  private async materialize(agent: RegistryAgent, pinned: boolean, options: InstallOptions): Promise<InstalledAgent> {
    // The name becomes the agent's name in every list and picker, so it is stored already made safe to show.
    const base = { id: agent.id, name: displayText(agent.name, 80), version: agent.version, pinned };
    const target = this.options.platform ? agent.distribution.binary?.[this.options.platform] : undefined;
    if (target) {
      const folder = path.join(this.agentFolder(agent.id), safeSegment(agent.version));
      const installed = await installBinary(target, this.agentsRoot, folder, {
        ...options,
        ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
        ...(this.options.limits ? { limits: this.options.limits } : {}),
      });
      return { ...base, kind: 'binary', command: installed.command, args: target.args, env: target.env, folder };
    }
    const launchers = (['npx', 'uvx'] as const).filter((launcher) => agent.distribution[launcher] !== undefined);
    if (launchers.length === 0) {
      const platforms = Object.keys(agent.distribution.binary ?? {}).join(', ');
      throw new Error(
        `${agent.name} has no build for this machine (${this.options.platform ?? `${process.platform}-${process.arch}`})${platforms ? `; only for ${platforms}` : ''}.`,
      );
    }
    let firstMissing: string | undefined;
    for (const launcher of launchers) {
      const missing = await missingLauncher(launcher, this.options.env);
      if (missing) {
        firstMissing ??= missing;
        continue;
      }
      return this.packageEntry(base, launcher, agent);
    }
    throw new Error(firstMissing);
  }

  private packageEntry(
    base: Pick<InstalledAgent, 'id' | 'name' | 'version' | 'pinned'>,
    launcher: PackageLauncher,
    agent: RegistryAgent,
  ): InstalledAgent {
    const distribution = agent.distribution[launcher]!;
    const line = packageLaunchLine(launcher, distribution);
    return { ...base, kind: launcher, command: line.command, args: [...line.args], env: { ...line.env } };
  }

  private agentFolder(id: string): string {
    return path.join(this.agentsRoot, safeSegment(id));
  }

  private async save(entries: readonly InstalledAgent[]): Promise<void> {
    await writeManifest(this.manifestFile, entries);
    this.entries = entries;
    this.changed();
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  /**
   * Every change starts from the manifest on disk: another VS Code window shares the global storage and may have
   * installed or removed agents since this one read it.
   */
  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const fresh = async (): Promise<T> => {
      const read = await readManifest(this.manifestFile);
      if (!read.problem) this.entries = read.agents;
      return work();
    };
    const run = this.queue.then(fresh, fresh);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/** Ids are validated by the schema; versions are free text, so they are made safe to be one folder name. */
const safeSegment = (text: string): string => text.replace(/[^A-Za-z0-9._+-]/g, '_').replace(/^\.+/, '_');
