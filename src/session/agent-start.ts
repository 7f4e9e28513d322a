/**
 * Bringing a conversation's agent up: the checks before a start (trust, a folder, the user's approval), the launch
 * on a pooled process, the session opened (or continued) on it, the start-up deadline, and sign-in: an agent that
 * refuses a session until the user signs in keeps running, and the session opens on it once they have.
 */
import type { AgentConfig } from '../agents/agent-config';
import type { AgentExit } from '../agents/agent-process';
import { UNTRUSTED_WORKSPACE } from '../shared/wording';
import type { ToolCallShown } from '../shared/tool-paths';
import type { ProtocolVersion } from '../acp/protocol-version';
import type { ResolvedMcpServer } from '../agents/mcp-references';
import { AgentSession, type AgentAction, type StartedSession } from './agent-session';
import type { AgentPool } from './agent-pool';
import { mcpServersFor, withStoredApiKey } from './launch-preparation';
import { AuthRequired } from './auth-required';
import { NeedsV1Restart, versionToOffer } from './version-offer';
import type { PromptQueue } from './prompt-queue';
import { continuationOf, openContinuing, sessionToContinue, type Continuation } from './session-continuation';
import { describeError, type ControllerState } from './controller-state';

/** What a start needs from the rest of the controller: the turn's handlers for what the running agent sends. */
export interface AgentStartHooks {
  readonly onAction: (session: AgentSession, action: AgentAction) => void;
  readonly toolCallShown: (session: AgentSession, toolCallId: string) => ToolCallShown | undefined;
  readonly onExit: (session: AgentSession, exit: AgentExit) => void;
  /** The session is open: the idle clock starts. */
  readonly sessionReady: () => void;
  readonly signIn: () => Promise<void>;
}

export class AgentStart {
  constructor(
    private readonly state: ControllerState,
    private readonly pool: AgentPool,
    private readonly queue: PromptQueue,
    private readonly hooks: AgentStartHooks,
  ) {}

  /**
   * One start step (the lifecycle queue runs them one at a time): stops what runs, checks the start may happen, and
   * opens a session on the agent, continuing this conversation's (or adopting `adopt`) where the agent can.
   */
  async startNow(agent: AgentConfig, generation: number, adopt: string | undefined, stopCurrent: () => Promise<void>): Promise<void> {
    const { state } = this;
    const { deps } = state;
    await stopCurrent();
    if (!state.stillWanted(generation)) return;
    state.agent = agent;
    const cwd = deps.env.cwd();
    if (!deps.env.isTrusted()) {
      state.advance('start_refused');
      deps.store.dispatch({ type: 'notice_added', severity: 'warning', ...UNTRUSTED_WORKSPACE });
      return;
    }
    if (!cwd) {
      state.advance('start_refused');
      deps.store.dispatch({
        type: 'notice_added',
        severity: 'warning',
        title: 'Open a folder to start an agent',
        detail: 'Agents work on a workspace folder; none is open.',
      });
      return;
    }
    const refusal = await deps.launchApproval?.refusal(agent);
    if (!state.stillWanted(generation)) return;
    if (refusal) {
      state.advance('start_refused');
      deps.store.dispatch({ type: 'notice_added', severity: 'warning', ...refusal });
      return;
    }
    // Read before "starting" names the agent: whose session the transcript holds is what the status said until now.
    const previous: Continuation | undefined =
      adopt !== undefined ? { sessionId: adopt, replay: 'show' } : continuationOf(sessionToContinue(deps.store.state, agent.name));
    deps.store.dispatch({ type: 'agent_status', status: { phase: 'starting', agentName: agent.name } });
    const mcpServers = await this.mcpServersFor(agent);
    if (!state.stillWanted(generation)) return;
    const spawned = await withStoredApiKey(agent, deps.secrets);
    if (!state.stillWanted(generation)) return;
    await this.openOnLaunched(agent, spawned, cwd, previous, mcpServers, generation);
  }

