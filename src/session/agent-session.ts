/**
 * One running agent: its process, the ACP connection over its stdio, the requests it may make of us (files,
 * permission, terminals) and the ACP session we opened on it. Knows nothing of turns; the controller drives it.
 * Everything the agent does to the transcript leaves here as one transcript action per event, on one hook.
 */
import { CancellationTokenSource, ErrorCodes, ResponseError } from 'vscode-jsonrpc';
import type { AgentConfig } from '../agents/agent-config';
import { AgentProcess, type AgentExit } from '../agents/agent-process';
import { AcpConnection, type SessionNotification } from '../acp/connection';
import type { LogSink, TraceLevel } from '../acp/log-sink';
import { TraceRedaction } from '../acp/trace-redaction';
import type { ResolvedMcpServer } from '../agents/mcp-references';
import { NO_MCP_SERVERS, selectForAgent, type McpSelection, type McpServerWire } from '../agents/mcp-wire';
import { acceptedVersion, configValuePayload, promptCapabilitiesOf, type ProtocolVersion } from '../acp/protocol-version';
import { canLogOut, parseAuthMethods, type AuthMethod } from '../acp/schemas/auth-methods';
import type { ListedSession } from '../acp/schemas/listed-sessions';
import { NO_SESSION_SUPPORT, sessionSupportOf, type SessionSupport } from '../acp/schemas/session-capabilities';
import type { SessionSetup } from '../acp/schemas/session-setup';
import type { FileSystemHandler } from '../client/fs-handler';
import type { CancellationSignal } from '../client/ports';
import { missingFileAnswerFor, type MissingFileAnswer } from '../client/missing-file-answer';
import type { ElicitationBroker } from '../client/elicitation-broker';
import type { PermissionBroker } from '../client/permission-broker';
import { TerminalManager } from '../client/terminal-manager';
import type { TranscriptAction } from '../shared/actions';
import type { ContentBlock } from '../shared/content';
import type { AvailableCommand, ConfigOption, SessionModes } from '../shared/model';
import { pathsNamedBy, type ToolCallShown } from '../shared/tool-paths';
import type { SessionUpdate } from '../shared/updates';
import { CLIENT_CAPABILITIES } from './client-capabilities';
import { NeedsV1Restart } from './protocol-version';
import { AuthRequired, isAuthRequired } from './auth-required';
import { AgentTerminalDecoder, type TerminalAction } from './agent-terminals';
import { EarlyUpdateBuffer } from './update-buffer';
import { mcpCapabilitiesOf } from './mcp-capabilities';
import { ElicitationHandler } from './elicitation-handler';
import { LoadReplay, SessionMethodUnsupported, type SessionOpening } from './session-opening';

export type { ListedSession } from '../acp/schemas/listed-sessions';
export type { SessionSupport } from '../acp/schemas/session-capabilities';
export { SessionMethodUnsupported, type SessionOpening } from './session-opening';

/** What the agent does to the transcript: its updates, its terminals, its permission requests. */
export type AgentAction =
  | Extract<
      TranscriptAction,
      { type: 'session_update' | 'permission_requested' | 'permission_resolved' | 'elicitation_requested' | 'elicitation_resolved' }
    >
  | TerminalAction;

export interface AgentSessionOptions {
  readonly cwd: string;
  /** The ACP version to offer in `initialize`. */
  readonly protocolVersion: ProtocolVersion;
  /** Workspace folders: a terminal's cwd must be inside one. */
  readonly roots: () => readonly string[];
  readonly log: LogSink;
  readonly trace: TraceLevel;
  readonly clientVersion: string;
  readonly files: FileSystemHandler;
  readonly permissions: PermissionBroker;
  /** MCP servers for the agent's sessions; those on transports it does not advertise are left out. */
  readonly mcpServers?: readonly ResolvedMcpServer[];
  readonly elicitations: ElicitationBroker;
  readonly hooks: {
    /** One action per event the agent sends for our session, in arrival order. */
    readonly onAction: (action: AgentAction) => void;
    /** The tool call as the transcript now has it (earlier updates merged), if it is shown. */
    readonly toolCallShown: (toolCallId: string) => ToolCallShown | undefined;
    readonly onExit: (exit: AgentExit) => void;
  };
}

