/**
 * One running agent: its process, the ACP connection over its stdio, the requests it may make of us (files,
 * permission) and the ACP session we opened on it. Knows nothing of turns; the controller drives it.
 */
import type { AgentConfig } from '../agents/agent-config';
import { AgentProcess, type AgentExit } from '../agents/agent-process';
import { AcpConnection } from '../acp/connection';
import { parseSessionUpdate } from '../acp/schemas/session-update';
import { parseToolCallFields } from '../acp/schemas/session-update-fields';
import { configOptionsOf, modesOf } from '../acp/schemas/session-setup';
import type { FileSystemHandler } from '../client/fs-handler';
import type { PermissionBroker } from '../client/permission-broker';
import { TerminalManager } from '../client/terminal-manager';
import type { TranscriptAction } from '../shared/actions';
import type { ContentBlock } from '../shared/content';
import type { ConfigOption, PermissionOption, SessionMode } from '../shared/model';
import { pathsNamedBy, type ToolCallShown } from '../shared/tool-paths';
import type { SessionUpdate, ToolCallFields } from '../shared/updates';
import { CLIENT_CAPABILITIES } from './client-capabilities';
import type { SessionLog } from './ports';
import { acceptedVersion, configValuePayload, NeedsV1Restart, promptCapabilitiesOf, type ProtocolVersion } from './protocol-version';
import { AgentTerminalDecoder } from './agent-terminals';
import { EarlyUpdateBuffer } from './update-buffer';

export interface RequestPermissionParams {
  readonly toolCallId: string;
  readonly toolCall: ToolCallFields;
  readonly options: readonly PermissionOption[];
}

/** What the chat is told about the agent's terminals. */
export type TerminalEvent = Extract<TranscriptAction, { type: 'terminal_started' | 'terminal_output' | 'terminal_exited' | 'terminal_released' | 'terminal_patched' }>;

export interface AgentSessionOptions {
  readonly cwd: string;
  /** The ACP version to offer in `initialize`. */
  readonly protocolVersion: ProtocolVersion;
  /** Workspace folders: a terminal's cwd must be inside one. */
  readonly roots: () => readonly string[];
  readonly log: SessionLog;
  readonly trace: 'off' | 'messages' | 'verbose';
  readonly clientVersion: string;
  readonly files: FileSystemHandler;
  readonly permissions: PermissionBroker;
  readonly hooks: {
    readonly onUpdate: (update: SessionUpdate) => void;
    /** Shows the request; returns the tool call as the transcript now has it (earlier updates merged), if shown. */
    readonly onPermissionRequest: (requestId: string, params: RequestPermissionParams) => ToolCallShown | undefined;
    readonly onPermissionSettled: (requestId: string, outcome: { optionId: string } | 'cancelled') => void;
    readonly onExit: (exit: AgentExit) => void;
    readonly onTerminal: (event: TerminalEvent) => void;
  };
}

export interface StartedSession {
  readonly sessionId: string;
  readonly protocolVersion: ProtocolVersion;
  readonly modes?: { readonly current: string; readonly available: readonly SessionMode[] };
  readonly configOptions?: readonly ConfigOption[];
  readonly promptCapabilities: { readonly image: boolean; readonly audio: boolean; readonly embeddedContext: boolean };
  /** Updates the agent sent for this session before answering `session/new`. */
  readonly earlyUpdates: readonly SessionUpdate[];
}

export class AgentSession {
  readonly agentName: string;
  private readonly process: AgentProcess;
  private readonly connection: AcpConnection;
  private readonly terminals: TerminalManager;
  private readonly early = new EarlyUpdateBuffer<SessionUpdate>();
  private readonly agentTerminals = new AgentTerminalDecoder();
  private readonly unknownKinds = new Set<string>();
  private currentSessionId: string | undefined;
  private nextPermissionId = 1;

