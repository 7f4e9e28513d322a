/**
 * The commands and the chat view's intents, routed to the session controller. Palette, title-bar buttons,
 * Escape and the chat's own buttons all land here, so they behave the same.
 */
import * as vscode from 'vscode';
import type { AgentConfig } from '../agents/agent-config';
import type { InstallActivity } from '../agents/registry/install-activity';
import type { AgentSettings } from '../editor/agent-settings';
import type { Attachment } from '../shared/attachments';
import type { AgentStatus } from '../shared/model';
import { UNTRUSTED_WORKSPACE } from '../shared/wording';
import type { PromptVerdict } from '../session/session-controller';
import type { TranscriptStore } from '../session/transcript-store';
import type { UserIntent } from '../session/intents';
import type { Conversation } from '../conversations/conversation';
import type { Conversations } from '../conversations/conversations';
import { firstPromptText } from '../history/summary-from-state';
import type { ChatViewProvider } from '../views/chat-view-provider';
import type { ChatPanels } from '../views/chat-panels';
import type { ChatSurface } from '../views/chat-binding';
import type { DiffDocuments } from '../editor/diff-documents';
import { TerminalMirrors } from '../editor/terminal-mirrors';
import { shownText } from '../shared/shown-text';
import { visibleText } from '../shared/visible-text';
import { linkDestination } from '../session/link-target';

