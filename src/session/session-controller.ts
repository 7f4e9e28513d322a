/**
 * The chat's session: starts the agent, opens an ACP session, runs prompt turns and cancellation exactly as the
 * seeds describe, and survives the agent crashing. Everything it shows goes through the transcript store;
 * everything it needs from the editor comes through ports, so it also runs outside VS Code (tests, benchmarks).
 */
import type { AgentConfig } from '../agents/agent-config';
import type { AgentExit } from '../agents/agent-process';
import type { FileSystemHandler } from '../client/fs-handler';
import type { AnswerResult, ElicitationBroker, UserElicitationAction } from '../client/elicitation-broker';
import type { PermissionBroker } from '../client/permission-broker';
import type { Attachment } from '../shared/attachments';
import { activeTurnId, toolCallEntry } from '../shared/selectors';
import { UNTRUSTED_WORKSPACE } from '../shared/wording';
import type { LogSink } from '../acp/log-sink';
import type { ProtocolVersion } from '../acp/protocol-version';
import { AgentSession, type AgentAction, type ListedSession, type SessionSupport, type StartedSession } from './agent-session';
import { AgentPool } from './agent-pool';
import { SessionMenu } from './session-menu';
import { OneShotTimer } from './one-shot-timer';
import { mcpServersFor, withStoredApiKey } from './launch-preparation';
import { AUTH_REQUIRED, AuthRequired } from './auth-required';
import { SignIn } from './sign-in';
import type { AgentSecrets, SignInPrompts } from './sign-in-ports';
import type { ToolCallShown } from '../shared/tool-paths';
import { describeExit } from './crash-report';
import { buildPromptContent, type AttachmentText } from './prompt-content';
import { NeedsV1Restart, versionToOffer } from './version-offer';
import type { AgentCatalog, LaunchApproval, McpServerSource, SessionEnvironment, UserNotifier } from './ports';
import type { ResolvedMcpServer } from '../agents/mcp-references';
import type { TranscriptStore } from './transcript-store';
import { TurnIds } from './turn-ids';
import { PromptQueue, type SendVerdict } from './prompt-queue';
import { positionOf } from '../shared/pages';
import { userPromptKey } from '../shared/reducer-turns';
import { closePolitely, continuationOf, openContinuing, sessionToContinue, type Continuation } from './session-continuation';

/** How long a cancelled turn may go unanswered before we offer to stop the agent (seeds: the agent SHOULD stop). */
const CANCEL_GRACE_MS = 10_000;

const BUSY = 'Wait for the current turn to finish or cancel it.';

/** `queued`: the prompt waits for the agent (starting, or busy with a turn) and goes when it can. */
export type PromptVerdict = SendVerdict;

export interface SessionControllerDeps {
  readonly store: TranscriptStore;
  readonly files: FileSystemHandler;
  readonly permissions: PermissionBroker;
  readonly elicitations: ElicitationBroker;
  readonly notifier: UserNotifier;
  readonly log: LogSink;
  readonly env: SessionEnvironment;
  /** Reads attached files for embedding in prompts. */
  readonly attachmentText: AttachmentText;
  /** MCP servers passed to agents; none without it. */
  readonly mcpServers?: McpServerSource;
  /** How long a cancelled turn may go unanswered before we offer to stop the agent. */
  readonly cancelGraceMs?: number;
  readonly signInPrompts: SignInPrompts;
  readonly secrets: AgentSecrets;
  /** The running agents, shared by every conversation: sessions of one agent share its process. Own pool without. */
  readonly pool?: AgentPool;
  /** Asks before a workspace's own agent definition starts; without it every definition starts. */
  readonly launchApproval?: LaunchApproval;
}