export interface StartedSession {
  readonly sessionId: string;
  readonly protocolVersion: ProtocolVersion;
  readonly modes?: SessionModes;
  readonly configOptions?: readonly ConfigOption[];
  readonly availableCommands?: readonly AvailableCommand[];
  readonly promptCapabilities: { readonly image: boolean; readonly audio: boolean; readonly embeddedContext: boolean };
  /** Updates the agent sent for this session before answering `session/new` or `session/resume`. */
  readonly earlyUpdates: readonly SessionUpdate[];
  /** MCP servers configured but not passed to this agent, each with the reason. */
  readonly mcpServersSkipped: readonly string[];
}

export class AgentSession {
  readonly agentName: string;
  private readonly process: AgentProcess;
  private readonly connection: AcpConnection;
  private readonly terminals: TerminalManager;
  private readonly early = new EarlyUpdateBuffer<SessionUpdate>();
  private readonly agentTerminals = new AgentTerminalDecoder();
  private currentSessionId: string | undefined;
  private nextPermissionId = 1;
  /** Set from the agent's `initialize` answer: see client/missing-file-answer.ts. */
  private missingFile: MissingFileAnswer = 'not_found_error';
  private readonly redaction = new TraceRedaction();
  private mcp: McpSelection = NO_MCP_SERVERS;
  /** What `initialize` settled, kept so a session can be opened again after signing in. */
  private initialized: { readonly version: ProtocolVersion; readonly promptCapabilities: StartedSession['promptCapabilities'] } | undefined;
  private signIn: { readonly methods: readonly AuthMethod[]; readonly canLogOut: boolean } = { methods: [], canLogOut: false };
  private support: SessionSupport = NO_SESSION_SUPPORT;
  /** A resume or load in flight: its session id is known before the answer, unlike a new session's. */
  private opening: { readonly sessionId: string; readonly load?: LoadReplay } | undefined;

