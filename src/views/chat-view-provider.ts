/**
 * The sidebar chat: a chat binding that follows the conversation shown (switching rebinds it), plus what only
 * the sidebar does: "Add to ACP Chat" attachments, focus on show, and the view's first readiness.
 */
import * as vscode from 'vscode';
import type { Attachment } from '../shared/attachments';
import type { HostInfo } from '../shared/webview-protocol';
import type { Conversations } from '../conversations/conversations';
import { ChatBinding, type ChatBindingDeps } from './chat-binding';
import { savedPreviewHtml } from './restored-preview';
import { CHAT_VIEW_ID } from '../shared/view-ids';

export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private readonly binding: ChatBinding;
  private readonly disposables: vscode.Disposable[] = [];
  /** Attachments sent to the draft and not yet confirmed: a view that was hidden or reloading gets them on ready. */
  private readonly pendingAttachments = new Map<number, readonly Attachment[]>();
  private nextBatch = 1;
  /** A command showed the chat while its page was not loaded: the prompt takes the focus once it is. */
  private focusOnReady = false;
  /** Called each time the webview (re)loads and asks for its snapshot. */
  onReady: (() => void) | undefined;
  /** Called once the view has its HTML: what the extension does next no longer holds the chat's first paint. */
  onResolved: (() => void) | undefined;
  private markReady: () => void = () => undefined;
  /** Settles when the chat's script first ran and asked for its snapshot: the view really resolved. */
  readonly firstReady = new Promise<void>((resolve) => {
    this.markReady = resolve;
  });

  constructor(deps: ChatBindingDeps, conversations: Conversations) {
    this.binding = new ChatBinding(deps);
    this.binding.onViewMessage = (message) => {
      if (message.type === 'attachments_taken') this.pendingAttachments.delete(message.batch);
      if (message.type === 'ready') {
        // After the snapshot (the binding sends it): the attachments land in the draft of what is shown.
        queueMicrotask(() => {
          for (const [batch, attachments] of this.pendingAttachments) this.binding.post({ type: 'add_attachments', batch, attachments });
          this.markReady();
          this.onReady?.();
          // The view (re)loaded because it was opened: the prompt takes the keys the user types next. The focus
          // VS Code gave the view went to a frame that had nothing in it yet. Only that focus: a picker or the palette
          // the user opened while the chat loaded (12–15 s here) keeps it, or it would close under the user.
          // A command asked for the prompt (reveal below): it takes the focus unless a picker is open.
          if (this.view?.visible) this.binding.focusComposer(this.focusOnReady ? { unlessPickerOpen: true } : { ifFocused: true });
          this.focusOnReady = false;
        });
      }
      return false;
    };
    const shown = conversations.shown;
    if (shown) this.binding.bind(shown);
    const switched = conversations.onDidSwitch((conversation) => this.binding.bind(conversation));
    this.disposables.push(this.binding, { dispose: () => switched.dispose() });
  }

  async resolveWebviewView(view: vscode.WebviewView, context?: vscode.WebviewViewResolveContext): Promise<void> {
    // A view shown again (or restored) starts with the conversation it showed, put in its HTML.
    this.take(view, undefined, await savedPreviewHtml(context?.state));
  }

  /**
   * Takes a view the early shell resolved while the extension loaded (src/boot/chat-view-shell.ts): its page is
   * loaded already, and `messages` are what that page posted meanwhile.
   */
  adopt(view: vscode.WebviewView, messages: readonly unknown[]): void {
    this.take(view, { messages });
  }

  private take(view: vscode.WebviewView, early?: { readonly messages: readonly unknown[] }, previewHtml = ''): void {
    this.view = view;
    this.binding.attach(view.webview, early, previewHtml);
    this.onResolved?.();
    // Opening the chat puts the cursor in the prompt, if the focus VS Code gave the view is still there when the
    // message lands: it waits for a loading page, and a palette the user opened meanwhile must stay open (CI's
    // matrix pressed F1 right after opening the chat, and the late focus closed the palette under it).
    const visibility = view.onDidChangeVisibility(() => {
      if (view.visible) this.binding.focusComposer({ ifFocused: true });
    });
    const disposed = view.onDidDispose(() => {
      if (this.view !== view) return;
      this.view = undefined;
      this.binding.detach();
      visibility.dispose();
      disposed.dispose();
    });
  }

  /** Handles `raw` exactly as if the sidebar's webview had posted it. */
  receiveFromChat(raw: unknown): void {
    this.binding.receive(raw);
  }

  /** Replaces the host facts the webview shows (agents, trust, why sending is blocked). */
  setHostInfo(info: HostInfo): void {
    this.binding.setHostInfo(info);
  }

  rejectPrompt(reason: string): void {
    this.binding.rejectPrompt(reason);
  }

  /** Puts attachments into the draft, showing the chat; kept until the view confirms it has them. */
  async addAttachments(attachments: readonly Attachment[]): Promise<void> {
    const batch = this.nextBatch++;
    this.pendingAttachments.set(batch, attachments);
    this.binding.post({ type: 'add_attachments', batch, attachments });
    await this.reveal();
  }

  /** The chat is on screen (an agent's question needs no notification then). */
  get visible(): boolean {
    return this.view?.visible ?? false;
  }

  /**
   * Shows the chat with the cursor in its prompt (for commands that show it), without closing a palette or picker
   * the user opened after the command. The focus lands a moment after the command (a round trip to this host and
   * back: 250-550 ms in code-server on a busy 2-core machine), and VS Code's own focus command for a view takes the
   * focus from whatever has it then: a palette opened meanwhile closed under the user (e2e focus). So a chat already
   * on screen takes the focus itself, only where no picker is open; a hidden one is shown without the focus and
   * takes it on the same terms once its page is loaded. Only a view never resolved yet needs VS Code's command
   * (nothing else can show it); its prompt takes the focus if the frame got it.
   */
  async reveal(): Promise<void> {
    if (this.view?.visible) return this.binding.focusComposer({ unlessPickerOpen: true });
    if (this.view) {
      this.focusOnReady = true;
      return this.view.show(true);
    }
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
    this.binding.focusComposer({ ifFocused: true });
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}