export class SessionController {
  private session: AgentSession | undefined;
  private agent: AgentConfig | undefined;
  private starting: Promise<void> | undefined;
  /**
   * Lifecycle steps run one after another, whatever the user clicks and how fast: each start waits for the one
   * before it. A newer start or a stop supersedes an older start at once (its process is stopped, so a start-up
   * that never answers cannot hold the queue); `generation` tells a step whether it is still wanted.
   */
  private lifecycle: Promise<void> = Promise.resolve();
  private generation = 0;
  private readonly startupTimer = new OneShotTimer();
  /** The agent the user chose last, kept even when starting it failed: a restart retries that one. */
  private chosenName: string | undefined;
  private readonly turnIds = new TurnIds();
  private readonly queue: PromptQueue;
  private readonly cancelTimer = new OneShotTimer();
  private readonly idleTimer = new OneShotTimer();
  private disposed = false;
  private readonly auth: SignIn;
  private readonly pool: AgentPool;
  private readonly revival: { dispose(): void };
  private readonly menu: SessionMenu;

  constructor(private readonly deps: SessionControllerDeps) {
    this.pool = deps.pool ?? new AgentPool();
    this.menu = new SessionMenu({
      current: () => this.session,
      store: deps.store,
      agentName: () => this.agent?.name,
      reportFailure: (title, error) => this.reportRequestFailure(title, error),
    });
    this.revival = this.pool.onRevived((agentName) => this.revive(agentName));
    this.queue = new PromptQueue(
      deps.store,
      () => this.canTakePrompt(),
      (text, attachments) => this.sendNow(text, attachments),
    );
    this.auth = new SignIn(
      {
        running: () => {
          const session = this.session;
          return session && !session.exited && this.agent ? { session, agent: this.agent } : undefined;
        },
        reopen: (session) => this.reopen(session),
        restart: (agent) => this.restartFresh(agent),
        cwd: () => this.deps.env.cwd(),
        notice: (severity, title, detail) =>
          this.deps.store.dispatch({ type: 'notice_added', severity, title, ...(detail === undefined ? {} : { detail }) }),
      },
      deps.signInPrompts,
      deps.secrets,
    );
  }

  /** "ACP: Sign In…" and the chat's Sign in… button: any time, not only when the agent asked. */
  signIn(): Promise<void> {
    return this.auth.signIn();
  }

  /** "ACP: Sign Out": ACP `logout` when the agent offers it, then a fresh start. */
  signOut(): Promise<void> {
    return this.auth.signOut();
  }

  get agentName(): string | undefined {
    return this.agent?.name;
  }

  /** The agent the chat is for: the one chosen last while the catalog still has it, else the catalog's default. */
  agentToStart(catalog: AgentCatalog): AgentConfig | undefined {
    return catalog.agents().find((agent) => agent.name === this.chosenName) ?? catalog.defaultAgent();
  }

  get isStarting(): boolean {
    return this.starting !== undefined;
  }

  get isRunning(): boolean {
    return this.session !== undefined && !this.session.exited;
  }

  /** Starts `agent` (stopping any other), opens a session; the transcript is kept. */
  /**
   * Starts `agent` (stopping any other) and opens a session: the one this transcript had, continued where the agent
   * can; or, with `adopt`, one of the agent's own sessions (from `session/list`), its history replayed into the view.
   */
  start(agent: AgentConfig, adopt?: string): Promise<void> {
    this.chosenName = agent.name;
    const generation = this.supersede();
    const run = this.lifecycle.then(() => (generation === this.generation ? this.startNow(agent, generation, adopt) : undefined));
    this.lifecycle = run.catch(() => undefined);
    const starting = run.finally(() => {
      if (this.starting === starting) this.starting = undefined;
      this.queue.drainSoon();
    });
    this.starting = starting;
    return starting;
  }

  /** A new lifecycle step: whatever is starting now is no longer wanted and is stopped (it may never answer). */
  private supersede(): number {
    this.generation++;
    this.startupTimer.clear();
    const session = this.session;
    if (session && session.sessionId === undefined) {
      this.session = undefined;
      void session.stop();
    }
    return this.generation;
  }

  /**
   * Another agent for a conversation in which nothing was said yet: its session on the old agent ends (the process
   * too, unless another conversation uses it) and the chosen agent starts here with a session of its own. The header
   * names the new agent at once; notices about the old one go, prompts typed meanwhile stay queued for the new one.
   */
  switchTo(agent: AgentConfig): Promise<void> {
    const waiting = [...this.queue.pending];
    this.deps.store.dispatch({ type: 'agent_status', status: { phase: 'starting', agentName: agent.name } });
    // Cleared, the old agent's session id is gone too: the new agent is not asked to continue it.
    this.deps.store.dispatch({ type: 'transcript_cleared' });
    for (const prompt of waiting) this.queue.add(prompt.text, prompt.attachments);
    return this.start(agent);
  }

