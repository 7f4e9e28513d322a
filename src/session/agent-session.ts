/**
 * One ACP session on an agent's connection (which other sessions of that agent share): opening it (new,
 * resumed or loaded), its prompts and choices, the requests the agent makes for it (files, permission,
 * terminals) and its terminals. Knows nothing of turns; the controller drives it. Everything the agent does to
 * the transcript leaves here as one transcript action per event, on one hook.
 */
import type { AgentExit } from '../agents/agent-process';
import type { ResolvedMcpServer } from '../agents/mcp-references';
import { NO_MCP_SERVERS, selectForAgent, type McpSelection, type McpServerWire } from '../agents/mcp-wire';
import { configValuePayload, type ProtocolVersion } from '../acp/protocol-version';
import type { AuthMethod } from '../acp/schemas/auth-methods';
import type { ListedSession } from '../acp/schemas/listed-sessions';
import { NO_SESSION_SUPPORT, type SessionSupport } from '../acp/schemas/session-capabilities';
import type { SessionSetup } from '../acp/schemas/session-setup';
import type { LogSink } from '../acp/log-sink';
import type { FileSystemHandler } from '../client/fs-handler';
import { CancellationSource, type CancellationSignal } from '../acp/rpc-boundary';
import type { ElicitationBroker } from '../client/elicitation-broker';
import type { PermissionBroker } from '../client/permission-broker';
import { TerminalManager } from '../client/terminal-manager';
import { statusOf, type EditorToolsStatus } from '../editor-tools/editor-tools-offer';
import type { ContentBlock } from '../shared/content';
import type { AvailableCommand, ConfigOption, SessionModes } from '../shared/model';
import type { ToolCallShown } from '../shared/tool-paths';
import type { AgentTerminalUpdate, SessionUpdate } from '../shared/updates';
import type { AgentConnection } from './agent-connection';
import type { AgentAction, SessionEndpoint } from './agent-requests';
import { AuthRequired, isAuthRequired } from './auth-required';
import { AgentTerminalDecoder } from './agent-terminals';
import { LoadReplay, SessionMethodUnsupported, type SessionOpening } from './session-opening';

/** Keys for the editor's MCP server, unique among the sessions of this window. */
let nextEditorCaller = 1;

export type { ListedSession } from '../acp/schemas/listed-sessions';
export type { SessionSupport } from '../acp/schemas/session-capabilities';
export type { AgentAction } from './agent-requests';
export { SessionMethodUnsupported, type SessionOpening } from './session-opening';

export interface AgentSessionOptions {
  /** Workspace folders: a terminal's cwd must be inside one. */
  readonly roots: () => readonly string[];
  readonly log: LogSink;
  readonly files: FileSystemHandler;
  readonly permissions: PermissionBroker;
  /** MCP servers for this session; those on transports the agent does not advertise are left out. */
  readonly mcpServers?: readonly ResolvedMcpServer[];
  readonly elicitations: ElicitationBroker;
  readonly hooks: {
    /** One action per event the agent sends for our session, in arrival order. */
    readonly onAction: (action: AgentAction) => void;
    /** The tool call as the transcript now has it (earlier updates merged), if it is shown. */
    readonly toolCallShown: (toolCallId: string) => ToolCallShown | undefined;
    readonly onExit: (exit: AgentExit) => void;
    /** Another session on the same agent signed in: a session it refused may open now. */
    readonly onSignedIn?: () => void;
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
  /** The agent's process is a fresh one: this is the first session opened on it. */
  readonly freshProcess: boolean;
  /** A running turn can be steered. */
  readonly steering: boolean;
}

export class AgentSession implements SessionEndpoint {
  readonly agentName: string;
  readonly terminals: TerminalManager;
  readonly files: FileSystemHandler;
  readonly permissions: PermissionBroker;
  readonly elicitations: ElicitationBroker;
  private readonly agentTerminals = new AgentTerminalDecoder();
  private currentSessionId: string | undefined;
  private mcp: McpSelection = NO_MCP_SERVERS;
  private editorToolsStatus: EditorToolsStatus | undefined;
  /**
   * A resume or load in flight: its session id is known before the answer, unlike a new session's. `giveUp` fires
   * when the session is let go of before the answer: the agent is sent `$/cancel_request` for it.
   */
  private opening:
    | { readonly sessionId: string; readonly kind: 'load' | 'resume'; readonly load?: LoadReplay; readonly giveUp: CancellationSource }
    | undefined;
  /** It let go of the connection (stopped): nothing it is asked to do reaches the agent any more. */
  private released = false;
  /** Prompts sent and not yet answered: a turn of this session is running while any is. */
  private promptsWaiting = 0;
  readonly editorCaller = `conversation-${nextEditorCaller++}`;

