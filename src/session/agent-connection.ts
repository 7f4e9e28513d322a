/**
 * One agent process and the ACP connection over its stdio, shared by every session of that agent (ACP
 * connections carry many sessions). It initializes once, whoever asks first, and routes what the agent sends to
 * the session it names: updates, permission, file, terminal and elicitation requests. A request naming a session
 * no endpoint here has open is refused and shows nothing. The process stops when its last session lets go, or
 * when the connection breaks; its exit reaches every session still on it.
 */
import type { AgentConfig } from '../agents/agent-config';
import { AgentProcess, type AgentExit } from '../agents/agent-process';
import { AcpConnection, type SessionNotification } from '../acp/connection';
import type { LogSink, TraceLevel } from '../acp/log-sink';
import { MIN_MASKED_ANYWHERE, TraceRedaction } from '../acp/trace-redaction';
import { acceptedVersion, type ProtocolVersion } from '../acp/protocol-version';
import { parseAuthMethods, type AuthMethod } from '../acp/schemas/auth-methods';
import { capabilitiesOf, type AgentCapabilities } from '../acp/agent-capabilities';
import type { CancellationSignal } from '../acp/rpc-boundary';
import { missingFileAnswerFor, type MissingFileAnswer } from '../client/missing-file-answer';
import type { SessionUpdate } from '../shared/updates';
import { CLIENT_CAPABILITIES } from './client-capabilities';
import { NeedsV1Restart } from './version-offer';
import { EarlyUpdateBuffer } from './update-buffer';
import { registerAgentRequests, type SessionEndpoint } from './agent-requests';
import { describeOffer, offerEditorTools, type EditorToolsLauncher, type EditorToolsOffer } from '../editor-tools/editor-tools-offer';
import { editorActionAsker } from './editor-action-asker';

export type { SessionEndpoint } from './agent-requests';

export interface AgentConnectionOptions {
  readonly cwd: string;
  /** The ACP version to offer in `initialize`. */
  readonly protocolVersion: ProtocolVersion;
  readonly log: LogSink;
  readonly trace: TraceLevel;
  readonly clientVersion: string;
  /** The editor's own MCP server, offered to this process's sessions; none without it. */
  readonly editorTools?: EditorToolsLauncher;
}

/** What `initialize` settled, for every session opened on the connection: the version, what the agent can do, how to sign in. */
export interface Initialized extends AgentCapabilities {
  readonly version: ProtocolVersion;
  readonly authMethods: readonly AuthMethod[];
}

export class AgentConnection {
  readonly agentName: string;
  readonly acp: AcpConnection;
  readonly cwd: string;
  private readonly process: AgentProcess;
  private readonly wishes: { readonly editorTools?: boolean; readonly mcpServers?: boolean };
  private editorToolsOffer: Promise<EditorToolsOffer> | undefined;
  private readonly endpoints = new Set<SessionEndpoint>();
  private readonly early = new EarlyUpdateBuffer<SessionUpdate>();
  private readonly redaction = new TraceRedaction();
  private initializing: Promise<Initialized> | undefined;
  private settled: Initialized | undefined;
  /** Set from the agent's `initialize` answer: see client/missing-file-answer.ts. */
  private missingFile: MissingFileAnswer = 'not_found_error';
  /** No new session may join: it is stopping, or it was retired for a fresh process. */
  private closed = false;
  /** The connection closed (either way): nothing more can be answered; the process is stopped and its exit follows. */
  private lost = false;
  /** How many sessions have opened on it: the first one means a fresh process is serving. */
  private opened = 0;