  /** "New Session": the old agent process is stopped, the transcript cleared, a fresh process and session. */
  async newSession(agent: AgentConfig | undefined = this.agent): Promise<void> {
    this.deps.store.dispatch({ type: 'transcript_cleared' });
    if (agent) await this.start(agent);
    else await this.stop();
  }

  async restart(): Promise<void> {
    if (this.agent) await this.start(this.agent);
  }

  /**
   * A fresh process, whoever else is on the running one (after signing in or out, so the agent reads its new
   * credentials): its other sessions see it exit and come back on the new one.
   */
  async restartFresh(agent: AgentConfig): Promise<void> {
    const session = this.session;
    if (session && !session.exited) await session.stopProcess();
    await this.start(agent);
  }

  /** Another conversation brought a fresh process of this agent up: one that its exit left here comes back too. */
  private revive(agentName: string): void {
    const agent = this.agent;
    if (this.disposed || this.starting || agent?.name !== agentName) return;
    if (this.deps.store.state.agent.phase !== 'exited') return;
    this.deps.log.info(`${agentName} is running again: continuing this conversation's session on it`);
    void this.start(agent);
  }

  /** Stops the agent now (also one that is still starting); the header says "Not running". */
  async stop(): Promise<void> {
    const starting = this.session?.sessionId === undefined ? this.session : undefined;
    this.supersede();
    const session = this.session ?? starting;
    await this.stopCurrent();
    if (session) {
      await session.stop();
      // Stopped as asked, not exited on its own: the next prompt starts it again and continues the session.
      if (this.session === undefined)
        this.deps.store.dispatch({ type: 'agent_status', status: { phase: 'stopped', agentName: session.agentName } });
    }
  }

  private async stopCurrent(): Promise<void> {
    const session = this.session;
    if (session) await closePolitely(session, this.deps.log);
    this.session = undefined;
    this.cancelTimer.clear();
    this.idleTimer.clear();
    this.deps.permissions.cancelAll();
    this.deps.elicitations.cancelAll();
    if (session) await session.stop();
  }

  /**
   * Sends a prompt, or queues it while the agent starts or a turn runs (it goes, in order, the moment the agent can
   * take it; until then the user may edit or remove it).
   */
  async sendPrompt(text: string, attachments: readonly Attachment[] = []): Promise<PromptVerdict> {
    if (!this.deps.env.isTrusted()) return { accepted: false, reason: `${UNTRUSTED_WORKSPACE.title}. ${UNTRUSTED_WORKSPACE.detail}` };
    if (text.trim().length === 0 && attachments.length === 0) return { accepted: false, reason: 'The prompt is empty.' };
    const waiting = this.starting !== undefined || activeTurnId(this.deps.store.state) !== undefined || this.queue.pending.length > 0;
    if (waiting && this.deps.store.state.agent.phase !== 'needs_auth') {
      this.queue.add(text, attachments);
      return { accepted: true, queued: true };
    }
    return this.sendNow(text, attachments);
  }

  /**
   * A queued prompt into the running turn now, where the agent offers steering. The agent answers `prompt_required`
   * when the turn ended meanwhile: the prompt then goes as the next prompt. Refused, it waits in the queue again.
   */
  async steerQueuedPrompt(id: string): Promise<void> {
    const session = this.session;
    const { turn, steering, promptCapabilities } = this.deps.store.state;
    if (!session?.sessionId || session.exited || !steering || turn.phase !== 'running') return;
    const queued = this.queue.take(id);
    if (!queued) return;
    const built = await buildPromptContent(
      queued.text,
      queued.attachments,
      promptCapabilities,
      session.agentName,
      this.deps.attachmentText,
    );
    try {
      if (!built.ok) throw new Error(built.reason);
      const outcome = await session.steer(built.content);
      if (outcome === 'injected')
        this.deps.store.dispatch({ type: 'prompt_steered', turnId: turn.turnId, steerId: id, content: built.content });
      else await this.sendPrompt(queued.text, queued.attachments);
    } catch (error) {
      this.queue.add(queued.text, queued.attachments);
      this.reportRequestFailure('Could not steer the turn', error);
    }
  }

