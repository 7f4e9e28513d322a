/**
 * "Open in Editor": a conversation in an editor-area webview panel, the same chat as the sidebar, so two
 * conversations can sit side by side. Closing a panel ends nothing: the conversation lives on in the Sessions list.
 * Panels come back after a reload (the serializer reopens the conversation each one showed).
 */
import * as vscode from 'vscode';
import type { Conversation } from '../conversations/conversation';
import type { Conversations } from '../conversations/conversations';
import { ChatBinding, type ChatBindingDeps } from './chat-binding';
import type { HostInfo } from '../shared/webview-protocol';
import { visibleText } from '../shared/visible-text';

export class ChatPanels implements vscode.Disposable, vscode.WebviewPanelSerializer {
  static readonly viewType = 'acpClient.chatPanel';
  private readonly panels = new Map<string, { panel: vscode.WebviewPanel; binding: ChatBinding }>();
  private readonly disposables: vscode.Disposable[] = [];
  private hostInfo: HostInfo | undefined;

  constructor(
    private readonly deps: ChatBindingDeps,
    private readonly conversations: Conversations,
  ) {
    const changed = conversations.onDidChange(() => this.retitle());
    this.disposables.push({ dispose: () => changed.dispose() }, vscode.window.registerWebviewPanelSerializer(ChatPanels.viewType, this));
  }

  /** Opens (or reveals) the conversation's panel. */
  open(conversation: Conversation): void {
    const existing = this.panels.get(conversation.id);
    if (existing) return existing.panel.reveal();
    const panel = vscode.window.createWebviewPanel(ChatPanels.viewType, panelTitle(conversation), vscode.ViewColumn.Active, {
      enableScripts: true,
      enableFindWidget: true,
    });
    this.adopt(panel, conversation);
  }

  /** Whether a panel shows this conversation (the sidebar then shows another). */
  has(conversationId: string): boolean {
    return this.panels.has(conversationId);
  }

  setHostInfo(info: HostInfo): void {
    this.hostInfo = info;
    for (const { binding } of this.panels.values()) binding.setHostInfo(info);
  }

  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const id = conversationIdOf(state);
    const conversation = id === undefined ? undefined : await this.conversations.open(id).catch(() => undefined);
    if (!conversation) {
      panel.dispose();
      return;
    }
    this.adopt(panel, conversation);
  }

  dispose(): void {
    for (const { panel } of this.panels.values()) panel.dispose();
    this.disposables.forEach((disposable) => disposable.dispose());
  }

  private adopt(panel: vscode.WebviewPanel, conversation: Conversation): void {
    panel.iconPath = vscode.Uri.joinPath(this.deps.extensionUri, 'media', 'acp.svg');
    const binding = new ChatBinding(this.deps);
    // Bound before the page loads: its snapshot goes with the HTML, as the sidebar's does.
    binding.bind(conversation);
    if (this.hostInfo) binding.setHostInfo(this.hostInfo);
    binding.attach(panel.webview);
    this.panels.set(conversation.id, { panel, binding });
    panel.onDidDispose(() => {
      binding.dispose();
      if (this.panels.get(conversation.id)?.panel === panel) this.panels.delete(conversation.id);
    });
  }

  private retitle(): void {
    for (const [id, { panel }] of this.panels) {
      const conversation = this.conversations.get(id);
      if (conversation) panel.title = panelTitle(conversation);
    }
  }
}

function panelTitle(conversation: Conversation): string {
  // The agent's words, shown with bidi and invisible characters made visible.
  const title = visibleText(conversation.title ?? conversation.agentName ?? 'Chat');
  return title.length > 40 ? `${title.slice(0, 39)}…` : title;
}

/** The webview stores `{ current: conversationId, ... }` (webview/host/ui-store.ts). */
function conversationIdOf(state: unknown): string | undefined {
  if (typeof state !== 'object' || state === null || !('current' in state)) return undefined;
  return typeof state.current === 'string' ? state.current : undefined;
}