  constructor(
    private readonly connection: AgentConnection,
    private readonly options: AgentSessionOptions,
  ) {
    this.agentName = connection.agentName;
    this.files = options.files;
    this.permissions = options.permissions;
    this.elicitations = options.elicitations;
    const onAction = options.hooks.onAction;
    this.terminals = new TerminalManager(options.roots, () => connection.cwd, {
      onOutput: (terminalId, text, keep) => onAction({ type: 'terminal_output', terminalId, text, keep }),
      onExit: (terminalId, status) => onAction({ type: 'terminal_exited', terminalId, exitCode: status.exitCode, signal: status.signal }),
    });
    connection.attach(this);
  }

  get sessionId(): string | undefined {
    return this.currentSessionId;
  }

  get reopening(): string | undefined {
    return this.opening?.sessionId;
  }

  /** The `session/load` or `session/resume` in flight, if one is: what stopping now gives up. */
  get reopeningRequest(): { readonly method: 'session/load' | 'session/resume'; readonly sessionId: string } | undefined {
    const opening = this.opening;
    return opening && { method: `session/${opening.kind}`, sessionId: opening.sessionId };
  }

  /** Whether this session's agent got the editor's MCP server, and why not (the Sessions view says it); unknown before start. */
  get editorTools(): EditorToolsStatus | undefined {
    return this.editorToolsStatus;
  }

  /** The MCP servers `session/new` carried: `session/load` and `session/resume` must carry the same. */
  get mcpServers(): readonly McpServerWire[] {
    return this.mcp.servers;
  }

  /** The agent's process is gone, or this session let go of it. */
  get exited(): boolean {
    return this.released || this.connection.exited;
  }

  /** The connection closed: the process is being stopped, and its exit explains what happened. */
  get connectionLost(): boolean {
    return this.connection.connectionLost;
  }

  /** The ACP version `initialize` settled (undefined before it answered). */
  get protocolVersion(): ProtocolVersion | undefined {
    return this.connection.initialized?.version;
  }

  /** The sign-in methods the agent listed in `initialize` (those we can use). */
  get authMethods(): readonly AuthMethod[] {
    return this.connection.initialized?.authMethods ?? [];
  }

  /** The agent advertised `agentCapabilities.auth.logout`. */
  get canLogOut(): boolean {
    return this.connection.initialized?.canLogOut ?? false;
  }

  /** Which session lifecycle methods the agent advertised in `initialize` (all false before it, and on v2). */
  get sessionSupport(): SessionSupport {
    return this.connection.initialized?.support ?? NO_SESSION_SUPPORT;
  }

  /**
   * Initializes the connection (once, whichever session asks first) and opens a session (a new one unless
   * `opening` says otherwise). A v2 offer answered with 1 throws NeedsV1Restart; a session refused until the user
   * signs in throws AuthRequired, and the agent keeps running for `authenticate`.
   */
  async start(opening?: SessionOpening | ((support: SessionSupport) => SessionOpening)): Promise<StartedSession> {
    const init = await this.connection.initialize();
    const offer = await this.connection.editorTools();
    const editor = offer.kind === 'offered' ? offer.running.wireFor(this.editorCaller) : undefined;
    this.mcp = withEditorTools(selectForAgent(this.options.mcpServers ?? [], init.mcpCapabilities), editor);
    this.editorToolsStatus =
      editor && !this.mcp.servers.includes(editor.wire)
        ? { given: false, reason: `a configured MCP server is named "${editor.wire.name}"` }
        : statusOf(offer);
    this.connection.redact(this.mcp.secrets);
    // Names only: values may hold secrets.
    if (this.mcp.servers.length > 0)
      this.options.log.info(`${this.agentName} gets MCP servers: ${this.mcp.servers.map((server) => server.name).join(', ')}`);
    return this.openSession(typeof opening === 'function' ? opening(init.support) : opening);
  }