  /** A queued prompt the user took back (to edit it, or not to send it at all). */
  removeQueuedPrompt(id: string): void {
    this.queue.remove(id);
  }

  /** The agent can take a queued prompt: its session is open and idle, and nothing is starting. */
  private canTakePrompt(): boolean {
    const session = this.session;
    if (this.disposed || this.starting || !session?.sessionId || session.exited) return false;
    return this.deps.store.state.agent.phase === 'ready' && activeTurnId(this.deps.store.state) === undefined;
  }

  private async sendNow(text: string, attachments: readonly Attachment[]): Promise<PromptVerdict> {
    if (this.starting) await this.starting.catch(() => undefined);
    const session = this.session;
    if (session && !session.exited && this.deps.store.state.agent.phase === 'needs_auth')
      return { accepted: false, reason: `Sign in to ${session.agentName} first.` };
    if (!session || session.exited || !session.sessionId) {
      return {
        accepted: false,
        reason: this.agent ? `${this.agent.name} is not running. Restart it to continue.` : 'No agent is selected.',
      };
    }
    if (activeTurnId(this.deps.store.state) !== undefined) return { accepted: false, reason: BUSY };
    const built = await buildPromptContent(
      text,
      attachments,
      this.deps.store.state.promptCapabilities,
      session.agentName,
      this.deps.attachmentText,
    );
    if (!built.ok) return { accepted: false, reason: built.reason };
    // Reading attachments took time: the session or the turn may have changed meanwhile.
    if (this.session !== session || session.exited)
      return { accepted: false, reason: `${session.agentName} stopped before the prompt was sent.` };
    if (activeTurnId(this.deps.store.state) !== undefined) return { accepted: false, reason: BUSY };
    const turnId = this.turnIds.take((id) => positionOf(this.deps.store.state, userPromptKey(id)) !== undefined);
    const content = built.content;
    this.idleTimer.clear();
    this.deps.store.dispatch({ type: 'prompt_sent', turnId, content });
    for (const note of built.notes)
      this.deps.store.dispatch({ type: 'notice_added', severity: 'info', title: 'Attachment sent as a link', detail: note });
    void session.prompt(content).then(
      (result) => {
        // v1 and seed-002 v2 end the turn with the answer; current v2 answers {messageId} at once and ends the
        // turn later with `state_update idle` (see applyUpdate).
        if (typeof result.messageId === 'string' && this.session === session)
          this.deps.store.dispatch({ type: 'prompt_accepted', turnId, messageId: result.messageId });
        if (result.stopReason === undefined) return;
        this.finishTurn(turnId);
        this.deps.store.dispatch({ type: 'turn_ended', turnId, stopReason: result.stopReason });
      },
      (error: unknown) => {
        this.finishTurn(turnId);
        // The exit handler explains what happened (a closed connection means the exit is on its way).
        if (session.exited || session.connectionLost) return;
        const { message, code } = describeError(error);
        this.deps.store.dispatch({ type: 'turn_failed', turnId, message, ...(code === undefined ? {} : { code }) });
        if (code === AUTH_REQUIRED && this.session === session && session.authMethods.length > 0) {
          // Refused until the user signs in (Claude Code opens sessions signed out and refuses the prompt): the
          // prompt waits in the queue, shown and removable, and goes again once the agent is signed in.
          this.needsSignIn(session, new AuthRequired(message));
          this.queue.add(text, attachments);
        }
      },
    );
    return { accepted: true };
  }

  /** Cancel, as the seeds say: notify the agent, mark the turn's tool calls cancelled, answer permissions cancelled. */
  cancelTurn(): void {
    const turn = this.deps.store.state.turn;
    if (turn.phase !== 'running') return;
    const session = this.session;
    this.deps.store.dispatch({ type: 'cancel_requested', turnId: turn.turnId, at: Date.now() });
    this.deps.permissions.cancelAll();
    this.deps.elicitations.cancelAll();
    session?.cancel();
    this.cancelTimer.arm(this.deps.cancelGraceMs ?? CANCEL_GRACE_MS, () => this.offerToStop(turn.turnId));
  }

