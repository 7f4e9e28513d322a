/**
 * A conversation's prompt turns: a prompt sent (or queued while the agent starts or is busy), steering a running
 * turn, what the agent streams during it, cancellation exactly as the seeds describe (with an offer to stop an agent
 * that does not stop), the agent's process exiting under a turn, and the idle stop between turns.
 */
import type { AgentExit } from '../agents/agent-process';
import type { Attachment } from '../shared/attachments';
import { toolCallEntry } from '../shared/selectors';
import { inTurnState, lifecycleOf } from '../shared/lifecycle';
import { UNTRUSTED_WORKSPACE } from '../shared/wording';
import type { ToolCallShown } from '../shared/tool-paths';
import { positionOf } from '../shared/pages';
import { userPromptKey } from '../shared/reducer-turns';
import { clientCardNamed, toolCallNamedByAgent } from '../shared/reducer-tools';
import type { AgentAction, AgentSession } from './agent-session';
import { AUTH_REQUIRED, AuthRequired } from './auth-required';
import { describeExit, turnCutShort } from './crash-report';
import { buildPromptContent } from './prompt-content';
import { TurnIds } from './turn-ids';
import { PromptQueue, type SendVerdict } from './prompt-queue';
import { CANCEL_GRACE_MS, describeError, type ControllerState } from './controller-state';

const BUSY = 'Wait for the current turn to finish or cancel it.';

/** What the turns need from the rest of the controller. */
export interface PromptTurnsHooks {
  /** Stop Agent (after an unanswered cancel, or when the agent sat idle too long). */
  readonly stop: () => Promise<void>;
  /** The agent refused a prompt until the user signs in. */
  readonly needsSignIn: (session: AgentSession, refusal: AuthRequired) => void;
}

export class PromptTurns {
  private readonly turnIds = new TurnIds();
  /** The editor's cards the agent tried to change, already logged. */
  private readonly forgedCards = new Set<string>();
  readonly queue: PromptQueue;

  constructor(
    private readonly state: ControllerState,
    private readonly hooks: PromptTurnsHooks,
  ) {
    this.queue = new PromptQueue(
      state.deps.store,
      () => this.canTakePrompt(),
      (text, attachments) => this.sendNow(text, attachments),
    );
  }