  constructor(
    config: AgentConfig,
    private readonly options: AgentSessionOptions,
  ) {
    this.agentName = config.name;
    const log = options.log;
    this.process = new AgentProcess(config, { cwd: options.cwd, onStderrLine: (line) => log.info(`[${config.name} stderr] ${line}`) });
    this.connection = new AcpConnection({
      input: this.process.stdout,
      output: this.process.stdin,
      log,
      trace: options.trace,
      protocolVersion: options.protocolVersion,
      redaction: this.redaction,
    });
    const onAction = options.hooks.onAction;
    this.terminals = new TerminalManager(options.roots, () => options.cwd, {
      onOutput: (terminalId, text) => onAction({ type: 'terminal_output', terminalId, text }),
      onExit: (terminalId, status) => onAction({ type: 'terminal_exited', terminalId, exitCode: status.exitCode, signal: status.signal }),
    });
    // An agent that closed its output but lives on can answer nothing any more: stop it, so its exit ends
    // every pending request and turn instead of leaving them waiting for ever.
    this.connection.onClose((reason) => {
      if (this.process.exited) return;
      log.warn(`${config.name}: ${reason} while still running; stopping it`);
      void this.process.stopForFault(reason);
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

  /** The MCP servers `session/new` carried: `session/load` and `session/resume` must carry the same. */
  get mcpServers(): readonly McpServerWire[] {
    return this.mcp.servers;
  }

  get exited(): boolean {
    return this.process.exited !== undefined;
  }

  /** The sign-in methods the agent listed in `initialize` (those we can use). */
  get authMethods(): readonly AuthMethod[] {
    return this.signIn.methods;
  }

  /** The agent advertised `agentCapabilities.auth.logout`. */
  get canLogOut(): boolean {
    return this.signIn.canLogOut;
  }

  /** Which session lifecycle methods the agent advertised in `initialize` (all false before it, and on v2). */
  get sessionSupport(): SessionSupport {
    return this.support;
  }

  /**
   * Initializes with the offered version and opens a session (a new one unless `opening` says otherwise). A v2
   * offer answered with 1 throws NeedsV1Restart; a session refused until the user signs in throws AuthRequired,
   * and the agent keeps running for `authenticate`.
   */
  async start(opening?: SessionOpening | ((support: SessionSupport) => SessionOpening)): Promise<StartedSession> {
    const offered = this.options.protocolVersion;
    const clientInfo = { name: 'acp-client-vscode', title: 'ACP Client for VS Code', version: this.options.clientVersion };
    const init = await this.connection.initialize(
      offered === 2
        ? { protocolVersion: 2, info: clientInfo, capabilities: {} }
        : { protocolVersion: 1, clientCapabilities: CLIENT_CAPABILITIES, clientInfo },
    );
    const version = acceptedVersion(offered, init.protocolVersion);
    if (typeof version === 'object') throw new Error(version.error);
    if (version !== offered) throw new NeedsV1Restart(this.agentName);
    this.options.log.info(`${this.agentName} speaks ACP v${version}`);
    this.missingFile = missingFileAnswerFor(init.agentInfo?.name);
    this.mcp = selectForAgent(this.options.mcpServers ?? [], mcpCapabilitiesOf(init, version));
    this.redaction.add(this.mcp.secrets);
    // Names only: values may hold secrets.
    if (this.mcp.servers.length > 0)
      this.options.log.info(`${this.agentName} gets MCP servers: ${this.mcp.servers.map((server) => server.name).join(', ')}`);
    const problems: string[] = [];
    this.signIn = { methods: parseAuthMethods(init.authMethods, problems), canLogOut: canLogOut(init.agentCapabilities) };
    problems.forEach((problem) => this.options.log.warn(`${this.agentName}: ${problem}`));
    this.initialized = { version, promptCapabilities: promptCapabilitiesOf(init, version) };
    // The v2 draft names its lifecycle differently and is not offered these yet.
    this.support = version === 1 ? sessionSupportOf(init.agentCapabilities) : NO_SESSION_SUPPORT;
    return this.openSession(typeof opening === 'function' ? opening(this.support) : opening);
  }

  /**
   * Opens a session on an initialized agent: at start, again once the user has signed in, or to switch to one
   * of the agent's own sessions. The session open until now stays current until the agent has answered.
   */
  async openSession(opening: SessionOpening = { kind: 'new' }): Promise<StartedSession> {
    const initialized = this.initialized;
    if (!initialized) throw new Error(`${this.agentName} is not initialized`);
    if (this.opening) throw new Error(`${this.agentName} is already opening session ${this.opening.sessionId}`);
    const place = { cwd: this.options.cwd, mcpServers: this.mcp.servers };
    let sessionId: string;
    let setup: SessionSetup;
    if (opening.kind === 'new') {
      ({ sessionId, ...setup } = await signedIn(this.connection.newSession(place)));
    } else {
      sessionId = opening.sessionId;
      setup = await this.reopen(opening, place);
    }
    this.currentSessionId = sessionId;
    return {
      ...setup,
      sessionId,
      protocolVersion: initialized.version,
      promptCapabilities: initialized.promptCapabilities,
      earlyUpdates: this.early.release(sessionId, Date.now()),
      mcpServersSkipped: this.mcp.skipped,
    };
  }

  /** One page of the agent's sessions in our cwd; pass the previous page's `nextCursor` for the next. */
  async listSessions(cursor?: string): Promise<{ sessions: readonly ListedSession[]; nextCursor?: string }> {
    this.requireSupport('list', 'session/list');
    return await signedIn(this.connection.sessions.list({ cwd: this.options.cwd, ...(cursor !== undefined ? { cursor } : {}) }));
  }

  /**
   * Forks the open session (unstable) and returns the new session's id. The open session stays current: the
   * fork is a session of the agent's like any other, opened with `openSession` to talk to it.
   */
  async forkSession(): Promise<string> {
    this.requireSupport('fork', 'session/fork');
    const sessionId = this.requireSession();
    const forked = await signedIn(this.connection.sessions.fork({ sessionId, cwd: this.options.cwd, mcpServers: this.mcp.servers }));
    return forked.sessionId;
  }

  /** Closes the open session: the agent cancels its work; nothing it sends for it afterwards is ours any more. */
  async closeSession(): Promise<void> {
    this.requireSupport('close', 'session/close');
    const sessionId = this.requireSession();
    await this.connection.sessions.close({ sessionId });
    if (this.currentSessionId !== sessionId) return;
    this.currentSessionId = undefined;
    // Terminals belong to the session that created them: its commands do not outlive it.
    this.terminals.disposeAll();
  }

  /** Deletes one of the agent's sessions (as `listSessions` names them); the open one must be closed first. */
  async deleteSession(sessionId: string): Promise<void> {
    this.requireSupport('delete', 'session/delete');
    if (sessionId === this.currentSessionId) throw new Error(`Session ${sessionId} is open: close it before deleting it`);
    await this.connection.sessions.delete({ sessionId });
  }

  /** Retitles the open session (or the named one: it need not be open); returns the title as the agent stored it. */
  async setTitle(title: string, sessionId?: string): Promise<string> {
    this.requireSupport('setTitle', 'session/set_title');
    const stored = await this.connection.sessions.setTitle({ sessionId: sessionId ?? this.requireSession(), title });
    return stored ?? title;
  }

  /** Signs in with an `agent`-type method; cancelling abandons the request (`$/cancel_request`). */
  async authenticate(methodId: string, signal: CancellationSignal): Promise<void> {
    const source = new CancellationTokenSource();
    const subscription = signal.onCancellationRequested(() => source.cancel());
    if (signal.isCancellationRequested) source.cancel();
    try {
      await this.connection.authenticate(methodId, source.token);
    } finally {
      subscription.dispose();
      source.dispose();
    }
  }

  logout(): Promise<void> {
    return this.connection.logout();
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

  setMode(modeId: string): Promise<void> {
    return this.connection.setMode({ sessionId: this.requireSession(), modeId });
  }

  /**
   * The options as the agent says they now stand, if it says. The session's version is the offer: an agent
   * answering otherwise was restarted on v1 (see start).
   */
  setConfigOption(configId: string, value: string | boolean): Promise<readonly ConfigOption[] | undefined> {
    return this.connection.setConfigOption({
      sessionId: this.requireSession(),
      configId,
      ...configValuePayload(value, this.options.protocolVersion),
    });
  }

  stop(): Promise<AgentExit> {
    this.terminals.disposeAll();
    return this.process.stop();
  }

  killNow(): void {
    this.terminals.disposeAll();
    this.process.killNow();
  }

  /** `session/resume` or `session/load`: updates for the session are routed by `receive` while it is in flight. */
  private async reopen(
    opening: Exclude<SessionOpening, { kind: 'new' }>,
    place: { cwd: string; mcpServers: readonly McpServerWire[] },
  ): Promise<SessionSetup> {
    const { sessionId } = opening;
    const params = { sessionId, ...place };
    if (opening.kind === 'resume') {
      this.requireSupport('resume', 'session/resume');
      this.opening = { sessionId };
      try {
        return await signedIn(this.connection.sessions.resume(params));
      } finally {
        this.opening = undefined;
      }
    }
    this.requireSupport('load', 'session/load');
    const load = new LoadReplay(opening.replay);
    this.opening = { sessionId, load };
    try {
      return await signedIn(this.connection.sessions.load(params));
    } finally {
      this.opening = undefined;
      // Once per load, not per update: a long history would flood the log.
      if (load.dropped > 0) this.options.log.info(`${this.agentName}: left out ${load.dropped} replayed updates of session ${sessionId}`);
    }
  }

  private requireSupport(key: keyof SessionSupport, method: string): void {
    if (!this.support[key]) throw new SessionMethodUnsupported(this.agentName, method);
  }

  private requireSession(): string {
    if (!this.currentSessionId) throw new Error('No ACP session is open');
    return this.currentSessionId;
  }

  private registerHandlers(): void {
    const { hooks, files, permissions } = this.options;
    this.connection.onSessionUpdate((notification) => this.receive(notification));
    this.connection.onRequestPermission(async (request, token) => {
      if (!this.ownsSession(request.sessionId, 'session/request_permission')) throw unknownSession(request.sessionId);
      const requestId = `perm-${this.nextPermissionId++}`;
      const { toolCallId, toolCall, options } = request;
      hooks.onAction({ type: 'permission_requested', requestId, toolCallId, toolCall, options });
      // The dialog names what the card shows: the title and files from earlier updates, not only the request's.
      const shown = hooks.toolCallShown(toolCallId) ?? toolCall;
      const outcome = await permissions.request(
        { requestId, agentName: this.agentName, toolTitle: shown.title ?? 'Tool call', paths: pathsNamedBy(shown), options },
        token,
      );
      hooks.onAction({
        type: 'permission_resolved',
        requestId,
        outcome: outcome.outcome === 'selected' ? { optionId: outcome.optionId } : 'cancelled',
      });
      return { outcome };
    });
    this.connection.onReadTextFile((params) => {
      if (!this.ownsSession(params.sessionId, 'fs/read_text_file')) throw unknownSession(params.sessionId);
      return files.readTextFile(params, this.missingFile);
    });
    this.connection.onWriteTextFile((params) => {
      if (!this.ownsSession(params.sessionId, 'fs/write_text_file')) throw unknownSession(params.sessionId);
      return files.writeTextFile(params);
    });
    this.registerTerminalHandlers();
    new ElicitationHandler(this.connection, this.options.elicitations, {
      agentName: this.agentName,
      log: this.options.log,
      onAction: hooks.onAction,
      ownsSession: (sessionId) => this.ownsSession(sessionId, 'elicitation/create'),
      refuse: unknownSession,
    });
  }

  private receive({ sessionId, update, terminal }: SessionNotification): void {
    const { hooks, log } = this.options;
    if (terminal) {
      // Agents create terminals within a session: one for no session of ours is not shown.
      if (sessionId === this.currentSessionId) hooks.onAction(this.agentTerminals.translate(terminal));
      else log.warn(`Ignored ${terminal.kind} for session ${sessionId}`);
      return;
    }
    if (!update) return;
    const opening = this.opening;
    if (opening?.sessionId === sessionId) {
      // A load's replay streams to the transcript (or is left out); a resume's early updates wait for its answer.
      if (!opening.load) this.early.hold(sessionId, update, Date.now());
      else if (opening.load.admits(update)) hooks.onAction({ type: 'session_update', update });
      return;
    }
    if (sessionId !== this.currentSessionId) {
      // Before `session/new` has answered, the id is unknown to us: keep the update for replay.
      if (this.currentSessionId === undefined) this.early.hold(sessionId, update, Date.now());
      else log.warn(`Ignored an update for unknown session ${sessionId}`);
      return;
    }
    hooks.onAction({ type: 'session_update', update });
  }

  /** Requests must name a session this connection opened: anything else is refused and shows nothing. */
  private ownsSession(sessionId: string, method: string): boolean {
    if (sessionId === this.currentSessionId) return true;
    this.options.log.warn(`Refused ${method} for session ${sessionId}, which this connection did not open`);
    return false;
  }

  private registerTerminalHandlers(): void {
    const { hooks } = this.options;
    const terminals = this.terminals;
    this.connection.onCreateTerminal(async (params) => {
      if (!this.ownsSession(params.sessionId, 'terminal/create')) throw unknownSession(params.sessionId);
      const created = await terminals.create(params);
      hooks.onAction({
        type: 'terminal_started',
        terminalId: created.terminalId,
        commandLine: commandLine(params.command, params.args ?? []),
      });
      return created;
    });
    const owned =
      <T>(method: string, serve: (terminalId: string) => T) =>
      (params: { sessionId: string; terminalId: string }): T => {
        if (!this.ownsSession(params.sessionId, `terminal/${method}`)) throw unknownSession(params.sessionId);
        return serve(params.terminalId);
      };
    this.connection.onTerminalRequest(
      'output',
      owned('output', (id) => terminals.output(id)),
    );
    this.connection.onTerminalRequest(
      'wait_for_exit',
      owned('wait_for_exit', (id) => terminals.waitForExit(id)),
    );
    this.connection.onTerminalRequest(
      'kill',
      owned('kill', (id) => terminals.kill(id)),
    );
    this.connection.onTerminalRequest('release', (params) => {
      if (!this.ownsSession(params.sessionId, 'terminal/release')) throw unknownSession(params.sessionId);
      const released = terminals.release(params.terminalId);
      hooks.onAction({ type: 'terminal_released', terminalId: params.terminalId });
      return released;
    });
  }
}

/** An agent refuses session requests with auth_required until the user signs in: the caller offers sign-in. */
async function signedIn<T>(request: Promise<T>): Promise<T> {
  try {
    return await request;
  } catch (error) {
    if (isAuthRequired(error)) throw new AuthRequired(error.message);
    throw error;
  }
}

/** A command line for display: arguments with spaces or quotes are quoted. */
function commandLine(command: string, args: readonly string[]): string {
  return [command, ...args].map((part) => (/^[\w@%+=:,./-]+$/.test(part) ? part : `'${part.replace(/'/g, `'\\''`)}'`)).join(' ');
}

function unknownSession(sessionId: string): ResponseError<void> {
  return new ResponseError(ErrorCodes.InvalidParams, `Unknown session ${sessionId}`);
}