  answerPermission(requestId: string, optionId: string): void {
    if (!this.deps.permissions.answer(requestId, optionId)) this.deps.log.warn(`Permission ${requestId} was already answered`);
  }

  /** The user's answer to an elicitation; a form that does not pass the host's own check is not sent (see the result). */
  answerElicitation(requestId: string, action: UserElicitationAction, values?: Readonly<Record<string, unknown>>): Promise<AnswerResult> {
    return this.deps.elicitations.answer(requestId, action, values);
  }

  /** Only offered while the agent advertises it for that terminal; the agent's exit update confirms the stop. */
  async cancelTerminal(terminalId: string): Promise<void> {
    await this.session
      ?.cancelTerminal(terminalId)
      .catch((error: unknown) => this.reportRequestFailure('Could not stop the command', error));
  }

  /** The session's choices and the agent's own sessions: see session-menu.ts. */
  setMode(modeId: string): Promise<void> {
    return this.menu.setMode(modeId);
  }

  setConfigOption(configId: string, value: string | boolean): Promise<void> {
    return this.menu.setConfigOption(configId, value);
  }

  get support(): SessionSupport | undefined {
    return this.menu.support;
  }

  listAgentSessions(): Promise<readonly ListedSession[]> {
    return this.menu.listAgentSessions();
  }

  fork(): Promise<string> {
    return this.menu.fork();
  }

  rename(title: string): Promise<void> {
    return this.menu.rename(title);
  }

  deleteAgentSession(sessionId: string): Promise<boolean> {
    return this.menu.deleteAgentSession(sessionId);
  }

  /** Synchronous last resort for deactivation: no agent process outlives the extension. */
  dispose(): void {
    this.disposed = true;
    this.generation++;
    this.startupTimer.clear();
    this.cancelTimer.clear();
    this.idleTimer.clear();
    this.deps.permissions.cancelAll();
    this.deps.elicitations.cancelAll();
    this.revival.dispose();
    this.session?.killNow();
    this.session = undefined;
  }

  private async startNow(agent: AgentConfig, generation: number, adopt: string | undefined): Promise<void> {
    await this.stopCurrent();
    if (this.disposed || generation !== this.generation) return;
    this.agent = agent;
    const cwd = this.deps.env.cwd();
    if (!this.deps.env.isTrusted()) {
      this.deps.store.dispatch({ type: 'notice_added', severity: 'warning', ...UNTRUSTED_WORKSPACE });
      return;
    }
    if (!cwd) {
      this.deps.store.dispatch({
        type: 'notice_added',
        severity: 'warning',
        title: 'Open a folder to start an agent',
        detail: 'Agents work on a workspace folder; none is open.',
      });
      return;
    }
    const refusal = await this.deps.launchApproval?.refusal(agent);
    if (this.disposed || generation !== this.generation) return;
    if (refusal) {
      this.deps.store.dispatch({ type: 'notice_added', severity: 'warning', ...refusal });
      return;
    }
    // Read before "starting" names the agent: whose session the transcript holds is what the status said until now.
    const previous: Continuation | undefined =
      adopt !== undefined ? { sessionId: adopt, replay: 'show' } : continuationOf(sessionToContinue(this.deps.store.state, agent.name));
    this.deps.store.dispatch({ type: 'agent_status', status: { phase: 'starting', agentName: agent.name } });
    const mcpServers = await this.mcpServersFor(agent);
    if (this.disposed || generation !== this.generation) return;
    const spawned = await withStoredApiKey(agent, this.deps.secrets);
    if (this.disposed || generation !== this.generation) return;
    let offer = versionToOffer(agent.protocolVersion);
    for (;;) {
      const session = this.launch(spawned, cwd, offer, mcpServers);
      this.watchStartup(session);
      try {
        const started = await openContinuing(session, agent.name, previous, this.deps.log);
        this.startupTimer.clear();
        if (this.session !== session || generation !== this.generation) {
          // Superseded while it started: it must not outlive the step that wanted it.
          await session.stop();
          return;
        }
        this.sessionOpened(agent.name, started.session);
        if (started.notice) this.deps.store.dispatch({ type: 'notice_added', severity: started.notice.severity, ...started.notice.text });
        return;
      } catch (error) {
        this.startupTimer.clear();
        if (this.session !== session || generation !== this.generation) {
          await session.stop();
          return;
        }
        if (error instanceof AuthRequired && session.authMethods.length > 0) {
          // It runs on, waiting for `authenticate`: signing in then opens the session on this same process.
          // (With no method listed there is nothing to sign in with here: it is stopped like any refusal.)
          this.needsSignIn(session, error);
          return;
        }
        this.session = undefined;
        const exit = await session.stop();
        if (error instanceof NeedsV1Restart && offer === 2) {
          // A fresh process: the one that saw the v2 offer never heard our v1 capabilities.
          this.deps.log.info(`${error.message}; restarting it on v1`);
          offer = 1;
          continue;
        }
        const { message } = describeError(error);
        this.deps.log.error(`Starting ${agent.name} failed: ${message}`);
        // We stopped it (it may not have exited by itself): say so, or the header would keep saying "Starting…".
        this.deps.store.dispatch({
          type: 'agent_status',
          status: { phase: 'exited', agentName: agent.name, exitCode: exit?.code ?? null },
        });
        this.deps.store.dispatch({
          type: 'notice_added',
          severity: 'error',
          title: `${agent.name} could not start a session`,
          detail: message,
          action: 'restart_agent',
        });
        return;
      }
    }
  }

