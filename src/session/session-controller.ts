/**
 * The chat's session: starts the agent, opens an ACP session, runs prompt turns and cancellation exactly as the
 * seeds describe, and survives the agent crashing. Everything it shows goes through the transcript store;
 * everything it needs from the editor comes through ports, so it also runs outside VS Code (tests, benchmarks).
 */
import type { AgentConfig } from '../agents/agent-config';
import type { AgentExit } from '../agents/agent-process';
import type { FileSystemHandler } from '../client/fs-handler';
import type { PermissionBroker } from '../client/permission-broker';
import type { Attachment } from '../shared/attachments';
import { entryAtPosition, positionOf } from '../shared/pages';
import { toolKey } from '../shared/reducer-tools';
import type { ToolCallShown } from '../shared/tool-paths';
import type { SessionUpdate } from '../shared/updates';
import { AgentSession, type RequestPermissionParams } from './agent-session';
import { describeExit } from './crash-report';
import { buildPromptContent, type AttachmentText } from './prompt-content';
import { NeedsV1Restart, versionToOffer, type ProtocolVersion } from './protocol-version';
import type { SessionEnvironment, SessionLog, UserNotifier } from './ports';
import type { TranscriptStore } from './transcript-store';
import { TurnIds } from './turn-ids';

/** How long a cancelled turn may go unanswered before we offer to stop the agent (seeds: the agent SHOULD stop). */
export const CANCEL_GRACE_MS = 10_000;

export type PromptVerdict = { readonly accepted: true } | { readonly accepted: false; readonly reason: string };

export interface SessionControllerDeps {
  readonly store: TranscriptStore;
  readonly files: FileSystemHandler;
  readonly permissions: PermissionBroker;
  readonly notifier: UserNotifier;
  readonly log: SessionLog;
  readonly env: SessionEnvironment;
  /** Reads attached files for embedding in prompts. */
  readonly attachmentText: AttachmentText;
  /** How long a cancelled turn may go unanswered before we offer to stop the agent. */
  readonly cancelGraceMs?: number;
}

export class SessionController {
  private session: AgentSession | undefined;
  private agent: AgentConfig | undefined;
  private starting: Promise<void> | undefined;
  private readonly turnIds = new TurnIds();
  private cancelTimer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;

  constructor(private readonly deps: SessionControllerDeps) {}

  get agentName(): string | undefined {
    return this.agent?.name;
  }

  get isRunning(): boolean {
    return this.session !== undefined && !this.session.exited;
  }