  /** Launches and opens the session; an agent that asks for v1 after a v2 offer is started again on v1. */
  private async openOnLaunched(
    agent: AgentConfig,
    spawned: AgentConfig,
    cwd: string,
    previous: Continuation | undefined,
    mcpServers: readonly ResolvedMcpServer[],
    generation: number,
  ): Promise<void> {
    const { state } = this;
    const { deps } = state;
    let offer = versionToOffer(agent.protocolVersion);
    for (;;) {
      const session = this.launch(spawned, cwd, offer, mcpServers);
      this.watchStartup(session);
      try {
        const started = await openContinuing(session, agent.name, previous, deps.log);
        state.startupTimer.clear();
        if (state.session !== session || generation !== state.generation) {
          // Superseded while it started: it must not outlive the step that wanted it.
          await session.stop();
          return;
        }
        this.sessionOpened(agent.name, started.session);
        if (started.notice) deps.store.dispatch({ type: 'notice_added', severity: started.notice.severity, ...started.notice.text });
        return;
      } catch (error) {
        state.startupTimer.clear();
        if (state.session !== session || generation !== state.generation) {
          await session.stop();
          return;
        }
        if (error instanceof AuthRequired && session.authMethods.length > 0) {
          // It runs on, waiting for `authenticate`: signing in then opens the session on this same process.
          // (With no method listed there is nothing to sign in with here: it is stopped like any refusal.)
          this.needsSignIn(session, error);
          return;
        }
        state.session = undefined;
        const exit = await session.stop();
        if (error instanceof NeedsV1Restart && offer === 2) {
          // A fresh process: the one that saw the v2 offer never heard our v1 capabilities.
          deps.log.info(`${error.message}; restarting it on v1`);
          offer = 1;
          continue;
        }
        const { message } = describeError(error);
        state.advance('start_failed');
        deps.log.error(`Starting ${agent.name} failed: ${message}`);
        // We stopped it (it may not have exited by itself): say so, or the header would keep saying "Starting…".
        this.couldNotStart(agent.name, message, exit?.code ?? null);
        return;
      }
    }
  }

  private couldNotStart(name: string, message: string, exitCode: number | null): void {
    const { store } = this.state.deps;
    store.dispatch({ type: 'agent_status', status: { phase: 'exited', agentName: name, exitCode } });
    store.dispatch({
      type: 'notice_added',
      severity: 'error',
      title: `${name} could not start a session`,
      detail: message,
      action: 'restart_agent',
    });
  }

  /** Resolving may ask the user for a secret; a server that cannot be resolved is named, the others still go. */
  private mcpServersFor(agent: AgentConfig): Promise<readonly ResolvedMcpServer[]> {
    return mcpServersFor(this.state.deps.mcpServers, agent, (title, problems) => this.noticeMcpProblems(title, problems));
  }

  private noticeMcpProblems(title: string, problems: readonly string[]): void {
    if (problems.length === 0) return;
    for (const problem of problems) this.state.deps.log.warn(`${title}: ${problem}`);
    this.state.deps.store.dispatch({ type: 'notice_added', severity: 'warning', title, detail: problems.join('\n') });
  }

  private sessionOpened(agentName: string, started: StartedSession): void {
    const { store } = this.state.deps;
    this.state.advance('session_opened');
    store.dispatch({
      type: 'session_started',
      sessionId: started.sessionId,
      ...(started.modes ? { modes: started.modes } : {}),
      ...(started.configOptions ? { configOptions: started.configOptions } : {}),
      ...(started.availableCommands ? { availableCommands: started.availableCommands } : {}),
      promptCapabilities: started.promptCapabilities,
      ...(started.steering ? { steering: true } : {}),
    });
    store.dispatch({ type: 'agent_status', status: { phase: 'ready', agentName, protocolVersion: started.protocolVersion } });
    for (const update of started.earlyUpdates) store.dispatch({ type: 'session_update', update });
    this.noticeMcpProblems(`MCP servers not passed to ${agentName}`, started.mcpServersSkipped);
    this.hooks.sessionReady();
    this.queue.drainSoon();
    if (started.freshProcess) this.pool.announceRevived(agentName);
  }