  /**
   * Opens a session on an initialized agent: at start, or again once the user has signed in. The session open
   * until now stays current until the agent has answered.
   */
  async openSession(opening: SessionOpening = { kind: 'new' }): Promise<StartedSession> {
    const initialized = this.connection.initialized;
    if (!initialized) throw new Error(`${this.agentName} is not initialized`);
    if (this.opening) throw new Error(`${this.agentName} is already opening session ${this.opening.sessionId}`);
    const place = { cwd: this.connection.cwd, mcpServers: this.mcp.servers, ...this.additionalDirectories(initialized.support) };
    let sessionId: string;
    let setup: SessionSetup;
    if (opening.kind === 'new') {
      ({ sessionId, ...setup } = await signedIn(this.connection.acp.newSession(place)));
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
      earlyUpdates: this.connection.releaseEarly(sessionId),
      mcpServersSkipped: this.mcp.skipped,
      freshProcess: this.connection.sessionOpened(),
      steering: initialized.steering,
    };
  }

  /**
   * The workspace's other folders, for an agent that takes them: it may then work in each (our fs and terminal
   * confinement allows exactly the workspace's folders, which are cwd and these). Omitted when there are none.
   */
  private additionalDirectories(support: SessionSupport): { additionalDirectories?: readonly string[] } {
    if (!support.additionalDirectories) return {};
    const cwd = this.connection.cwd;
    const others = this.options.roots().filter((root) => root !== cwd);
    return others.length > 0 ? { additionalDirectories: others } : {};
  }

  /** One page of the agent's sessions in our cwd; pass the previous page's `nextCursor` for the next. */
  async listSessions(cursor?: string): Promise<{ sessions: readonly ListedSession[]; nextCursor?: string }> {
    this.requireSupport('list', 'session/list');
    return await signedIn(this.connection.acp.sessions.list({ cwd: this.connection.cwd, ...(cursor !== undefined ? { cursor } : {}) }));
  }

  /**
   * Forks the open session (unstable) and returns the new session's id. The open session stays current: the
   * fork is a session of the agent's like any other, opened in a session of its own to talk to it.
   */
  async forkSession(): Promise<string> {
    this.requireSupport('fork', 'session/fork');
    const sessionId = this.requireSession();
    const forked = await signedIn(this.connection.acp.sessions.fork({ sessionId, cwd: this.connection.cwd, mcpServers: this.mcp.servers }));
    return forked.sessionId;
  }

  /** Closes the open session: the agent cancels its work; nothing it sends for it afterwards is ours any more. */
  async closeSession(): Promise<void> {
    this.requireSupport('close', 'session/close');
    const sessionId = this.requireSession();
    await this.connection.acp.sessions.close({ sessionId });
    if (this.currentSessionId !== sessionId) return;
    this.currentSessionId = undefined;
    // Terminals belong to the session that created them: its commands do not outlive it.
    this.terminals.disposeAll();
  }

  /** Deletes one of the agent's sessions (as `listSessions` names them); it must not be open on the connection. */
  async deleteSession(sessionId: string): Promise<void> {
    this.requireSupport('delete', 'session/delete');
    if (this.connection.hasOpen(sessionId)) throw new Error(`Session ${sessionId} is open: close it before deleting it`);
    await this.connection.acp.sessions.delete({ sessionId });
  }

  /** Retitles the open session (or the named one: it need not be open); returns the title as the agent stored it. */
  async setTitle(title: string, sessionId?: string): Promise<string> {
    this.requireSupport('setTitle', 'session/set_title');
    const stored = await this.connection.acp.sessions.setTitle({ sessionId: sessionId ?? this.requireSession(), title });
    return stored ?? title;
  }

  /** Signs in with an `agent`-type method; cancelling abandons the request (`$/cancel_request`). */
  authenticate(methodId: string, signal: CancellationSignal): Promise<void> {
    return this.connection.authenticate(methodId, signal, this);
  }

  logout(): Promise<void> {
    return this.connection.acp.logout();
  }

  prompt(content: readonly ContentBlock[]): Promise<{ stopReason?: string; messageId?: string | null }> {
    const sessionId = this.requireSession();
    this.connection.turnStarted();
    this.promptsWaiting++;
    return this.connection.acp.prompt({ sessionId, prompt: content }).finally(() => this.promptsWaiting--);
  }

  get turnRunning(): boolean {
    return this.promptsWaiting > 0;
  }

  /** Into the running turn; `prompt_required` when none runs any more (the caller prompts instead). */
  steer(content: readonly ContentBlock[]): Promise<'injected' | 'prompt_required'> {
    return this.connection.acp.steer({ sessionId: this.requireSession(), prompt: content });
  }

  cancel(): void {
    if (this.currentSessionId && !this.exited) this.connection.acp.cancel({ sessionId: this.currentSessionId });
  }

  cancelTerminal(terminalId: string): Promise<void> {
    return this.connection.acp.cancelTerminal({ sessionId: this.requireSession(), terminalId });
  }

