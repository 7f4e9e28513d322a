/**
 * The commands that move a conversation's agent between lifecycle states: start, switch to another agent, new
 * session, restart, stop, and coming back when another conversation revived the process. They run one after another,
 * whatever the user clicks and how fast: each start waits for the one before it, and a newer start or a stop
 * supersedes an older start at once (its process is stopped, so a start-up that never answers cannot hold the queue).
 */
import type { AgentConfig } from '../agents/agent-config';
import type { AgentSession } from './agent-session';
import type { AgentStart } from './agent-start';
import type { PromptQueue } from './prompt-queue';
import { closePolitely } from './session-continuation';
import type { ControllerState } from './controller-state';

export class LifecycleSteps {
  private steps: Promise<void> = Promise.resolve();
  /** The agent the user chose last, kept even when starting it failed: a restart retries that one. */
  chosenName: string | undefined;

  constructor(
    private readonly state: ControllerState,
    private readonly starter: AgentStart,
    private readonly queue: PromptQueue,
  ) {}

  /**
   * Starts `agent` (stopping any other) and opens a session: the one this transcript had, continued where the agent
   * can; or, with `adopt`, one of the agent's own sessions (from `session/list`), its history replayed into the view.
   */
  start(agent: AgentConfig, adopt?: string): Promise<void> {
    const { state } = this;
    this.chosenName = agent.name;
    const generation = this.supersede();
    state.advance('start');
    const run = this.steps.then(() =>
      generation === state.generation ? this.starter.startNow(agent, generation, adopt, () => this.stopCurrent()) : undefined,
    );
    this.steps = run.catch(() => undefined);
    const starting = run.finally(() => {
      if (state.starting === starting) {
        state.starting = undefined;
        // A start that ended without saying how (it threw) leaves the agent not running, never "starting" forever.
        if (state.phase === 'starting') state.advance('start_refused');
      }
      this.queue.drainSoon();
    });
    state.starting = starting;
    return starting;
  }

  /**
   * A new lifecycle step: whatever is starting now is no longer wanted and is stopped (it may never answer).
   * `transcriptGoes`: the caller replaces the transcript next, so a given-up reopening is told in a notification.
   */
  private supersede(transcriptGoes = false): number {
    const { state } = this;
    state.generation++;
    state.startupTimer.clear();
    const session = state.session;
    if (session && session.sessionId === undefined) {
      state.session = undefined;
      this.gaveUpReopening(session, transcriptGoes ? 'notification' : 'transcript');
      void session.stop();
    }
    return state.generation;
  }

  /**
   * The user moved on (Stop, Retry, another agent, a new session, closing the conversation) while the agent was
   * still loading or resuming this conversation's session: stopping the session sends `$/cancel_request` for that
   * request. The conversation says so, as the header alone would only say "Not running"; when its transcript is
   * being replaced or the conversation closed, a notification does, never the transcript that comes next.
   */
  private gaveUpReopening(session: AgentSession, where: 'transcript' | 'notification'): void {
    const { deps } = this.state;
    const request = session.reopeningRequest;
    if (!request) return;
    const verb = request.method === 'session/load' ? 'load' : 'resume';
    deps.log.info(`Gave up ${request.method} of ${request.sessionId} on ${session.agentName}: $/cancel_request sent`);
    const title = `Stopped waiting for ${session.agentName} to ${verb} the session`;
    if (where === 'notification') {
      const named = deps.store.state.title;
      deps.notifier.info(named === undefined ? title : `${title} "${named}"`);
      return;
    }
    deps.store.dispatch({
      type: 'notice_added',
      severity: 'info',
      title,
      detail: `${session.agentName} had not answered ${request.method} and was asked to cancel it. The conversation above is kept; the next prompt starts the agent again and tries to continue the session once more.`,
    });
  }

  /**
   * Another agent for a conversation in which nothing was said yet: its session on the old agent ends (the process
   * too, unless another conversation uses it) and the chosen agent starts here with a session of its own. The header
   * names the new agent at once; notices about the old one go, prompts typed meanwhile stay queued for the new one.
   */
  switchTo(agent: AgentConfig): Promise<void> {
    const { store } = this.state.deps;
    const waiting = [...this.queue.pending];
    this.supersede(true);
    store.dispatch({ type: 'agent_status', status: { phase: 'starting', agentName: agent.name } });
    // Cleared, the old agent's session id is gone too: the new agent is not asked to continue it.
    store.dispatch({ type: 'transcript_cleared' });
    for (const prompt of waiting) this.queue.add(prompt.text, prompt.attachments);
    return this.start(agent);
  }

  /** "New Session": the old agent process is stopped, the transcript cleared, a fresh process and session. */
  async newSession(agent: AgentConfig | undefined = this.state.agent): Promise<void> {
    this.supersede(true);
    this.state.deps.store.dispatch({ type: 'transcript_cleared' });
    if (agent) await this.start(agent);
    else await this.stop();
  }

  /**
   * A fresh process, whoever else is on the running one (after signing in or out, so the agent reads its new
   * credentials): its other sessions see it exit and come back on the new one.
   */
  async restartFresh(agent: AgentConfig): Promise<void> {
    const session = this.state.session;
    if (session && !session.exited) await session.stopProcess();
    await this.start(agent);
  }

  /** Another conversation brought a fresh process of this agent up: one that its exit left here comes back too. */
  revive(agentName: string): void {
    const { state } = this;
    const agent = state.agent;
    if (state.disposed || agent?.name !== agentName || state.phase !== 'exited') return;
    state.deps.log.info(`${agentName} is running again: continuing this conversation's session on it`);
    void this.start(agent);
  }

  /** Stops the agent now (also one that is still starting); the header says "Not running". */
  async stop(): Promise<void> {
    const { state } = this;
    const starting = state.session?.sessionId === undefined ? state.session : undefined;
    this.supersede();
    state.advance('stop');
    const session = state.session ?? starting;
    await this.stopCurrent();
    if (session) {
      await session.stop();
      // Stopped as asked, not exited on its own: the next prompt starts it again and continues the session.
      if (state.session === undefined)
        state.deps.store.dispatch({ type: 'agent_status', status: { phase: 'stopped', agentName: session.agentName } });
    }
    // A start asked for meanwhile has moved on already.
    if (state.phase === 'stopping') state.advance('stopped');
  }

  private async stopCurrent(): Promise<void> {
    const { state } = this;
    const session = state.session;
    if (session) await closePolitely(session, state.deps.log);
    state.session = undefined;
    state.cancelTimer.clear();
    state.idleTimer.clear();
    state.withdrawQuestions();
    if (session) await session.stop();
  }

  /** Synchronous last resort for deactivation: no agent process outlives the extension. */
  dispose(): void {
    const { state } = this;
    state.disposed = true;
    state.generation++;
    state.startupTimer.clear();
    state.cancelTimer.clear();
    state.idleTimer.clear();
    state.withdrawQuestions();
    const session = state.session;
    // The conversation goes with this controller: a reopening given up now is told outside it.
    if (session && session.sessionId === undefined) this.gaveUpReopening(session, 'notification');
    session?.killNow();
    state.session = undefined;
    state.advance('stop');
    if (state.phase === 'stopping') state.advance('stopped');
  }
}