  constructor(
    config: AgentConfig,
    private readonly options: AgentSessionOptions,
  ) {
    this.agentName = config.name;
    const log = options.log;
    this.process = new AgentProcess(config, { cwd: options.cwd, onStderrLine: (line) => log.info(`[${config.name} stderr] ${line}`) });
    this.connection = new AcpConnection({ input: this.process.stdout, output: this.process.stdin, log, trace: options.trace });
    const onTerminal = options.hooks.onTerminal;
    this.terminals = new TerminalManager(options.roots, () => options.cwd, {
      onOutput: (terminalId, text) => onTerminal({ type: 'terminal_output', terminalId, text }),
      onExit: (terminalId, status) => onTerminal({ type: 'terminal_exited', terminalId, exitCode: status.exitCode, signal: status.signal }),
    });
    this.registerHandlers();
    this.process.onExit((exit) => {
      // Commands the agent started do not outlive it.
      this.terminals.disposeAll();
      this.connection.dispose();
      options.hooks.onExit(exit);
    });
  }

  get sessionId(): string | undefined {
    return this.currentSessionId;
  }

  get exited(): boolean {
    return this.process.exited !== undefined;
  }

  /** Initializes with the offered version and opens a session. A v2 offer answered with 1 throws NeedsV1Restart. */
  async start(): Promise<StartedSession> {
    const offered = this.options.protocolVersion;
    const clientInfo = { name: 'acp-client-vscode', title: 'ACP Client for VS Code', version: this.options.clientVersion };
    const init = await this.connection.initialize(
      offered === 2 ? { protocolVersion: 2, info: clientInfo, capabilities: {} } : { protocolVersion: 1, clientCapabilities: CLIENT_CAPABILITIES, clientInfo },
    );
    const version = acceptedVersion(offered, init.protocolVersion);
    if (typeof version === 'object') throw new Error(version.error);
    if (version !== offered) throw new NeedsV1Restart(this.agentName);
    this.options.log.info(`${this.agentName} speaks ACP v${version}`);
    const created = await this.connection.newSession({ cwd: this.options.cwd, mcpServers: [] });
    this.currentSessionId = created.sessionId;
    const problems: string[] = [];
    const modes = modesOf(created);
    const configOptions = configOptionsOf(created.configOptions, problems);
    problems.forEach((problem) => this.logProblemOnce(`session/new: ${problem}`));
    // v2 may list the slash commands in the session/new answer rather than in an update.
    const commands = created['availableCommands'] === undefined ? undefined : parseSessionUpdate({ sessionUpdate: 'available_commands_update', availableCommands: created['availableCommands'] }).update;
    return {
      sessionId: created.sessionId,
      protocolVersion: version,
      ...(modes ? { modes } : {}),
      ...(configOptions ? { configOptions } : {}),
      promptCapabilities: promptCapabilitiesOf(init, version),
      earlyUpdates: [...(commands ? [commands] : []), ...this.early.release(created.sessionId, Date.now())],
    };
  }

  prompt(content: readonly ContentBlock[]): Promise<{ stopReason?: string; messageId?: string | null }> {
    const sessionId = this.requireSession();
    return this.connection.prompt({ sessionId, prompt: content });
  }

  cancel(): void {
    if (this.currentSessionId) this.connection.cancel({ sessionId: this.currentSessionId });
  }

  cancelTerminal(terminalId: string): Promise<void> {
    return this.connection.cancelTerminal({ sessionId: this.requireSession(), terminalId });
  }

  async setMode(modeId: string): Promise<void> {
    await this.connection.setMode({ sessionId: this.requireSession(), modeId });
    this.options.hooks.onUpdate({ sessionUpdate: 'current_mode_update', currentModeId: modeId });
  }

  /** The session's version is the offer: an agent answering otherwise was restarted on v1 (see start). */
  async setConfigOption(configId: string, value: string | boolean): Promise<void> {
    const result = await this.connection.setConfigOption({ sessionId: this.requireSession(), configId, ...configValuePayload(value, this.options.protocolVersion) });
    const problems: string[] = [];
    const configOptions = configOptionsOf(result?.configOptions, problems);
    if (configOptions) this.options.hooks.onUpdate({ sessionUpdate: 'config_option_update', configOptions });
  }

