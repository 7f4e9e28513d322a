/** Reads the agent settings from VS Code's configuration and reports broken entries once per change. */
import * as vscode from 'vscode';
import type { TraceLevel } from '../acp/log-sink';
import {
  parseAgentsSetting,
  pickDefaultAgent,
  protocolPreferenceSchema,
  type AgentConfig,
  type ProtocolPreference,
} from '../agents/agent-config';
import { mergeAgents } from '../agents/registry/merge-agents';

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
    const { agents: configured, problems } = parseAgentsSetting(vscode.workspace.getConfiguration('acpClient').get('agents'));
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
    return maxReadBytesFromSetting(vscode.workspace.getConfiguration('acpClient').get('limits.maxReadMB'));
  }

  /** `acpClient.history.maxSessions`: stored conversations kept per workspace, the oldest dropped beyond it. */
  historyMaxSessions(): number {
    return positiveInteger(vscode.workspace.getConfiguration('acpClient').get('history.maxSessions'), 200);
  }

  /** `acpClient.idleTimeoutMinutes` in ms (0: never): an agent with no turn running this long is stopped. */
  idleTimeoutMs(): number {
    const minutes = vscode.workspace.getConfiguration('acpClient').get('idleTimeoutMinutes');
    return typeof minutes === 'number' && Number.isFinite(minutes) && minutes >= 0 ? minutes * 60_000 : 30 * 60_000;
  }

  /** `acpClient.startupTimeoutSeconds`, in ms: real agents take 5–15 s to start, a first `npx` download longer. */
  startupTimeoutMs(): number {
    const seconds = vscode.workspace.getConfiguration('acpClient').get<number>('startupTimeoutSeconds');
    return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 30_000;
  }

  trace(): TraceLevel {
    const value = vscode.workspace.getConfiguration('acpClient').get<string>('trace');
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
