/** Reads the agent settings from VS Code's configuration and reports broken entries once per change. */
import * as vscode from 'vscode';
import type { TraceLevel } from '../acp/log-sink';
import {
  pickDefaultAgent,
  resolveAgentsSetting,
  protocolPreferenceSchema,
  type AgentConfig,
  type ProtocolPreference,
} from '../agents/agent-config';
import { mergeAgents } from '../agents/registry/merge-agents';
import { userSetting } from './user-settings';
import { currentWorkspaceKey } from './workspace-identity';

/** Agents installed from the ACP registry; they join the list after the settings' own. */
export interface InstalledAgentsSource {
  agentConfigs(): readonly AgentConfig[];
  onDidChange(listener: () => void): { dispose(): void };
}
import { maxReadBytesFromSetting } from '../shared/limits';
import { shownText } from '../shared/shown-text';

export class AgentSettings implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;
  private readonly installedSubscription: { dispose(): void } | undefined;
  private reported = '';

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly installed?: InstalledAgentsSource,
  ) {
    this.subscription = vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('acpClient')) this.changed.fire();
    });
    this.installedSubscription = installed?.onDidChange(() => this.changed.fire());
  }

  agents(): readonly AgentConfig[] {
    // Scope by scope: an agent the workspace names gets none of the user's entry of that name (see definition-scopes).
    const { agents: configured, problems } = resolveAgentsSetting(
      vscode.workspace.getConfiguration('acpClient').inspect('agents'),
      currentWorkspaceKey(),
    );
    const agents = mergeAgents(configured, this.installed?.agentConfigs() ?? []);
    const report = problems.join('\n');
    if (report && report !== this.reported) {
      for (const problem of problems) this.log.warn(problem);
      void vscode.window.showWarningMessage(
        shownText(`ACP: ${problems[0] ?? ''}${problems.length > 1 ? ` (+${problems.length - 1} more, see the log)` : ''}`, 'notification'),
      );
    }
    this.reported = report;
    const preference = this.protocolVersion();
    return agents.map((agent) => (agent.protocolVersion === undefined ? { ...agent, protocolVersion: preference } : agent));
  }

  /** The global `acpClient.protocolVersion`; an agent's own `protocolVersion` wins. */
  protocolVersion(): ProtocolPreference {
    const parsed = protocolPreferenceSchema.safeParse(vscode.workspace.getConfiguration('acpClient').get('protocolVersion'));
    return parsed.success ? parsed.data : 1;
  }

  defaultAgent(): AgentConfig | undefined {
    return pickDefaultAgent(this.agents(), vscode.workspace.getConfiguration('acpClient').get<string>('defaultAgent'));
  }

  /** `acpClient.limits.maxReadMB` in bytes: the most one `fs/read_text_file` answer may hold. */
  maxReadBytes(): number {
    return maxReadBytesFromSetting(userSetting('limits.maxReadMB'));
  }

  /** `acpClient.history.maxSessions`: stored conversations kept per workspace, the oldest dropped beyond it. */
  historyMaxSessions(): number {
    return positiveInteger(userSetting('history.maxSessions'), 200);
  }

  /** `acpClient.idleTimeoutMinutes` in ms (0: never): an agent with no turn running this long is stopped. */
  idleTimeoutMs(): number {
    const minutes = userSetting('idleTimeoutMinutes');
    return typeof minutes === 'number' && Number.isFinite(minutes) && minutes >= 0 ? minutes * 60_000 : 30 * 60_000;
  }

  /** `acpClient.startupTimeoutSeconds`, in ms: real agents take 5–15 s to start, a first `npx` download longer. */
  startupTimeoutMs(): number {
    const seconds = userSetting('startupTimeoutSeconds');
    return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 30_000;
  }

  trace(): TraceLevel {
    const value = userSetting('trace');
    return value === 'messages' || value === 'verbose' ? value : 'off';
  }

  dispose(): void {
    this.subscription.dispose();
    this.installedSubscription?.dispose();
    this.changed.dispose();
  }
}

function positiveInteger(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : fallback;
}