export class ChatCommands implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private view: ChatViewProvider | undefined;
  private panels: ChatPanels | undefined;
  /** Each loaded conversation's terminal mirrors (made with the conversation, see `conversationExtras`). */
  private readonly terminals = new Map<TranscriptStore, TerminalMirrors>();
  /** `acpClient.hasAgent` as last set (the walkthrough's "Add an agent" step completes on it). */
  private hasAgent: boolean | undefined;
  /** Settles once the conversation shown last is restored (see `openAfter`). */
  private opening: Promise<void> = Promise.resolve();

  constructor(
    private readonly conversations: Conversations,
    private readonly settings: AgentSettings,
    private readonly diffs: DiffDocuments,
    private readonly log: vscode.LogOutputChannel,
    /** The registry install under way: the chat shows it, and its Cancel stops it. */
    private readonly installs?: InstallActivity,
  ) {
    this.disposables.push(
      vscode.commands.registerCommand('acpClient.newSession', () => this.afterOpening(() => this.newSession())),
      vscode.commands.registerCommand('acpClient.cancelTurn', () => this.afterOpening(() => this.cancelTurn())),
      // With a name (e.g. an agent just installed from the registry) it starts that agent without asking.
      vscode.commands.registerCommand('acpClient.selectAgent', (name?: unknown) =>
        this.afterOpening(() => (typeof name === 'string' ? this.startAgentNamed(name) : this.selectAgent())),
      ),
      vscode.commands.registerCommand('acpClient.showLog', () => this.log.show()),
      // The shown conversation's agent; a restart after a crash also brings back the other sessions it left exited.
      vscode.commands.registerCommand('acpClient.restartAgent', () =>
        this.afterOpening(() => {
          const shown = this.conversations.shown;
          return shown ? this.restart(shown) : this.selectAgent();
        }),
      ),
      vscode.commands.registerCommand('acpClient.stopAgent', () => this.afterOpening(() => this.stopAgent())),
      // Not in the palette: what the diff's button in a tool call card runs, also for `command:` links and tests.
      vscode.commands.registerCommand(
        'acpClient.openToolCallDiff',
        (toolCallId: unknown, contentIndex: unknown = 0, fileIndex: unknown = 0) => {
          if (typeof toolCallId !== 'string' || !isIndex(contentIndex) || !isIndex(fileIndex))
            throw new Error('acpClient.openToolCallDiff takes (toolCallId: string, contentIndex?: number, fileIndex?: number)');
          const shown = this.conversations.shown;
          return shown && this.diffs.open(shown.id, toolCallId, contentIndex, fileIndex);
        },
      ),
      settings.onDidChange(() => this.publishHostInfo()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        this.publishHostInfo();
        void this.ensureAgent();
      }),
    );
    const installChanges = installs?.onDidChange(() => this.publishHostInfo());
    if (installChanges) this.disposables.push(installChanges);
  }

  /**
   * The conversation shown last is being restored (history read at activation): a command given meanwhile (a click
   * on New Session or Select Agent in the first seconds) waits for it, rather than acting on no conversation and
   * being undone when the restored one is shown.
   */
  openAfter(restoring: Promise<unknown>): void {
    this.opening = restoring.then(
      () => undefined,
      () => undefined,
    );
  }

  private async afterOpening<T>(command: () => T | Promise<T>): Promise<T> {
    await this.opening;
    return command();
  }

  attachView(view: ChatViewProvider, panels: ChatPanels): void {
    this.view = view;
    this.panels = panels;
    this.publishHostInfo();
  }

  /** Adapters each conversation gets when it is loaded: its commands' terminals mirrored in VS Code. */
  conversationExtras(store: TranscriptStore): readonly vscode.Disposable[] {
    const mirrors = new TerminalMirrors(store);
    this.terminals.set(store, mirrors);
    return [mirrors, { dispose: () => this.terminals.delete(store) }];
  }

  /** Starts the agent of `conversation` (default: the one shown) if none runs yet. */
  async ensureAgent(conversation: Conversation | undefined = this.conversations.shown): Promise<boolean> {
    if (!conversation) return false;
    const controller = conversation.controller;
    if (controller.isRunning) return true;
    if (!vscode.workspace.isTrusted) return false;
    const agent = this.agentFor(conversation);
    if (!agent) return false;
    conversation.agentName = agent.name;
    await controller.start(agent);
    this.publishHostInfo();
    return controller.isRunning;
  }

  handle(intent: UserIntent, conversation: Conversation, surface: ChatSurface): void {
    const controller = conversation.controller;
    switch (intent.type) {
      case 'send_prompt':
        void this.sendPrompt(intent.text, intent.attachments, conversation, surface);
        return;
      case 'cancel_turn':
        controller.cancelTurn();
        return;
      case 'remove_queued_prompt':
        controller.removeQueuedPrompt(intent.id);
        return;
      case 'steer_queued_prompt':
        void controller.steerQueuedPrompt(intent.id);
        return;
      case 'permission_answer':
        controller.answerPermission(intent.requestId, intent.optionId);
        return;
      case 'elicitation_answer':
        void controller.answerElicitation(intent.requestId, intent.action, intent.values).then((result) => {
          // The chat checks the form before posting; a refusal here means the webview and host disagree.
          if (!result.ok) this.log.warn(`Elicitation ${intent.requestId} not answered: ${JSON.stringify(result)}`);
        });
        return;
      case 'open_diff':
        void this.diffs.open(conversation.id, intent.toolCallId, intent.contentIndex, intent.fileIndex);
        return;
      case 'open_location':
        void this.openLocation(intent.path, intent.line);
        return;
      case 'open_terminal':
        if (!this.terminals.get(conversation.store)?.show(intent.terminalId))
          void vscode.window.showWarningMessage('That terminal is no longer available.');
        return;
      case 'cancel_terminal':
        void controller.cancelTerminal(intent.terminalId);
        return;
      case 'restart_agent':
        void this.restart(conversation);
        return;
      case 'stop_agent':
        void controller.stopUnresponsive();
        return;
      case 'retry_start':
        // A fresh start supersedes the one that does not answer (its process is stopped first).
        void this.restart(conversation);
        return;
      case 'sign_in':
        void controller.signIn();
        return;
      case 'new_session':
        void this.newSession();
        return;
      case 'select_agent':
        void this.selectAgent();
        return;
      case 'add_agent':
        void vscode.commands.executeCommand('acpClient.addAgent');
        return;
      case 'cancel_install':
        this.installs?.cancel();
        return;
      case 'configure_agents':
        void vscode.commands.executeCommand('workbench.action.openSettings', 'acpClient.agents');
        return;
      case 'manage_trust':
        void vscode.commands.executeCommand('workbench.trust.manage');
        return;
      case 'show_log':
        this.log.show();
        return;
      case 'set_mode':
        void controller.setMode(intent.modeId);
        return;
      case 'set_config_option':
        void controller.setConfigOption(intent.configId, intent.value);
        return;
    }
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }

  /** A prompt for `conversation` (default: the one shown); a stopped agent is started for it first. */
  async sendPrompt(
    text: string,
    attachments: readonly Attachment[] = [],
    conversation: Conversation | undefined = this.conversations.shown,
    surface: ChatSurface | undefined = this.view,
  ): Promise<PromptVerdict> {
    if (!conversation) return { accepted: false, reason: 'No conversation is open.' };
    const controller = conversation.controller;
    // Not awaited: the agent takes seconds to start, and the prompt waits in the queue (shown) meanwhile.
    if (!controller.isRunning && !controller.isStarting && conversation.store.state.agent.phase !== 'exited')
      void this.ensureAgent(conversation);
    const verdict = await controller.sendPrompt(text, attachments);
    if (!verdict.accepted) surface?.rejectPrompt(verdict.reason);
    return verdict;
  }

  /**
   * One of the agent's own sessions (from `session/list`) in a conversation of its own: loaded with its history
   * replayed into the chat as it streams (or resumed, where the agent offers only that).
   */
  async openAgentSession(agentName: string, sessionId: string, title: string | undefined): Promise<void> {
    const agent = this.settings.agents().find((candidate) => candidate.name === agentName);
    if (!agent) return void vscode.window.showWarningMessage(shownText(`${agentName} is no longer configured.`, 'notification'));
    const conversation = await this.conversations.create(agent.name);
    if (title) conversation.store.dispatch({ type: 'title_set', title });
    await this.view?.reveal();
    await conversation.controller.start(agent, sessionId);
    this.publishHostInfo();
  }

  /** `session/fork` of a conversation's session, opened in a new conversation (the history replayed where it can). */
  async fork(conversation: Conversation): Promise<void> {
    const agentName = conversation.agentName;
    if (!agentName) return;
    const forkedId = await conversation.controller.fork();
    const title = conversation.title ?? firstPromptText(conversation.store.state);
    await this.openAgentSession(agentName, forkedId, `${title ?? 'Conversation'} (fork)`);
  }

  /** The agent a conversation is with: the one it started with while it is still configured, else the default. */
  private agentFor(conversation: Conversation): AgentConfig | undefined {
    const named = conversation.agentName;
    return (named && this.settings.agents().find((agent) => agent.name === named)) || conversation.controller.agentToStart(this.settings);
  }

  private async restart(conversation: Conversation): Promise<void> {
    const agent = this.agentFor(conversation);
    if (!agent) return void this.selectAgent();
    const controller = conversation.controller;
    await controller.start(agent);
    // A failed start says so itself; only a session that really opened is announced (whether the agent continued
    // the earlier session or could not, the controller says).
    if (controller.isRunning) conversation.store.dispatch({ type: 'notice_added', severity: 'info', title: `${agent.name} restarted` });
    this.publishHostInfo();
  }

  /**
   * "New Session": a new conversation beside the others (they go on and stay in the Sessions list). One in which
   * nothing was said yet is shown instead of stacking another blank one (as VS Code's own chat does).
   */
  private async newSession(agent: AgentConfig | undefined = this.defaultAgent()): Promise<void> {
    const blank = this.blankConversation();
    const conversation = blank ?? (await this.conversations.create(agent?.name));
    await this.view?.reveal();
    this.view?.focusComposer();
    if (!agent) return void this.selectAgent();
    if (blank) return this.startInBlank(blank, agent, 'fresh session');
    await this.ensureAgent(conversation);
  }

  /** The conversation shown, when nothing was said in it yet (and it is not busy asking the user something). */
  private blankConversation(): Conversation | undefined {
    const shown = this.conversations.shown;
    return shown && !shown.prompted && !this.panels?.has(shown.id) ? shown : undefined;
  }

  /**
   * `agent` in a conversation in which nothing was said: the same agent goes on (started if it is not running),
   * another one replaces it there (the old session ends) with the header on the new one at once. New Session asks
   * for a `fresh session`: a stopped agent then opens a new one in it, without what the old session's agent said
   * (a greeting, a report), so two sessions never share one transcript.
   */
  private async startInBlank(conversation: Conversation, agent: AgentConfig, fresh?: 'fresh session'): Promise<void> {
    if (!this.canStartAgents()) return;
    const controller = conversation.controller;
    const same = conversation.agentName === agent.name && controller.agentName === agent.name;
    conversation.agentName = agent.name;
    this.publishHostInfo();
    if (same && (controller.isRunning || controller.isStarting)) return;
    if (same && fresh) await controller.newSession(agent);
    else if (same) await controller.start(agent);
    else await controller.switchTo(agent);
    this.publishHostInfo();
  }

  /** Agents start only in a trusted workspace with a folder: otherwise the user is told why, never left guessing. */
  private canStartAgents(): boolean {
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage(`${UNTRUSTED_WORKSPACE.title}. ${UNTRUSTED_WORKSPACE.detail}`);
      return false;
    }
    if (!vscode.workspace.workspaceFolders?.length) {
      void vscode.window.showWarningMessage('Open a folder to start an agent: agents work on a workspace folder.');
      return false;
    }
    return true;
  }

  /** The agent a new conversation starts with: the shown one's, else the default. */
  private defaultAgent(): AgentConfig | undefined {
    const shown = this.conversations.shown;
    return shown ? this.agentFor(shown) : this.settings.defaultAgent();
  }

  private async selectAgent(): Promise<void> {
    const agents = this.settings.agents();
    const shown = this.conversations.shown;
    type Item = vscode.QuickPickItem & { agent?: AgentConfig };
    const items: Item[] = agents.map((agent) => ({
      // Names and commands may come from a workspace's settings or a registry: no icon or link in them is drawn.
      label: shownText(agent.name, 'quick-pick'),
      description: shownText([agent.command, ...agent.args].join(' '), 'quick-pick'),
      ...(shown && agent.name === shown.agentName ? { detail: agentPhaseWords(shown.store.state.agent.phase) } : {}),
      agent,
    }));
    items.push(
      { label: '$(cloud-download) Add Agent from the ACP registry…', description: 'acpClient.addAgent' },
      { label: '$(gear) Configure agents…', description: 'acpClient.agents' },
    );
    const picked = await vscode.window.showQuickPick(items, {
      title: 'ACP: Select Agent',
      placeHolder: agents.length ? 'Agent to chat with' : 'No agents configured yet',
    });
    if (!picked) return;
    if (!picked.agent) {
      if (picked.description === 'acpClient.addAgent') return void (await vscode.commands.executeCommand('acpClient.addAgent'));
      await vscode.commands.executeCommand('workbench.action.openSettings', 'acpClient.agents');
      return;
    }
    await this.switchAgent(picked.agent);
  }

  private async startAgentNamed(name: string): Promise<void> {
    const agent = this.settings.agents().find((candidate) => candidate.name === name);
    if (!agent) return this.selectAgent();
    await this.switchAgent(agent);
  }

  /**
   * Another agent for the chat. Transcripts never mix: a conversation in which nothing was said switches to it in
   * place (its old session ends); otherwise the chat goes back to that agent's latest conversation (its session
   * continued), or opens a new one for it. The agent the chat is already on says so (and starts if it is not running).
   */
  private async switchAgent(agent: AgentConfig): Promise<void> {
    const shown = this.conversations.shown;
    if (shown && shown.agentName === agent.name) {
      await this.view?.reveal();
      this.view?.focusComposer();
      const controller = shown.controller;
      if (controller.isStarting)
        return explain(
          shown,
          `${agent.name} is starting already`,
          'This chat is on it; type your prompt, it goes once the agent is ready.',
        );
      if (controller.isRunning && shown.store.state.agent.phase !== 'exited')
        return explain(
          shown,
          `This chat is on ${agent.name} already`,
          'To start over with it, use ACP: New Session (or ACP: Restart Agent for a fresh process).',
        );
      if (!this.canStartAgents()) return;
      await controller.start(agent);
      this.publishHostInfo();
      return;
    }
    if (shown && !shown.prompted) {
      await this.view?.reveal();
      this.view?.focusComposer();
      return this.startInBlank(shown, agent);
    }
    const latest = this.conversations.list().find((info) => info.agentName === agent.name);
    if (!latest) return this.newSession(agent);
    const conversation = await this.conversations.show(latest.id);
    await this.view?.reveal();
    await this.ensureAgent(conversation);
  }

  /** "ACP: Cancel Turn" from the palette: with no turn to cancel, the chat says so rather than nothing happening. */
  private cancelTurn(): void {
    const shown = this.conversations.shown;
    if (!shown) return;
    const turn = shown.store.state.turn;
    if (turn.phase === 'idle') return explain(shown, 'No turn is running', 'Cancel Turn stops the agent while it works on a prompt.');
    if (turn.phase === 'cancelling')
      return explain(shown, 'Cancelling already', 'The agent was asked to stop; if it does not, ACP: Stop Agent ends it.');
    shown.controller.cancelTurn();
  }

  /** "ACP: Stop Agent": an agent that is not running is said to be so (the next prompt would start it). */
  private async stopAgent(): Promise<void> {
    const shown = this.conversations.shown;
    if (!shown) return;
    const controller = shown.controller;
    if (!controller.isRunning && !controller.isStarting)
      return shown.agentName
        ? explain(shown, `${shown.agentName} is not running`, 'Nothing to stop. Your next prompt starts it again.')
        : explain(shown, 'No agent is running', 'Nothing to stop. ACP: Select Agent… picks one, ACP: Add Agent… installs one.');
    await controller.stop();
  }

  /**
   * A file link the agent wrote: a workspace file opens; one outside every workspace folder (after symlinks) opens
   * only once the user said so in a dialog naming it; one on another machine or with a NUL never opens.
   */
  private async openLocation(path: string, line: number | undefined): Promise<void> {
    const roots = (vscode.workspace.workspaceFolders ?? [])
      .filter((folder) => folder.uri.scheme === 'file')
      .map((folder) => folder.uri.fsPath);
    const destination = await linkDestination(path, roots);
    if (destination.kind === 'refused')
      return void vscode.window.showWarningMessage(shownText(`Not opened: ${path}: ${destination.reason}.`, 'notification'));
    if (destination.kind === 'outside') {
      const open = 'Open';
      const detail = `The agent's link leads to ${visibleText(destination.path)}, which is not in this workspace.`;
      const choice = await vscode.window.showWarningMessage('Open a file outside the workspace?', { modal: true, detail }, open);
      if (choice !== open) return;
    }
    const position = new vscode.Position(Math.max(0, (line ?? 1) - 1), 0);
    try {
      const uri = vscode.Uri.file(destination.path);
      await vscode.window.showTextDocument(uri, { selection: new vscode.Range(position, position), preview: true });
    } catch (error) {
      void vscode.window.showWarningMessage(
        shownText(`Cannot open ${destination.path}: ${error instanceof Error ? error.message : String(error)}`, 'notification'),
      );
    }
  }

  publishHostInfo(): void {
    const agents = this.settings.agents();
    const trusted = vscode.workspace.isTrusted;
    const installing = this.installs?.current;
    const blockedReason = !trusted
      ? `${UNTRUSTED_WORKSPACE.title}. ${UNTRUSTED_WORKSPACE.detail}`
      : agents.length === 0
        ? installing
          ? `${installing.agentName} is being installed; the chat starts it when it is ready.`
          : 'No agent is configured. Run ACP: Add Agent… or add one to the acpClient.agents setting.'
        : undefined;
    const shown = this.conversations.shown;
    const selected = shown ? (shown.agentName ?? this.agentFor(shown)?.name) : this.settings.defaultAgent()?.name;
    const info = {
      agentNames: agents.map((agent) => agent.name),
      ...(installing ? { install: installing } : {}),
      ...(selected ? { selectedAgent: selected } : {}),
      workspaceTrusted: trusted,
      ...(blockedReason ? { blockedReason } : {}),
    };
    this.view?.setHostInfo(info);
    this.panels?.setHostInfo(info);
    if (this.hasAgent !== agents.length > 0) {
      this.hasAgent = agents.length > 0;
      void vscode.commands.executeCommand('setContext', 'acpClient.hasAgent', this.hasAgent);
    }
  }
}

/** A command that cannot do what its name says here: the chat says why, and what to do instead. */
function explain(conversation: Conversation, title: string, detail: string): void {
  conversation.store.dispatch({ type: 'notice_added', severity: 'info', title, detail });
}

const isIndex = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

/** What Select Agent says beside the agent the chat is on: its real state, never a guess. */
function agentPhaseWords(phase: AgentStatus['phase']): string {
  switch (phase) {
    case 'starting':
      return 'starting';
    case 'ready':
      return 'running';
    case 'needs_auth':
      return 'sign-in needed';
    case 'exited':
      return 'exited';
    case 'stopped':
      return 'stopped';
    case 'none':
      return 'not started';
  }
}