  /** Resolving may ask the user for a secret; a server that cannot be resolved is named, the others still go. */
  private mcpServersFor(agent: AgentConfig): Promise<readonly ResolvedMcpServer[]> {
    return mcpServersFor(this.deps.mcpServers, agent, (title, problems) => this.noticeMcpProblems(title, problems));
  }

  private noticeMcpProblems(title: string, problems: readonly string[]): void {
    if (problems.length === 0) return;
    for (const problem of problems) this.deps.log.warn(`${title}: ${problem}`);
    this.deps.store.dispatch({ type: 'notice_added', severity: 'warning', title, detail: problems.join('\n') });
  }

  private sessionOpened(agentName: string, started: StartedSession): void {
    this.deps.store.dispatch({
      type: 'session_started',
      sessionId: started.sessionId,
      ...(started.modes ? { modes: started.modes } : {}),
      ...(started.configOptions ? { configOptions: started.configOptions } : {}),
      ...(started.availableCommands ? { availableCommands: started.availableCommands } : {}),
      promptCapabilities: started.promptCapabilities,
      ...(started.steering ? { steering: true } : {}),
    });
    this.deps.store.dispatch({ type: 'agent_status', status: { phase: 'ready', agentName, protocolVersion: started.protocolVersion } });
    for (const update of started.earlyUpdates) this.deps.store.dispatch({ type: 'session_update', update });
    this.noticeMcpProblems(`MCP servers not passed to ${agentName}`, started.mcpServersSkipped);
    this.armIdleTimer();
    this.queue.drainSoon();
    if (started.freshProcess) this.pool.announceRevived(agentName);
  }

  private needsSignIn(session: AgentSession, refusal: AuthRequired): void {
    const name = session.agentName;
    const methods = session.authMethods.map((method) => method.name);
    this.deps.log.info(`${name} refused a session until you sign in: ${refusal.message}`);
    this.deps.store.dispatch({ type: 'agent_status', status: { phase: 'needs_auth', agentName: name, methods } });
    this.deps.store.dispatch({
      type: 'notice_added',
      severity: 'warning',
      title: `Sign in to ${name} to start a session`,
      detail: `${refusal.message.replace(/\.?$/, '.')} It offers: ${methods.join(', ')}.`,
      action: 'sign_in',
    });
    void this.deps.notifier.warn(`${name} needs you to sign in.`, 'Sign In…').then((choice) => {
      if (choice === 'Sign In…' && this.session === session) void this.signIn();
    });
  }