  constructor(
    config: AgentConfig,
    private readonly options: AgentConnectionOptions,
  ) {
    this.agentName = config.name;
    this.cwd = options.cwd;
    this.wishes = {
      ...(config.editorTools !== undefined ? { editorTools: config.editorTools } : {}),
      ...(config.mcpServers !== undefined ? { mcpServers: config.mcpServers } : {}),
    };
    const log = options.log;
    // The agent's env holds its keys (the one stored at sign-in included): an agent quoting one back, or passing it
    // on in a request, must not put it in the trace. Only values long enough to be a key: it is never sent on the
    // wire whole, and masking a flag such as "1" or "http" wherever it stands as a string would blank out the trace.
    this.redaction.add(Object.values(config.env).filter((value) => value.length >= MIN_MASKED_ANYWHERE));
    this.process = new AgentProcess(config, { cwd: options.cwd, onStderrLine: (line) => log.info(`[${config.name} stderr] ${line}`) });
    this.acp = new AcpConnection({
      input: this.process.stdout,
      output: this.process.stdin,
      log,
      trace: options.trace,
      protocolVersion: options.protocolVersion,
      redaction: this.redaction,
    });
    // An agent that closed its output but lives on can answer nothing any more: stop it, so its exit ends
    // every pending request and turn instead of leaving them waiting for ever.
    this.acp.onClose((reason) => {
      this.lost = true;
      if (this.process.exiting) return;
      log.warn(`${config.name}: ${reason} while still running; stopping it`);
      void this.process.stopForFault(reason);
    });
    this.acp.onSessionUpdate((notification) => this.receive(notification));
    registerAgentRequests(this.acp, {
      agentName: this.agentName,
      log,
      endpointFor: (sessionId, method) => this.endpointFor(sessionId, method),
      missingFile: () => this.missingFile,
    });
    this.process.onExit((exit) => {
      this.closed = true;
      this.acp.dispose();
      for (const endpoint of [...this.endpoints]) endpoint.processExited(exit);
      this.endpoints.clear();
      // The editor's server lives as long as the process it serves.
      void this.editorToolsOffer?.then((offer) => (offer.kind === 'offered' ? offer.running.stop() : undefined));
    });
  }

  /**
   * The editor's MCP server for this process, decided (and started) once, after `initialize`: every session on
   * it gets the same server and token. The log says whether it was offered, and why not.
   */
  editorTools(): Promise<EditorToolsOffer> {
    const initialized = this.settled;
    if (!initialized) return Promise.resolve({ kind: 'not_offered', reason: 'the agent is not initialized' });
    // The v2 draft types its MCP servers (`type: "stdio"` too) and gates stdio behind `session.mcp.stdio`: the offer
    // is made in v1's shapes only, so a v2 agent is not given a server it would refuse the session over.
    if (initialized.version === 2) {
      this.options.log.info(`${this.agentName} does not get the editor's tools: it speaks the ACP v2 draft`);
      return Promise.resolve({ kind: 'not_offered', reason: 'the agent speaks the ACP v2 draft' });
    }
    this.editorToolsOffer ??= offerEditorTools(
      this.options.editorTools,
      this.wishes,
      initialized.mcpCapabilities,
      editorActionAsker(this.agentName, () => this.endpoints),
    ).then((offer) => {
      if (offer.kind === 'offered') this.redaction.add(offer.running.secrets);
      // A process that exited while its server started: the exit handler saw no server to stop.
      if (offer.kind === 'offered' && this.exited) void offer.running.stop();
      this.options.log.info(describeOffer(this.agentName, offer));
      return offer;
    });
    return this.editorToolsOffer;
  }

  /** A turn began on one of this process's sessions: the editor tools' "changed in this turn" counts from now. */
  turnStarted(): void {
    void this.editorToolsOffer?.then((offer) => offer.kind === 'offered' && offer.running.turnStarted());
  }

  get exited(): boolean {
    return this.process.exited !== undefined;
  }

  /** The connection closed: requests in flight fail, and the process's exit (which follows) says why. */
  get connectionLost(): boolean {
    return this.lost;
  }

  /** Whether a session may still join: alive and not stopping or retired. */
  get joinable(): boolean {
    return !this.closed && !this.exited;
  }

  /** Before `initialize` has answered, nothing (no sign-in methods, no lifecycle methods). */
  get initialized(): Initialized | undefined {
    return this.settled;
  }

  /** `initialize`, sent once: every session on the connection awaits the same answer. */
  initialize(): Promise<Initialized> {
    this.initializing ??= this.initializeNow();
    return this.initializing;
  }

  attach(endpoint: SessionEndpoint): void {
    if (!this.joinable) throw new Error(`${this.agentName} is stopping`);
    this.endpoints.add(endpoint);
  }

  /**
   * A session lets go of the connection. The last one stops the process (the answer is its exit); while other
   * sessions remain, it lives on for them.
   */
  detach(endpoint: SessionEndpoint): Promise<AgentExit> | undefined {
    if (!this.endpoints.delete(endpoint) || this.endpoints.size > 0) return undefined;
    this.closed = true;
    return this.process.stop();
  }

