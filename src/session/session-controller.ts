/**
 * A conversation's agent session, as one object for the commands and views: it starts the agent and opens an ACP
 * session (agent-start.ts), runs prompt turns and cancellation exactly as the seeds describe (prompt-turns.ts), moves
 * between lifecycle states on the user's commands (lifecycle-steps.ts), and survives the agent crashing. Where the
 * agent is in its lifecycle lives in one place (controller-state.ts, moved only through shared/lifecycle.ts).
 * Everything it shows goes through the transcript store; everything it needs from the editor comes through ports, so
 * it also runs outside VS Code (tests, benchmarks).
 */
import type { AgentConfig } from '../agents/agent-config';
import type { AnswerResult, UserElicitationAction } from '../client/elicitation-broker';
import type { Attachment } from '../shared/attachments';
import type { LifecycleState } from '../shared/lifecycle';
import type { ListedSession, SessionSupport } from './agent-session';
import { AgentPool } from './agent-pool';
import { SessionMenu } from './session-menu';
import { SignIn } from './sign-in';
import type { AgentCatalog } from './ports';
import type { SendVerdict } from './prompt-queue';
import { ControllerState, type SessionControllerDeps } from './controller-state';
import { AgentStart } from './agent-start';
import { PromptTurns } from './prompt-turns';
import { LifecycleSteps } from './lifecycle-steps';
import type { EditorToolsStatus } from '../editor-tools/editor-tools-offer';

export type { SessionControllerDeps } from './controller-state';

/** `queued`: the prompt waits for the agent (starting, or busy with a turn) and goes when it can. */
export type PromptVerdict = SendVerdict;

export class SessionController {
  private readonly state: ControllerState;
  private readonly turns: PromptTurns;
  private readonly starter: AgentStart;
  private readonly steps: LifecycleSteps;
  private readonly auth: SignIn;
  private readonly revival: { dispose(): void };
  private readonly menu: SessionMenu;

  constructor(deps: SessionControllerDeps) {
    const state = new ControllerState(deps);
    this.state = state;
    const pool = deps.pool ?? new AgentPool();
    this.turns = new PromptTurns(state, {
      stop: () => this.stop(),
      needsSignIn: (session, refusal) => this.starter.needsSignIn(session, refusal),
    });
    this.starter = new AgentStart(state, pool, this.turns.queue, {
      onAction: (session, action) => this.turns.onAction(session, action),
      toolCallShown: (session, toolCallId) => this.turns.toolCallShown(session, toolCallId),
      onExit: (session, exit) => this.turns.onExit(session, exit),
      sessionReady: () => this.turns.armIdleTimer(),
      signIn: () => this.signIn(),
    });
    this.steps = new LifecycleSteps(state, this.starter, this.turns.queue);
    this.menu = new SessionMenu({
      current: () => state.session,
      store: deps.store,
      agentName: () => state.agent?.name,
      reportFailure: (title, error) => state.reportRequestFailure(title, error),
    });
    this.revival = pool.onRevived((agentName) => this.steps.revive(agentName));
    this.auth = new SignIn(
      {
        running: () => {
          const session = state.session;
          return session && !session.exited && state.agent ? { session, agent: state.agent } : undefined;
        },
        reopen: (session) => this.starter.reopen(session),
        restart: (agent) => this.steps.restartFresh(agent),
        cwd: () => deps.env.cwd(),
        notice: (severity, title, detail) =>
          deps.store.dispatch({ type: 'notice_added', severity, title, ...(detail === undefined ? {} : { detail }) }),
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
    return this.state.agent?.name;
  }

  /** The agent the chat is for: the one chosen last while the catalog still has it, else the catalog's default. */
  agentToStart(catalog: AgentCatalog): AgentConfig | undefined {
    return catalog.agents().find((agent) => agent.name === this.steps.chosenName) ?? catalog.defaultAgent();
  }

  /** The conversation's lifecycle state (see ControllerState.lifecycle). Commands decide from this alone. */
  get lifecycle(): LifecycleState {
    return this.state.lifecycle;
  }

  /** Settles once the start under way (if any) has opened a session, failed, or been superseded. */
  async started(): Promise<void> {
    await this.state.starting?.catch(() => undefined);
  }

  /** Lifecycle commands: see lifecycle-steps.ts. */
  start(agent: AgentConfig, adopt?: string): Promise<void> {
    return this.steps.start(agent, adopt);
  }

  switchTo(agent: AgentConfig): Promise<void> {
    return this.steps.switchTo(agent);
  }

  newSession(agent?: AgentConfig): Promise<void> {
    return this.steps.newSession(agent);
  }

  async restart(): Promise<void> {
    if (this.state.agent) await this.start(this.state.agent);
  }

  restartFresh(agent: AgentConfig): Promise<void> {
    return this.steps.restartFresh(agent);
  }

  stop(): Promise<void> {
    return this.steps.stop();
  }

  /** Prompt turns: see prompt-turns.ts. */
  sendPrompt(text: string, attachments: readonly Attachment[] = []): Promise<PromptVerdict> {
    return this.turns.sendPrompt(text, attachments);
  }

  steerQueuedPrompt(id: string): Promise<void> {
    return this.turns.steerQueuedPrompt(id);
  }

  /** A queued prompt the user took back (to edit it, or not to send it at all). */
  removeQueuedPrompt(id: string): void {
    this.turns.queue.remove(id);
  }

  cancelTurn(): void {
    this.turns.cancelTurn();
  }

  stopUnresponsive(): Promise<void> {
    return this.turns.stopUnresponsive();
  }

  answerPermission(requestId: string, optionId: string): void {
    if (!this.state.deps.permissions.answer(requestId, optionId)) this.state.deps.log.warn(`Permission ${requestId} was already answered`);
  }

  /** The user's answer to an elicitation; a form that does not pass the host's own check is not sent (see the result). */
  answerElicitation(requestId: string, action: UserElicitationAction, values?: Readonly<Record<string, unknown>>): Promise<AnswerResult> {
    return this.state.deps.elicitations.answer(requestId, action, values);
  }

  /** Only offered while the agent advertises it for that terminal; the agent's exit update confirms the stop. */
  async cancelTerminal(terminalId: string): Promise<void> {
    await this.state.session
      ?.cancelTerminal(terminalId)
      .catch((error: unknown) => this.state.reportRequestFailure('Could not stop the command', error));
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

  /** Whether the running agent got the editor's MCP server, and why not; undefined while none runs. */
  get editorTools(): EditorToolsStatus | undefined {
    return this.state.session?.editorTools;
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
    this.revival.dispose();
    this.steps.dispose();
  }
}