  /** After an `agent`-type sign-in: the session the agent refused, on the same process. */
  private async reopen(session: AgentSession): Promise<void> {
    if (this.session !== session || session.exited) return;
    const name = session.agentName;
    if (session.sessionId !== undefined) {
      // It refused a prompt, not the session: the open session goes on, and the prompt that waited is sent again.
      const protocolVersion = session.protocolVersion;
      this.deps.store.dispatch({
        type: 'agent_status',
        status: { phase: 'ready', agentName: name, ...(protocolVersion ? { protocolVersion } : {}) },
      });
      this.queue.drainSoon();
      return;
    }
    this.deps.store.dispatch({ type: 'agent_status', status: { phase: 'starting', agentName: name } });
    try {
      const started = await this.withOpeningDeadline(session, () => session.openSession());
      if (this.session === session) this.sessionOpened(name, started);
    } catch (error) {
      if (this.session !== session) return;
      if (error instanceof AuthRequired) return this.needsSignIn(session, error);
      const { message } = describeError(error);
      this.deps.log.error(`Opening a session on ${name} after signing in failed: ${message}`);
      this.session = undefined;
      const exit = await session.stop();
      this.deps.store.dispatch({ type: 'agent_status', status: { phase: 'exited', agentName: name, exitCode: exit?.code ?? null } });
      this.deps.store.dispatch({
        type: 'notice_added',
        severity: 'error',
        title: `${name} could not start a session`,
        detail: message,
        action: 'restart_agent',
      });
    }
  }

  private launch(
    agent: AgentConfig,
    cwd: string,
    protocolVersion: ProtocolVersion,
    mcpServers: readonly ResolvedMcpServer[],
  ): AgentSession {
    // The agent's running process when another conversation already has one with this setup, else a new one.
    const connection = this.pool.connect(agent, {
      cwd,
      protocolVersion,
      log: this.deps.log,
      trace: this.deps.env.trace(),
      clientVersion: this.deps.env.extensionVersion,
    });
    const session: AgentSession = new AgentSession(connection, {
      mcpServers,
      roots: () => this.deps.env.roots(),
      log: this.deps.log,
      files: this.deps.files,
      permissions: this.deps.permissions,
      elicitations: this.deps.elicitations,
      hooks: {
        onAction: (action) => this.applyAgentAction(session, action),
        toolCallShown: (toolCallId) => this.toolCallShown(session, toolCallId),
        onExit: (exit) => this.handleExit(session, exit),
        // Another conversation signed in on the same process: the session the agent refused here may open now.
        onSignedIn: () => {
          if (this.deps.store.state.agent.phase === 'needs_auth') void this.reopen(session);
        },
      },
    });
    this.session = session;
    return session;
  }

  private applyAgentAction(session: AgentSession, action: AgentAction): void {
    if (this.session !== session) return;
    if (action.type === 'session_update' && action.update.sessionUpdate === 'state_update' && action.update.state === 'idle') {
      const turn = this.deps.store.state.turn;
      if (turn.phase !== 'idle') this.finishTurn(turn.turnId);
    }
    // Not `dispatch`: chunks read in one go reach the store as one action (ChunkBatch).
    this.deps.store.dispatchStreamed(action);
  }

  private toolCallShown(session: AgentSession, toolCallId: string): ToolCallShown | undefined {
    if (this.session !== session) return undefined;
    const entry = toolCallEntry(this.deps.store.state, toolCallId);
    return entry && { title: entry.title, locations: entry.locations, content: entry.content };
  }

  private handleExit(session: AgentSession, exit: AgentExit): void {
    if (this.session !== session) return;
    const name = session.agentName;
    this.cancelTimer.clear();
    this.deps.permissions.cancelAll();
    this.deps.elicitations.cancelAll();
    this.deps.store.dispatch({
      type: 'agent_status',
      status: { phase: 'exited', agentName: name, exitCode: exit.code, ...(exit.signal ? { signal: exit.signal } : {}) },
    });
    if (exit.requested) return;
    const { title, detail } = describeExit(name, exit);
    this.deps.log.error(`${title}\n${detail}`);
    const turn = this.deps.store.state.turn;
    if (turn.phase !== 'idle') this.deps.store.dispatch({ type: 'turn_failed', turnId: turn.turnId, message: title });
    this.deps.store.dispatch({ type: 'notice_added', severity: 'error', title, detail, action: 'restart_agent' });
  }