  setMode(modeId: string): Promise<void> {
    return this.connection.acp.setMode({ sessionId: this.requireSession(), modeId });
  }

  /**
   * The options as the agent says they now stand, if it says. The session's version is the offer: an agent
   * answering otherwise was restarted on v1 (see start).
   */
  setConfigOption(configId: string, value: string | boolean): Promise<readonly ConfigOption[] | undefined> {
    const version = this.connection.initialized?.version ?? 1;
    return this.connection.acp.setConfigOption({ sessionId: this.requireSession(), configId, ...configValuePayload(value, version) });
  }

  /**
   * Lets go of the agent: its terminals end, and the process stops if no other session is on it (the answer is
   * then its exit; undefined while it lives on for the others).
   */
  async stop(): Promise<AgentExit | undefined> {
    this.release();
    return this.connection.detach(this);
  }

  /** Stops the agent's process whoever else is on it: a fresh one is wanted (after signing in, say). */
  async stopProcess(): Promise<AgentExit> {
    return this.connection.retire();
  }

  /** Deactivation: as `stop`, at once. */
  killNow(): void {
    this.release();
    this.connection.detachNow(this);
  }

  onAction(action: AgentAction): void {
    this.options.hooks.onAction(action);
  }

  toolCallShown(toolCallId: string): ToolCallShown | undefined {
    return this.options.hooks.toolCallShown(toolCallId);
  }

  receiveUpdate(update: SessionUpdate): void {
    this.options.hooks.onAction({ type: 'session_update', update });
  }

  receiveReplay(update: SessionUpdate): boolean {
    const load = this.opening?.load;
    if (!load) return false;
    if (load.admits(update)) this.options.hooks.onAction({ type: 'session_update', update });
    return true;
  }

  receiveTerminal(terminal: AgentTerminalUpdate): void {
    this.options.hooks.onAction(this.agentTerminals.translate(terminal));
  }

  signedIn(): void {
    this.options.hooks.onSignedIn?.();
  }

  processExited(exit: AgentExit): void {
    // Commands the agent started do not outlive it.
    this.terminals.disposeAll();
    if (!this.released) this.options.hooks.onExit(exit);
  }

  private release(): void {
    this.released = true;
    // Before the process may stop: an agent that lives on for other sessions stops loading this one.
    this.opening?.giveUp.cancel();
    this.terminals.disposeAll();
  }

  /** `session/resume` or `session/load`: updates for the session are routed here while it is in flight. */
  private async reopen(
    opening: Exclude<SessionOpening, { kind: 'new' }>,
    place: { cwd: string; mcpServers: readonly McpServerWire[] },
  ): Promise<SessionSetup> {
    const { sessionId } = opening;
    const params = { sessionId, ...place };
    const sessions = this.connection.acp.sessions;
    if (opening.kind === 'resume') {
      this.requireSupport('resume', 'session/resume');
      const giveUp = new CancellationSource();
      this.opening = { sessionId, kind: 'resume', giveUp };
      try {
        return await signedIn(sessions.resume(params, giveUp.signal));
      } finally {
        this.opening = undefined;
        giveUp.dispose();
      }
    }
    this.requireSupport('load', 'session/load');
    const load = new LoadReplay(opening.replay);
    const giveUp = new CancellationSource();
    this.opening = { sessionId, kind: 'load', load, giveUp };
    try {
      return await signedIn(sessions.load(params, giveUp.signal));
    } finally {
      this.opening = undefined;
      giveUp.dispose();
      // Once per load, not per update: a long history would flood the log.
      if (load.dropped > 0) this.options.log.info(`${this.agentName}: left out ${load.dropped} replayed updates of session ${sessionId}`);
    }
  }

  private requireSupport(key: keyof SessionSupport, method: string): void {
    if (!this.sessionSupport[key]) throw new SessionMethodUnsupported(this.agentName, method);
  }

  private requireSession(): string {
    if (!this.currentSessionId) throw new Error('No ACP session is open');
    return this.currentSessionId;
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

/** The configured servers plus the editor's own (unless a configured server already has its name). */
function withEditorTools(
  selection: McpSelection,
  editor: { readonly wire: McpServerWire; readonly secret: string } | undefined,
): McpSelection {
  if (!editor) return selection;
  const { wire, secret } = editor;
  if (selection.servers.some((server) => server.name === wire.name))
    return { ...selection, skipped: [...selection.skipped, `the editor's own "${wire.name}": a configured server has that name`] };
  return { servers: [...selection.servers, wire], secrets: [...selection.secrets, secret], skipped: selection.skipped };
}
