/**
 * The commands and the chat view's intents, routed to the session controller. Palette, title-bar buttons,
 * Escape and the chat's own buttons all land here, so they behave the same.
 */
import * as vscode from 'vscode';
import type { AgentConfig } from '../agents/agent-config';
import type { InstallActivity } from '../agents/registry/install-activity';
import type { AgentSettings } from '../editor/agent-settings';
import type { Attachment } from '../shared/attachments';
import { canStop, inTurnState, isLive, LIFECYCLE_WORDS, lifecycleOf } from '../shared/lifecycle';
import { UNTRUSTED_WORKSPACE } from '../shared/wording';
import type { PromptVerdict } from '../session/session-controller';
import type { TranscriptStore } from '../session/transcript-store';
import type { ChatIntent } from '../shared/chat-intents';
import type { Conversation } from '../conversations/conversation';
import type { Conversations } from '../conversations/conversations';
import { firstPromptText } from '../history/summary-from-state';
import type { ChatViewProvider } from '../views/chat-view-provider';
import type { ChatPanels } from '../views/chat-panels';
import type { ChatSurface } from '../views/chat-binding';
import type { DiffDocuments } from '../editor/diff-documents';
import { agentFileToOpen } from '../editor/agent-file-opening';
import { TerminalMirrors } from '../editor/terminal-mirrors';
import { shownText } from '../shared/shown-text';
import { errorMessage } from '../shared/error-text';