  /** The synchronous form of `detach`, for deactivation: the last session kills the process at once. */
  detachNow(endpoint: SessionEndpoint): void {
    if (!this.endpoints.delete(endpoint) || this.endpoints.size > 0) return;
    this.closed = true;
    this.process.killNow();
  }

  /** Stops the process whoever is on it (a fresh one is wanted): each session sees a requested exit. */
  retire(): Promise<AgentExit> {
    this.closed = true;
    return this.process.stop();
  }

  killNow(): void {
    this.closed = true;
    this.process.killNow();
  }

  /** A session opened on it; true for the first, which means this process is a fresh one. */
  sessionOpened(): boolean {
    this.opened++;
    return this.opened === 1;
  }

  /** Whether any session on this connection has `sessionId` open. */
  hasOpen(sessionId: string): boolean {
    return [...this.endpoints].some((endpoint) => endpoint.sessionId === sessionId);
  }

  /** Updates the agent sent for `sessionId` before we knew it was ours. */
  releaseEarly(sessionId: string): SessionUpdate[] {
    return this.early.release(sessionId, Date.now());
  }

  /** MCP secrets for one session's servers, masked in the wire trace from now on. */
  redact(secrets: readonly string[]): void {
    this.redaction.add(secrets);
  }

  /** Signs in with an `agent`-type method; cancelling abandons the request. The other sessions hear of it. */
  async authenticate(methodId: string, signal: CancellationSignal, from: SessionEndpoint): Promise<void> {
    await this.acp.authenticate(methodId, signal);
    for (const endpoint of this.endpoints) if (endpoint !== from) endpoint.signedIn();
  }

  private async initializeNow(): Promise<Initialized> {
    const offered = this.options.protocolVersion;
    const clientInfo = { name: 'acp-client-vscode', title: 'ACP Client for VS Code', version: this.options.clientVersion };
    const init = await this.acp.initialize(
      offered === 2
        ? { protocolVersion: 2, info: clientInfo, capabilities: {} }
        : { protocolVersion: 1, clientCapabilities: CLIENT_CAPABILITIES, clientInfo },
    );
    const version = acceptedVersion(offered, init.protocolVersion);
    if (typeof version === 'object') throw new Error(version.error);
    if (version !== offered) throw new NeedsV1Restart(this.agentName);
    const log = this.options.log;
    log.info(`${this.agentName} speaks ACP v${version}`);
    this.missingFile = missingFileAnswerFor(init.agentInfo?.name);
    const problems: string[] = [];
    const authMethods = parseAuthMethods(init.authMethods, problems);
    problems.forEach((problem) => log.warn(`${this.agentName}: ${problem}`));
    this.settled = {
      version,
      ...capabilitiesOf(init, version),
      authMethods,
    };
    return this.settled;
  }

  private endpointFor(sessionId: string, method: string): SessionEndpoint | undefined {
    for (const endpoint of this.endpoints) if (endpoint.sessionId === sessionId) return endpoint;
    this.options.log.warn(`Refused ${method} for session ${sessionId}, which this connection did not open`);
    return undefined;
  }

  private receive({ sessionId, update, terminal }: SessionNotification): void {
    const log = this.options.log;
    const endpoints = [...this.endpoints];
    const owner = endpoints.find((endpoint) => endpoint.sessionId === sessionId);
    if (terminal) {
      // Agents create terminals within a session: one for no session of ours is not shown.
      if (owner) owner.receiveTerminal(terminal);
      else log.warn(`Ignored ${terminal.kind} for session ${sessionId}`);
      // A tool call carrying Zed's `_meta.terminal_*` has both: its own update goes on below.
    }
    if (!update) return;
    // A load's replay streams to its session (or is left out); a resume's early updates wait for its answer.
    const reopening = endpoints.find((endpoint) => endpoint.reopening === sessionId);
    if (reopening) {
      if (!reopening.receiveReplay(update)) this.early.hold(sessionId, update, Date.now());
      return;
    }
    if (owner) return owner.receiveUpdate(update);
    // Before `session/new` has answered, the id is unknown to us: keep the update for its session.
    if (endpoints.some((endpoint) => endpoint.sessionId === undefined)) this.early.hold(sessionId, update, Date.now());
    else log.warn(`Ignored an update for unknown session ${sessionId}`);
  }
}