  /**
   * Sends a prompt, or queues it while the agent starts or a turn runs (it goes, in order, the moment the agent can
   * take it; until then the user may edit or remove it).
   */
  async sendPrompt(text: string, attachments: readonly Attachment[] = []): Promise<SendVerdict> {
    const { deps } = this.state;
    if (!deps.env.isTrusted()) return { accepted: false, reason: `${UNTRUSTED_WORKSPACE.title}. ${UNTRUSTED_WORKSPACE.detail}` };
    if (text.trim().length === 0 && attachments.length === 0) return { accepted: false, reason: 'The prompt is empty.' };
    const lifecycle = this.state.lifecycle;
    const waiting = lifecycle === 'starting' || inTurnState(lifecycle) || this.queue.pending.length > 0;
    if (waiting && lifecycle !== 'sign_in_needed') {
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
    const { deps } = this.state;
    const session = this.state.session;
    const { turn, steering, promptCapabilities } = deps.store.state;
    if (!session?.sessionId || session.exited || !steering || turn.phase !== 'running') return;
    const queued = this.queue.take(id);
    if (!queued) return;
    const built = await buildPromptContent(queued.text, queued.attachments, promptCapabilities, session.agentName, deps.attachmentText);
    try {
      if (!built.ok) throw new Error(built.reason);
      const outcome = await session.steer(built.content);
      if (outcome === 'injected') deps.store.dispatch({ type: 'prompt_steered', turnId: turn.turnId, steerId: id, content: built.content });
      else await this.sendPrompt(queued.text, queued.attachments);
    } catch (error) {
      this.queue.add(queued.text, queued.attachments);
      this.state.reportRequestFailure('Could not steer the turn', error);
    }
  }

  /** The agent can take a queued prompt: its session is open and idle, and nothing is starting. */
  private canTakePrompt(): boolean {
    return !this.state.disposed && this.state.phase === 'ready' && lifecycleOf(this.state.deps.store.state) === 'ready';
  }

  private async sendNow(text: string, attachments: readonly Attachment[]): Promise<SendVerdict> {
    const { state } = this;
    const { deps } = state;
    if (state.starting) await state.starting.catch(() => undefined);
    const session = state.session;
    if (session && state.phase === 'sign_in_needed') return { accepted: false, reason: `Sign in to ${session.agentName} first.` };
    if (!session || session.exited || !session.sessionId) {
      return {
        accepted: false,
        reason: state.agent ? `${state.agent.name} is not running. Restart it to continue.` : 'No agent is selected.',
      };
    }
    if (inTurnState(state.lifecycle)) return { accepted: false, reason: BUSY };
    const built = await buildPromptContent(text, attachments, deps.store.state.promptCapabilities, session.agentName, deps.attachmentText);
    if (!built.ok) return { accepted: false, reason: built.reason };
    // Reading attachments took time: the session or the turn may have changed meanwhile.
    if (state.session !== session || session.exited)
      return { accepted: false, reason: `${session.agentName} stopped before the prompt was sent.` };
    if (inTurnState(state.lifecycle)) return { accepted: false, reason: BUSY };
    const turnId = this.turnIds.take((id) => positionOf(deps.store.state, userPromptKey(id)) !== undefined);
    const content = built.content;
    state.idleTimer.clear();
    deps.store.dispatch({ type: 'prompt_sent', turnId, content });
    for (const note of built.notes)
      deps.store.dispatch({ type: 'notice_added', severity: 'info', title: 'Attachment sent as a link', detail: note });
    void session.prompt(content).then(
      (result) => {
        // v1 and seed-002 v2 end the turn with the answer; current v2 answers {messageId} at once and ends the
        // turn later with `state_update idle` (see onAction).
        if (typeof result.messageId === 'string' && state.session === session)
          deps.store.dispatch({ type: 'prompt_accepted', turnId, messageId: result.messageId });
        if (result.stopReason === undefined) return;
        this.finishTurn(turnId);
        deps.store.dispatch({ type: 'turn_ended', turnId, stopReason: result.stopReason });
      },
      (error: unknown) => this.promptFailed(session, turnId, error, text, attachments),
    );
    return { accepted: true };
  }

  private promptFailed(session: AgentSession, turnId: string, error: unknown, text: string, attachments: readonly Attachment[]): void {
    this.finishTurn(turnId);
    // The exit handler explains what happened (a closed connection means the exit is on its way).
    if (session.exited || session.connectionLost) return;
    const { message, code } = describeError(error);
    this.state.deps.store.dispatch({ type: 'turn_failed', turnId, message, ...(code === undefined ? {} : { code }) });
    if (code === AUTH_REQUIRED && this.state.session === session && session.authMethods.length > 0) {
      // Refused until the user signs in (Claude Code opens sessions signed out and refuses the prompt): the
      // prompt waits in the queue, shown and removable, and goes again once the agent is signed in.
      this.hooks.needsSignIn(session, new AuthRequired(message));
      this.queue.add(text, attachments);
    }
  }

  /** Cancel, as the seeds say: notify the agent, mark the turn's tool calls cancelled, answer permissions cancelled. */
  cancelTurn(): void {
    const { state } = this;
    const turn = state.deps.store.state.turn;
    if (turn.phase !== 'running') return;
    const session = state.session;
    state.deps.store.dispatch({ type: 'cancel_requested', turnId: turn.turnId, at: Date.now() });
    state.withdrawQuestions();
    session?.cancel();
    state.cancelTimer.arm(state.deps.cancelGraceMs ?? CANCEL_GRACE_MS, () => this.offerToStop(turn.turnId));
  }

  /** What the running agent sends: into the store; `state_update idle` ends the turn (current v2). */
  onAction(session: AgentSession, action: AgentAction): void {
    const { store } = this.state.deps;
    if (this.state.session !== session) return;
    this.logForgery(action);
    if (action.type === 'session_update' && action.update.sessionUpdate === 'state_update' && action.update.state === 'idle') {
      const turn = store.state.turn;
      if (turn.phase !== 'idle') this.finishTurn(turn.turnId);
    }
    // Not `dispatch`: chunks read in one go reach the store as one action (ChunkBatch).
    store.dispatchStreamed(action);
  }

  /** The reducer ignores the agent's changes to a card of the editor's own (clientCardNamed); the log says so. */
  private logForgery(action: AgentAction): void {
    // Reading the state applies held chunks: only for an action naming a tool call, which applies them anyway.
    const forged = toolCallNamedByAgent(action) === undefined ? undefined : clientCardNamed(this.state.deps.store.state, action);
    // Once per card: an agent repeating it must not flood the log.
    if (forged === undefined || this.forgedCards.has(forged)) return;
    this.forgedCards.add(forged);
    const what = action.type === 'session_update' ? action.update.sessionUpdate : action.type;
    this.state.deps.log.warn(`Ignored the agent's ${what} for the editor's own card ${forged}: only the editor changes it.`);
  }

  toolCallShown(session: AgentSession, toolCallId: string): ToolCallShown | undefined {
    if (this.state.session !== session) return undefined;
    const entry = toolCallEntry(this.state.deps.store.state, toolCallId);
    // The agent's permission dialog never borrows the title and files of a card of the editor's own.
    return entry && entry.origin === undefined ? { title: entry.title, locations: entry.locations, content: entry.content } : undefined;
  }

  /** The process ended: the header says so; unasked, the turn fails and a notice explains, with Restart. */
  onExit(session: AgentSession, exit: AgentExit): void {
    const { state } = this;
    const { deps } = state;
    if (state.session !== session) return;
    const name = session.agentName;
    state.advance('process_exited');
    state.cancelTimer.clear();
    state.withdrawQuestions();
    deps.store.dispatch({
      type: 'agent_status',
      status: { phase: 'exited', agentName: name, exitCode: exit.code, ...(exit.signal ? { signal: exit.signal } : {}) },
    });
    if (exit.requested) return;
    const { title, detail } = describeExit(name, exit);
    deps.log.error(`${title}\n${detail}`);
    const turn = deps.store.state.turn;
    if (turn.phase !== 'idle') deps.store.dispatch({ type: 'turn_failed', turnId: turn.turnId, message: turnCutShort(name) });
    deps.store.dispatch({ type: 'notice_added', severity: 'error', title, detail, action: 'restart_agent' });
  }

  private finishTurn(turnId: string): void {
    const turn = this.state.deps.store.state.turn;
    if (turn.phase === 'idle' || turn.turnId !== turnId) return;
    this.state.cancelTimer.clear();
    // A request the agent left unanswered when its turn ended is moot: no dialog outlives the turn.
    this.state.withdrawQuestions();
    this.armIdleTimer();
    this.queue.drainSoon();
  }

  private offerToStop(turnId: string): void {
    const { deps } = this.state;
    const turn = deps.store.state.turn;
    if (turn.phase !== 'cancelling' || turn.turnId !== turnId) return;
    const name = this.state.agent?.name ?? 'The agent';
    deps.store.dispatch({
      type: 'notice_added',
      severity: 'warning',
      title: `${name} has not stopped`,
      detail: `It was asked to cancel ${Math.round((deps.cancelGraceMs ?? CANCEL_GRACE_MS) / 1000)} s ago and has not answered.`,
      action: 'stop_agent',
    });
    // The toast outlives the turn (VS Code cannot withdraw it): once that turn has ended, its button must not stop
    // an agent that did answer and may be running the next turn.
    void deps.notifier.warn(`${name} has not stopped after cancel.`, 'Stop Agent').then((choice) => {
      if (choice !== 'Stop Agent') return;
      const now = deps.store.state.turn;
      if (now.phase === 'cancelling' && now.turnId === turnId) void this.stopUnresponsive();
      else deps.notifier.info(`That turn of ${name} has ended already: nothing was stopped.`);
    });
  }

  /** Stops an agent that ignored cancel; the turn ends as cancelled, the transcript stays. */
  async stopUnresponsive(): Promise<void> {
    const turn = this.state.deps.store.state.turn;
    await this.hooks.stop();
    if (turn.phase !== 'idle') this.state.deps.store.dispatch({ type: 'turn_ended', turnId: turn.turnId, stopReason: 'cancelled' });
  }

  /** An agent with no turn for `idleTimeoutMs` is stopped; the conversation stays, and the next prompt starts it. */
  armIdleTimer(): void {
    const { state } = this;
    state.idleTimer.clear();
    const limitMs = state.deps.env.idleTimeoutMs?.() ?? 0;
    if (limitMs <= 0) return;
    const session = state.session;
    state.idleTimer.arm(limitMs, () => void this.stopIdle(session, limitMs));
  }

  private async stopIdle(session: AgentSession | undefined, limitMs: number): Promise<void> {
    const { state } = this;
    const queued = state.deps.store.state.queued;
    if (!session || state.session !== session || inTurnState(state.lifecycle) || (queued?.length ?? 0) > 0) return;
    state.deps.log.info(`Stopping ${session.agentName}: no turn for ${Math.round(limitMs / 60_000)} min`);
    await this.hooks.stop();
  }
}