export class ChatCommands implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private view: ChatViewProvider | undefined;
  private panels: ChatPanels | undefined;
  /** Each loaded conversation's terminal mirrors (made with the conversation, see `conversationExtras`). */
  private readonly terminals = new Map<TranscriptStore, TerminalMirrors>();
  /** `acpClient.hasAgent` as last set (the walkthrough's "Add an agent" step completes on it). */
  private hasAgent: boolean | undefined;
  /** Open review comments by conversation, for the chat's bar above the composer (set by `countReviewComments`). */
  private reviewCounts: (() => Readonly<Record<string, number>>) | undefined;
  /** Restores the conversation shown last, if not yet, and settles once it is (see `openAfter`). */
  private opening: () => Promise<void> = () => Promise.resolve();

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
   * The conversation shown last is restored after activation (once the chat has its HTML): a command given before
   * (a click on New Session or Select Agent in the first seconds, or the command that activated the extension) starts
   * it and waits for it, rather than acting on no conversation and being undone when the restored one is shown.
   */
  openAfter(restore: () => Promise<unknown>): void {
    this.opening = async () => {
      await restore().catch(() => undefined);
    };
  }

  /** Settles once the conversation shown last is restored, starting that if nothing has yet. */
  whenRestored(): Promise<void> {
    return this.opening();
  }

  private async afterOpening<T>(command: () => T | Promise<T>): Promise<T> {
    await this.opening();
    return command();
  }

  /** Where the chat's "N review comments" come from (review-commands.ts); call `publishHostInfo` when they change. */
  countReviewComments(counts: () => Readonly<Record<string, number>>): void {
    this.reviewCounts = counts;
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
    if (controller.lifecycle === 'starting') await controller.started();
    if (isLive(controller.lifecycle)) return true;
    if (!vscode.workspace.isTrusted) return false;
    const agent = this.agentFor(conversation);
    if (!agent) return false;
    conversation.agentName = agent.name;
    await controller.start(agent);
    this.publishHostInfo();
    return isLive(controller.lifecycle);
  }

  /** A terminal the agent runs, shown in a VS Code terminal (the chat's Open Terminal). */
  showTerminal(conversation: Conversation, terminalId: string): void {
    if (!this.terminals.get(conversation.store)?.show(terminalId))
      void vscode.window.showWarningMessage('That terminal is no longer available.');
  }

  /** The chat's answer to an agent's question (the form was checked by the chat before it was posted). */
  answerElicitation(conversation: Conversation, answer: Omit<Extract<ChatIntent, { type: 'elicitation_answer' }>, 'type'>): void {
    void conversation.controller.answerElicitation(answer.requestId, answer.action, answer.values).then((result) => {
      // The chat checks the form before posting; a refusal here means the webview and host disagree.
      if (!result.ok) this.log.warn(`Elicitation ${answer.requestId} not answered: ${JSON.stringify(result)}`);
    });
  }

  /** The diff of a file a tool call edits, from its card. */
  openDiff(conversation: Conversation, toolCallId: string, contentIndex: number, fileIndex: number): Promise<void> {
    return this.diffs.open(conversation.id, toolCallId, contentIndex, fileIndex);
  }

  /** Stops the registry install the chat shows. */
  cancelInstall(): void {
    this.installs?.cancel();
  }

  showLog(): void {
    this.log.show();
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
    const lifecycle = controller.lifecycle;
    if (lifecycle === 'no_agent' || lifecycle === 'not_running') void this.ensureAgent(conversation);
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

  async restart(conversation: Conversation): Promise<void> {
    const agent = this.agentFor(conversation);
    if (!agent) return void this.selectAgent();
    const controller = conversation.controller;
    await controller.start(agent);
    // A failed start says so itself; only a session that really opened is announced (whether the agent continued
    // the earlier session or could not, the controller says).
    if (isLive(controller.lifecycle))
      conversation.store.dispatch({ type: 'notice_added', severity: 'info', title: `${agent.name} restarted` });
    this.publishHostInfo();
  }

  /**
   * "New Session": a new conversation beside the others (they go on and stay in the Sessions list). One in which
   * nothing was said yet is shown instead of stacking another blank one (as VS Code's own chat does).
   */
  async newSession(agent: AgentConfig | undefined = this.defaultAgent()): Promise<void> {
    const blank = this.blankConversation();
    const conversation = blank ?? (await this.conversations.create(agent?.name));
    await this.view?.reveal();
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
    if (same && (isLive(controller.lifecycle) || controller.lifecycle === 'starting')) return;
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

  async selectAgent(): Promise<void> {
    const agents = this.settings.agents();
    const shown = this.conversations.shown;
    type Item = vscode.QuickPickItem & { agent?: AgentConfig };
    const items: Item[] = agents.map((agent) => ({
      // Names and commands may come from a workspace's settings or a registry: no icon or link in them is drawn.
      label: shownText(agent.name, 'quick-pick'),
      description: shownText([agent.command, ...agent.args].join(' '), 'quick-pick'),
      ...(shown && agent.name === shown.agentName ? { detail: LIFECYCLE_WORDS[lifecycleOf(shown.store.state)] } : {}),
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
      const lifecycle = shown.controller.lifecycle;
      if (lifecycle === 'starting')
        return explain(
          shown,
          `${agent.name} is starting already`,
          'This chat is on it; type your prompt, it goes once the agent is ready.',
        );
      // Waiting for sign-in, the agent runs but no session opens until the user signs in: say so, not "start over".
      if (lifecycle === 'sign_in_needed')
        return shown.store.dispatch({
          type: 'notice_added',
          severity: 'info',
          title: `${agent.name} needs sign-in`,
          detail: 'This chat is on it already: sign in (the button here, or ACP: Sign In…) to open its session.',
          action: 'sign_in',
        });
      if (isLive(lifecycle))
        return explain(
          shown,
          `This chat is on ${agent.name} already`,
          'To start over with it, use ACP: New Session (or ACP: Restart Agent for a fresh process).',
        );
      if (!this.canStartAgents()) return;
      await shown.controller.start(agent);
      this.publishHostInfo();
      return;
    }
    if (shown && !shown.prompted) {
      await this.view?.reveal();
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
    const lifecycle = shown.controller.lifecycle;
    if (!inTurnState(lifecycle)) return explain(shown, 'No turn is running', 'Cancel Turn stops the agent while it works on a prompt.');
    if (lifecycle === 'cancelling')
      return explain(shown, 'Cancelling already', 'The agent was asked to stop; if it does not, ACP: Stop Agent ends it.');
    shown.controller.cancelTurn();
  }

  /** "ACP: Stop Agent": an agent that is not running is said to be so (the next prompt would start it). */
  private async stopAgent(): Promise<void> {
    const shown = this.conversations.shown;
    if (!shown) return;
    const controller = shown.controller;
    if (!canStop(controller.lifecycle))
      return shown.agentName
        ? explain(shown, `${shown.agentName} is not running`, 'Nothing to stop. Your next prompt starts it again.')
        : explain(shown, 'No agent is running', 'Nothing to stop. ACP: Select Agent… picks one, ACP: Add Agent… installs one.');
    await controller.stop();
  }

  /**
   * A file link the agent wrote: a workspace file opens; one outside every workspace folder (after symlinks) opens
   * only once the user said so in a dialog naming it; one on another machine or with a NUL never opens.
   */
  async openLocation(path: string, line: number | undefined): Promise<void> {
    const uri = await agentFileToOpen(path);
    if (!uri) return;
    const position = new vscode.Position(Math.max(0, (line ?? 1) - 1), 0);
    try {
      await vscode.window.showTextDocument(uri, { selection: new vscode.Range(position, position), preview: true });
    } catch (error) {
      void vscode.window.showWarningMessage(shownText(`Cannot open ${uri.fsPath}: ${errorMessage(error)}`, 'notification'));
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
      ...(this.reviewCounts ? { reviewComments: this.reviewCounts() } : {}),
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