  stop(): Promise<AgentExit> {
    this.terminals.disposeAll();
    return this.process.stop();
  }

  killNow(): void {
    this.terminals.disposeAll();
    this.process.killNow();
  }

  private requireSession(): string {
    if (!this.currentSessionId) throw new Error('No ACP session is open');
    return this.currentSessionId;
  }

  private registerHandlers(): void {
    const { hooks, files, permissions, log } = this.options;
    this.connection.onSessionUpdate((params) => {
      const { update, terminal, problems } = parseSessionUpdate(params.update, this.options.protocolVersion);
      for (const problem of problems) this.logProblemOnce(problem);
      if (terminal) {
        // Agents create terminals within a session: one for no session of ours is not shown.
        if (params.sessionId === this.currentSessionId) hooks.onTerminal(this.agentTerminals.translate(terminal));
        else log.warn(`Ignored ${terminal.kind} for session ${params.sessionId}`);
        return;
      }
      if (!update) return;
      if (params.sessionId !== this.currentSessionId) {
        // Before `session/new` has answered, the id is unknown to us: keep the update for replay.
        if (this.currentSessionId === undefined) this.early.hold(params.sessionId, update, Date.now());
        else log.warn(`Ignored an update for unknown session ${params.sessionId}`);
        return;
      }
      hooks.onUpdate(update);
    });
    this.connection.onRequestPermission(async (params, token) => {
      const requestId = `perm-${this.nextPermissionId++}`;
      const problems: string[] = [];
      const toolCall = parseToolCallFields(params.toolCall, problems);
      problems.forEach((problem) => this.logProblemOnce(`session/request_permission: ${problem}`));
      const options = params.options.map((option) => ({ optionId: option.optionId, name: option.name, kind: option.kind }));
      const shown = hooks.onPermissionRequest(requestId, { toolCallId: params.toolCall.toolCallId, toolCall, options }) ?? toolCall;
      const ask = { requestId, agentName: this.agentName, toolTitle: shown.title ?? 'Tool call', paths: pathsNamedBy(shown), options };
      const outcome = await permissions.request(ask, token);
      hooks.onPermissionSettled(requestId, outcome.outcome === 'selected' ? { optionId: outcome.optionId } : 'cancelled');
      return { outcome };
    });
    this.connection.onReadTextFile((params) => files.readTextFile(params));
    this.connection.onWriteTextFile((params) => files.writeTextFile(params));
    this.registerTerminalHandlers();
  }

  private registerTerminalHandlers(): void {
    const { hooks } = this.options;
    const terminals = this.terminals;
    this.connection.onCreateTerminal(async (params) => {
      const created = await terminals.create(params);
      hooks.onTerminal({ type: 'terminal_started', terminalId: created.terminalId, commandLine: commandLine(params.command, params.args ?? []) });
      return created;
    });
    this.connection.onTerminalRequest('output', (params) => terminals.output(params.terminalId));
    this.connection.onTerminalRequest('wait_for_exit', (params) => terminals.waitForExit(params.terminalId));
    this.connection.onTerminalRequest('kill', (params) => terminals.kill(params.terminalId));
    this.connection.onTerminalRequest('release', (params) => {
      const released = terminals.release(params.terminalId);
      hooks.onTerminal({ type: 'terminal_released', terminalId: params.terminalId });
      return released;
    });
  }

  private logProblemOnce(problem: string): void {
    if (this.unknownKinds.has(problem)) return;
    this.unknownKinds.add(problem);
    this.options.log.warn(`session/update: ${problem}`);
  }
}

/** A command line for display: arguments with spaces or quotes are quoted. */
function commandLine(command: string, args: readonly string[]): string {
  return [command, ...args].map((part) => (/^[\w@%+=:,./-]+$/.test(part) ? part : `'${part.replace(/'/g, `'\\''`)}'`)).join(' ');
}
