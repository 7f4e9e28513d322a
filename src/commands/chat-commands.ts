/**
 * The commands and the chat view's intents, routed to the session controller. Palette, title-bar buttons,
 * Escape and the chat's own buttons all land here, so they behave the same.
 */
import * as vscode from 'vscode';
import type { AgentConfig } from '../agents/agent-config';
import type { AgentSettings } from '../editor/agent-settings';
import type { Attachment } from '../shared/attachments';
import type { AgentStatus } from '../shared/model';
import { UNTRUSTED_WORKSPACE } from '../shared/wording';
import type { PromptVerdict, SessionController } from '../session/session-controller';
import type { TranscriptStore } from '../session/transcript-store';
import type { UserIntent } from '../session/intents';
import type { ChatViewProvider } from '../views/chat-view-provider';
import type { DiffDocuments } from '../editor/diff-documents';
import { TerminalMirrors } from '../editor/terminal-mirrors';

export class ChatCommands implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private view: ChatViewProvider | undefined;
  private readonly terminals: TerminalMirrors;

  constructor(
    private readonly controller: SessionController,
    private readonly settings: AgentSettings,
    private readonly store: TranscriptStore,
    private readonly diffs: DiffDocuments,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.terminals = new TerminalMirrors(store);
    this.disposables.push(
      this.terminals,
      vscode.commands.registerCommand('acpClient.newSession', () => this.newSession()),
      vscode.commands.registerCommand('acpClient.cancelTurn', () => this.controller.cancelTurn()),
      // With a name (e.g. an agent just installed from the registry) it starts that agent without asking.
      vscode.commands.registerCommand('acpClient.selectAgent', (name?: unknown) =>
        typeof name === 'string' ? this.startAgentNamed(name) : this.selectAgent(),
      ),
      vscode.commands.registerCommand('acpClient.showLog', () => this.log.show()),
      // Not in the palette: what the diff's button in a tool call card runs, also for `command:` links and tests.
      vscode.commands.registerCommand(
        'acpClient.openToolCallDiff',
        (toolCallId: unknown, contentIndex: unknown = 0, fileIndex: unknown = 0) => {
          if (typeof toolCallId !== 'string' || !isIndex(contentIndex) || !isIndex(fileIndex))
            throw new Error('acpClient.openToolCallDiff takes (toolCallId: string, contentIndex?: number, fileIndex?: number)');
          return this.diffs.open(toolCallId, contentIndex, fileIndex);
        },
      ),
      settings.onDidChange(() => this.publishHostInfo()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        this.publishHostInfo();
        void this.ensureAgent();
      }),
    );
  }

  attachView(view: ChatViewProvider): void {
    this.view = view;
    this.publishHostInfo();
  }

  /** Starts the default agent if none runs yet (the chat became visible, or the user sends a prompt). */
  async ensureAgent(): Promise<boolean> {
    if (this.controller.isRunning) return true;
    if (!vscode.workspace.isTrusted) return false;
    const agent = this.controller.agentToStart(this.settings);
    if (!agent) return false;
    await this.controller.start(agent);
    this.publishHostInfo();
    return this.controller.isRunning;
  }

  handle(intent: UserIntent): void {
    switch (intent.type) {
      case 'send_prompt':
        void this.sendPrompt(intent.text, intent.attachments);
        return;
      case 'cancel_turn':
        this.controller.cancelTurn();
        return;
      case 'permission_answer':
        this.controller.answerPermission(intent.requestId, intent.optionId);
        return;
      case 'elicitation_answer':
        void this.controller.answerElicitation(intent.requestId, intent.action, intent.values).then((result) => {
          // The chat checks the form before posting; a refusal here means the webview and host disagree.
          if (!result.ok) this.log.warn(`Elicitation ${intent.requestId} not answered: ${JSON.stringify(result)}`);
        });
        return;
      case 'open_diff':
        void this.diffs.open(intent.toolCallId, intent.contentIndex, intent.fileIndex);
        return;
      case 'open_location':
        void this.openLocation(intent.path, intent.line);
        return;
      case 'open_terminal':
        if (!this.terminals.show(intent.terminalId)) void vscode.window.showWarningMessage('That terminal is no longer available.');
        return;
      case 'cancel_terminal':
        void this.controller.cancelTerminal(intent.terminalId);
        return;
      case 'restart_agent':
        void this.restart();
        return;
      case 'stop_agent':
        void this.controller.stopUnresponsive();
        return;
      case 'sign_in':
        void this.controller.signIn();
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
        void this.controller.setMode(intent.modeId);
        return;
      case 'set_config_option':
        void this.controller.setConfigOption(intent.configId, intent.value);
        return;
    }
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }

  async sendPrompt(text: string, attachments: readonly Attachment[] = []): Promise<PromptVerdict> {
    if (!this.controller.isRunning && this.store.state.agent.phase !== 'exited') await this.ensureAgent();
    const verdict = await this.controller.sendPrompt(text, attachments);
    if (!verdict.accepted) this.view?.rejectPrompt(verdict.reason);
    return verdict;
  }

  private async restart(): Promise<void> {
    const agent = this.controller.agentToStart(this.settings);
    if (!agent) return void this.selectAgent();
    await this.controller.start(agent);
    // A failed start says so itself; only a session that really opened is announced.
    if (this.controller.isRunning)
      this.store.dispatch({
        type: 'notice_added',
        severity: 'info',
        title: `${agent.name} restarted`,
        detail: 'A new session was opened; the agent does not remember the earlier conversation.',
      });
    this.publishHostInfo();
  }

  private async newSession(): Promise<void> {
    const agent = this.controller.agentToStart(this.settings);
    if (!agent) {
      this.store.dispatch({ type: 'transcript_cleared' });
      return void this.selectAgent();
    }
    await this.controller.newSession(agent);
    this.publishHostInfo();
    this.view?.focusComposer();
  }

  private async selectAgent(): Promise<void> {
    const agents = this.settings.agents();
    type Item = vscode.QuickPickItem & { agent?: AgentConfig };
    const items: Item[] = agents.map((agent) => ({
      label: agent.name,
      description: [agent.command, ...agent.args].join(' '),
      ...(agent.name === this.controller.agentName ? { detail: agentPhaseWords(this.store.state.agent.phase) } : {}),
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
    await this.controller.start(picked.agent);
    this.publishHostInfo();
  }

  private async startAgentNamed(name: string): Promise<void> {
    const agent = this.settings.agents().find((candidate) => candidate.name === name);
    if (!agent) return this.selectAgent();
    await this.controller.start(agent);
    this.publishHostInfo();
  }

  private async openLocation(path: string, line: number | undefined): Promise<void> {
    const position = new vscode.Position(Math.max(0, (line ?? 1) - 1), 0);
    try {
      await vscode.window.showTextDocument(vscode.Uri.file(path), { selection: new vscode.Range(position, position), preview: true });
    } catch (error) {
      void vscode.window.showWarningMessage(`Cannot open ${path}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private publishHostInfo(): void {
    const agents = this.settings.agents();
    const trusted = vscode.workspace.isTrusted;
    const blockedReason = !trusted
      ? `${UNTRUSTED_WORKSPACE.title}. ${UNTRUSTED_WORKSPACE.detail}`
      : agents.length === 0
        ? 'No agent is configured. Run ACP: Add Agent… or add one to the acpClient.agents setting.'
        : undefined;
    const selected = this.controller.agentName ?? this.controller.agentToStart(this.settings)?.name;
    this.view?.setHostInfo({
      agentNames: agents.map((agent) => agent.name),
      ...(selected ? { selectedAgent: selected } : {}),
      workspaceTrusted: trusted,
      ...(blockedReason ? { blockedReason } : {}),
    });
  }
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
      return 'stopped';
    case 'none':
      return 'not started';
  }
}