  /** The agent refused the session (or a prompt) until the user signs in: the header, a notice and a toast say so. */
  needsSignIn(session: AgentSession, refusal: AuthRequired): void {
    const { deps } = this.state;
    const name = session.agentName;
    const methods = session.authMethods.map((method) => method.name);
    this.state.advance('auth_required');
    deps.log.info(`${name} refused a session until you sign in: ${refusal.message}`);
    deps.store.dispatch({ type: 'agent_status', status: { phase: 'needs_auth', agentName: name, methods } });
    deps.store.dispatch({
      type: 'notice_added',
      severity: 'warning',
      title: `Sign in to ${name} to start a session`,
      detail: `${refusal.message.replace(/\.?$/, '.')} It offers: ${methods.join(', ')}.`,
      action: 'sign_in',
    });
    // VS Code cannot withdraw the toast once the user signed in from the chat (or the agent stopped): a late click
    // says why there is nothing to do rather than asking for a method again or doing nothing without a word.
    void deps.notifier.warn(`${name} needs you to sign in.`, 'Sign In…').then((choice) => {
      if (choice !== 'Sign In…') return;
      if (this.state.session === session && this.state.phase === 'sign_in_needed') void this.hooks.signIn();
      else if (this.state.session === session) deps.notifier.info(`${name} is signed in already.`);
      else deps.notifier.info(`${name} is not waiting for a sign-in any more: that session has ended.`);
    });
  }

  /** After an `agent`-type sign-in: the session the agent refused, on the same process. */
  async reopen(session: AgentSession): Promise<void> {
    const { state } = this;
    const { deps } = state;
    if (state.session !== session || session.exited) return;
    const name = session.agentName;
    if (session.sessionId !== undefined) {
      // It refused a prompt, not the session: the open session goes on, and the prompt that waited is sent again.
      const protocolVersion = session.protocolVersion;
      state.advance('session_opened');
      deps.store.dispatch({
        type: 'agent_status',
        status: { phase: 'ready', agentName: name, ...(protocolVersion ? { protocolVersion } : {}) },
      });
      this.queue.drainSoon();
      return;
    }
    state.advance('start');
    deps.store.dispatch({ type: 'agent_status', status: { phase: 'starting', agentName: name } });
    try {
      const started = await this.withOpeningDeadline(session, () => session.openSession());
      if (state.session === session) this.sessionOpened(name, started);
    } catch (error) {
      if (state.session !== session) return;
      if (error instanceof AuthRequired) return this.needsSignIn(session, error);
      const { message } = describeError(error);
      deps.log.error(`Opening a session on ${name} after signing in failed: ${message}`);
      state.advance('start_failed');
      state.session = undefined;
      const exit = await session.stop();
      this.couldNotStart(name, message, exit?.code ?? null);
    }
  }

  private launch(
    agent: AgentConfig,
    cwd: string,
    protocolVersion: ProtocolVersion,
    mcpServers: readonly ResolvedMcpServer[],
  ): AgentSession {
    const { state, hooks } = this;
    const { deps } = state;
    // The agent's running process when another conversation already has one with this setup, else a new one.
    const connection = this.pool.connect(agent, {
      cwd,
      protocolVersion,
      log: deps.log,
      trace: deps.env.trace(),
      clientVersion: deps.env.extensionVersion,
      ...(deps.editorTools ? { editorTools: deps.editorTools } : {}),
    });
    const session: AgentSession = new AgentSession(connection, {
      mcpServers,
      roots: () => deps.env.roots(),
      log: deps.log,
      files: deps.files,
      permissions: deps.permissions,
      elicitations: deps.elicitations,
      hooks: {
        onAction: (action) => hooks.onAction(session, action),
        toolCallShown: (toolCallId) => hooks.toolCallShown(session, toolCallId),
        onExit: (exit) => hooks.onExit(session, exit),
        // Another conversation signed in on the same process: the session the agent refused here may open now.
        onSignedIn: () => {
          if (state.phase === 'sign_in_needed') void this.reopen(session);
        },
      },
    });
    state.session = session;
    return session;
  }

  /** A start-up that does not answer in time says so, with the way out; it goes on until the user decides. */
  private watchStartup(session: AgentSession): void {
    const { state } = this;
    const limitMs = state.deps.env.startupTimeoutMs();
    state.startupTimer.arm(limitMs, () => {
      if (state.session !== session || session.sessionId !== undefined) return;
      state.deps.store.dispatch({
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
      if (this.state.session === session) this.state.startupTimer.clear();
    }
  }
}