  private finishTurn(turnId: string): void {
    const turn = this.deps.store.state.turn;
    if (turn.phase === 'idle' || turn.turnId !== turnId) return;
    this.cancelTimer.clear();
    // A request the agent left unanswered when its turn ended is moot: no dialog outlives the turn.
    this.deps.permissions.cancelAll();
    this.deps.elicitations.cancelAll();
    this.armIdleTimer();
    this.queue.drainSoon();
  }

  private offerToStop(turnId: string): void {
    const turn = this.deps.store.state.turn;
    if (turn.phase !== 'cancelling' || turn.turnId !== turnId) return;
    const name = this.agent?.name ?? 'The agent';
    this.deps.store.dispatch({
      type: 'notice_added',
      severity: 'warning',
      title: `${name} has not stopped`,
      detail: `It was asked to cancel ${Math.round((this.deps.cancelGraceMs ?? CANCEL_GRACE_MS) / 1000)} s ago and has not answered.`,
      action: 'stop_agent',
    });
    void this.deps.notifier.warn(`${name} has not stopped after cancel.`, 'Stop Agent').then((choice) => {
      if (choice === 'Stop Agent') void this.stopUnresponsive();
    });
  }

  /** Stops an agent that ignored cancel; the turn ends as cancelled, the transcript stays. */
  async stopUnresponsive(): Promise<void> {
    const turn = this.deps.store.state.turn;
    await this.stop();
    if (turn.phase !== 'idle') this.deps.store.dispatch({ type: 'turn_ended', turnId: turn.turnId, stopReason: 'cancelled' });
  }

  /** A start-up that does not answer in time says so, with the way out; it goes on until the user decides. */
  private watchStartup(session: AgentSession): void {
    const limitMs = this.deps.env.startupTimeoutMs();
    this.startupTimer.arm(limitMs, () => {
      if (this.session !== session || session.sessionId !== undefined) return;
      this.deps.store.dispatch({
        type: 'notice_added',
        severity: 'warning',
        title: `${session.agentName} is not responding`,
        detail: `It was started ${Math.round(limitMs / 1000)} s ago and has not opened a session yet. Stop it, retry from the start, or keep waiting.`,
        action: 'stop_agent',
        alternative: 'retry_start',
      });
    });
  }

  /**
   * A session opened after start-up (after signing in; on a shared agent, a load or resume) has the start-up's
   * deadline too: "not responding" with Stop and Retry once it passes.
   */
  private async withOpeningDeadline<T>(session: AgentSession, opening: () => Promise<T>): Promise<T> {
    this.watchStartup(session);
    try {
      return await opening();
    } finally {
      // Only its own timer: a newer start-up may have armed one meanwhile.
      if (this.session === session) this.startupTimer.clear();
    }
  }

  /** An agent with no turn for `idleTimeoutMs` is stopped; the conversation stays, and the next prompt starts it. */
  private armIdleTimer(): void {
    this.idleTimer.clear();
    const limitMs = this.deps.env.idleTimeoutMs?.() ?? 0;
    if (limitMs <= 0) return;
    const session = this.session;
    this.idleTimer.arm(limitMs, () => void this.stopIdle(session, limitMs));
  }

  private async stopIdle(session: AgentSession | undefined, limitMs: number): Promise<void> {
    const state = this.deps.store.state;
    if (!session || this.session !== session || activeTurnId(state) !== undefined || (state.queued?.length ?? 0) > 0) return;
    const name = session.agentName;
    this.deps.log.info(`Stopping ${name}: no turn for ${Math.round(limitMs / 60_000)} min`);
    await this.stop();
  }

  private reportRequestFailure(what: string, error: unknown): void {
    const { message } = describeError(error);
    this.deps.store.dispatch({ type: 'notice_added', severity: 'error', title: what, detail: message });
  }
}

function describeError(error: unknown): { message: string; code?: number } {
  if (error instanceof Error) {
    return 'code' in error && typeof error.code === 'number' ? { message: error.message, code: error.code } : { message: error.message };
  }
  return { message: String(error) };
}