  /** Starts `agent` (stopping any other), opens a session; the transcript is kept. */
  start(agent: AgentConfig): Promise<void> {
    const run = this.startNow(agent);
    this.starting = run.finally(() => {
      if (this.starting === run) this.starting = undefined;
    });
    return this.starting;
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

  async stop(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    this.clearCancelTimer();
    this.deps.permissions.cancelAll();
    if (session) await session.stop();
  }

  async sendPrompt(text: string, attachments: readonly Attachment[] = []): Promise<PromptVerdict> {
    if (!this.deps.env.isTrusted()) return { accepted: false, reason: 'Agents do not run in an untrusted workspace. Trust the workspace to chat.' };
    if (text.trim().length === 0 && attachments.length === 0) return { accepted: false, reason: 'The prompt is empty.' };
    if (this.starting) await this.starting.catch(() => undefined);
    const session = this.session;
    if (!session || session.exited || !session.sessionId) {
      return { accepted: false, reason: this.agent ? `${this.agent.name} is not running. Restart it to continue.` : 'No agent is selected.' };
    }
    if (this.deps.store.state.turn.phase !== 'idle') return { accepted: false, reason: 'Wait for the current turn to finish or cancel it.' };
    const built = await buildPromptContent(text, attachments, this.deps.store.state.promptCapabilities, session.agentName, this.deps.attachmentText);
    if (!built.ok) return { accepted: false, reason: built.reason };
    // Reading attachments took time: the session or the turn may have changed meanwhile.
    if (this.session !== session || session.exited) return { accepted: false, reason: `${session.agentName} stopped before the prompt was sent.` };
    if (this.deps.store.state.turn.phase !== 'idle') return { accepted: false, reason: 'Wait for the current turn to finish or cancel it.' };
    const turnId = this.turnIds.take();
    const content = built.content;
    this.deps.store.dispatch({ type: 'prompt_sent', turnId, content });
    for (const note of built.notes) this.deps.store.dispatch({ type: 'notice_added', severity: 'info', title: 'Attachment sent as a link', detail: note });
    void session.prompt(content).then(
      (result) => {
        // v1 and seed-002 v2 end the turn with the answer; current v2 answers {messageId} at once and ends the
        // turn later with `state_update idle` (see applyUpdate).
        if (typeof result.messageId === 'string' && this.session === session) this.deps.store.dispatch({ type: 'prompt_accepted', turnId, messageId: result.messageId });
        if (result.stopReason === undefined) return;
        this.finishTurn(turnId);
        this.deps.store.dispatch({ type: 'turn_ended', turnId, stopReason: result.stopReason });
      },
      (error: unknown) => {
        this.finishTurn(turnId);
        if (session.exited) return; // the exit handler explains what happened
        const { message, code } = describeError(error);
        this.deps.store.dispatch({ type: 'turn_failed', turnId, message, ...(code === undefined ? {} : { code }) });
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
    session?.cancel();
    this.clearCancelTimer();
    this.cancelTimer = setTimeout(() => this.offerToStop(turn.turnId), this.deps.cancelGraceMs ?? CANCEL_GRACE_MS);
  }

  answerPermission(requestId: string, optionId: string): void {
    if (!this.deps.permissions.answer(requestId, optionId)) this.deps.log.warn(`Permission ${requestId} was already answered`);
  }

  /** Only offered while the agent advertises it for that terminal; the agent's exit update confirms the stop. */
  async cancelTerminal(terminalId: string): Promise<void> {
    await this.session?.cancelTerminal(terminalId).catch((error: unknown) => this.reportRequestFailure('Could not stop the command', error));
  }

  async setMode(modeId: string): Promise<void> {
    await this.session?.setMode(modeId).catch((error: unknown) => {
      this.reportRequestFailure('Could not switch mode', error);
      this.restatePickers();
    });
  }

  async setConfigOption(configId: string, value: string | boolean): Promise<void> {
    await this.session?.setConfigOption(configId, value).catch((error: unknown) => {
      this.reportRequestFailure('Could not change the option', error);
      this.restatePickers();
    });
  }

  /** A refused choice is already showing in the picker the user changed: restate what holds so it snaps back. */
  private restatePickers(): void {
    const { modes, configOptions } = this.deps.store.state;
    if (modes) this.deps.store.dispatch({ type: 'session_update', update: { sessionUpdate: 'current_mode_update', currentModeId: modes.current } });
    this.deps.store.dispatch({ type: 'session_update', update: { sessionUpdate: 'config_option_update', configOptions: [...configOptions] } });
  }

  /** Synchronous last resort for deactivation: no agent process outlives the extension. */
  dispose(): void {
    this.disposed = true;
    this.clearCancelTimer();
    this.deps.permissions.cancelAll();
    this.session?.killNow();
    this.session = undefined;
  }

  private async startNow(agent: AgentConfig): Promise<void> {
    await this.stop();
    if (this.disposed) return;
    this.agent = agent;
    const cwd = this.deps.env.cwd();
    if (!this.deps.env.isTrusted()) {
      this.deps.store.dispatch({ type: 'notice_added', severity: 'warning', title: 'Agents do not run in an untrusted workspace', detail: 'Trust this workspace to start an agent: agents read and write files and run commands.' });
      return;
    }
    if (!cwd) {
      this.deps.store.dispatch({ type: 'notice_added', severity: 'warning', title: 'Open a folder to start an agent', detail: 'Agents work on a workspace folder; none is open.' });
      return;
    }
    this.deps.store.dispatch({ type: 'agent_status', status: { phase: 'starting', agentName: agent.name } });
    let offer = versionToOffer(agent.protocolVersion);
    for (;;) {
      const session = this.launch(agent, cwd, offer);
      try {
        const started = await session.start();
        if (this.session !== session) return;
        this.deps.store.dispatch({
          type: 'session_started',
          sessionId: started.sessionId,
          ...(started.modes ? { modes: started.modes } : {}),
          ...(started.configOptions ? { configOptions: started.configOptions } : {}),
          promptCapabilities: started.promptCapabilities,
        });
        this.deps.store.dispatch({ type: 'agent_status', status: { phase: 'ready', agentName: agent.name, protocolVersion: started.protocolVersion } });
        for (const update of started.earlyUpdates) this.deps.store.dispatch({ type: 'session_update', update });
        return;
      } catch (error) {
        if (this.session !== session) return;
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
        this.deps.store.dispatch({ type: 'agent_status', status: { phase: 'exited', agentName: agent.name, exitCode: exit.code } });
        this.deps.store.dispatch({ type: 'notice_added', severity: 'error', title: `${agent.name} could not start a session`, detail: message, action: 'restart_agent' });
        return;
      }
    }
  }

  private launch(agent: AgentConfig, cwd: string, protocolVersion: ProtocolVersion): AgentSession {
    const session: AgentSession = new AgentSession(agent, {
      cwd,
      protocolVersion,
      roots: () => this.deps.env.roots(),
      log: this.deps.log,
      trace: this.deps.env.trace(),
      clientVersion: this.deps.env.extensionVersion,
      files: this.deps.files,
      permissions: this.deps.permissions,
      hooks: {
        onUpdate: (update) => this.applyUpdate(session, update),
        onPermissionRequest: (requestId, params) => this.showPermissionRequest(session, requestId, params),
        onPermissionSettled: (requestId, outcome) => {
          if (this.session === session) this.deps.store.dispatch({ type: 'permission_resolved', requestId, outcome });
        },
        onExit: (exit) => this.handleExit(session, exit),
        onTerminal: (event) => {
          if (this.session === session) this.deps.store.dispatch(event);
        },
      },
    });
    this.session = session;
    return session;
  }

  private applyUpdate(session: AgentSession, update: SessionUpdate): void {
    if (this.session !== session) return;
    const turn = this.deps.store.state.turn;
    if (update.sessionUpdate === 'state_update' && update.state === 'idle' && turn.phase !== 'idle') this.finishTurn(turn.turnId);
    this.deps.store.dispatch({ type: 'session_update', update });
  }

  private showPermissionRequest(session: AgentSession, requestId: string, params: RequestPermissionParams): ToolCallShown | undefined {
    if (this.session !== session) return undefined;
    this.deps.store.dispatch({
      type: 'permission_requested',
      requestId,
      toolCallId: params.toolCallId,
      toolCall: params.toolCall,
      options: params.options,
    });
    // The dialog names what the card shows: the title and files from earlier updates, not only the request's.
    const position = positionOf(this.deps.store.state, toolKey(params.toolCallId));
    const entry = position === undefined ? undefined : entryAtPosition(this.deps.store.state, position);
    return entry?.kind === 'tool_call' ? { title: entry.title, locations: entry.locations, content: entry.content } : undefined;
  }

  private handleExit(session: AgentSession, exit: AgentExit): void {
    if (this.session !== session) return;
    const name = session.agentName;
    this.clearCancelTimer();
    this.deps.permissions.cancelAll();
    this.deps.store.dispatch({ type: 'agent_status', status: { phase: 'exited', agentName: name, exitCode: exit.code, ...(exit.signal ? { signal: exit.signal } : {}) } });
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
    this.clearCancelTimer();
    // A request the agent left unanswered when its turn ended is moot: no dialog outlives the turn.
    this.deps.permissions.cancelAll();
  }

  private offerToStop(turnId: string): void {
    this.cancelTimer = undefined;
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

  private clearCancelTimer(): void {
    if (this.cancelTimer) clearTimeout(this.cancelTimer);
    this.cancelTimer = undefined;
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
