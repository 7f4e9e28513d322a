/**
 * One chat webview bound to one conversation at a time: serves the HTML, posts the conversation's snapshot and
 * then its actions, and hands what the webview asks for to the host, tagged with the conversation it was shown.
 * The sidebar rebinds it whenever another conversation is shown; an editor panel keeps its one.
 */
import type * as vscode from 'vscode';
import type { Conversation } from '../conversations/conversation';
import type { ChatIntent } from '../shared/chat-intents';
import type { FileMatch, HostInfo, HostToWebviewMessage, WebviewToHostMessage } from '../shared/webview-protocol';
import { ActionPoster, type FlowCounts } from './action-poster';
import { loadChatPage } from './chat-page';
import { parseWebviewMessage } from './webview-messages';
import { errorMessage } from '../shared/error-text';

/** The chat an intent came from: a refusal is shown where the user acted. */
export interface ChatSurface {
  rejectPrompt(reason: string): void;
}

export type IntentHandler = (intent: ChatIntent, conversation: Conversation, surface: ChatSurface) => void;
export type FileSearch = (query: string) => Promise<readonly FileMatch[]>;

export interface ChatBindingDeps {
  readonly extensionUri: vscode.Uri;
  readonly onIntent: IntentHandler;
  readonly findFiles: FileSearch;
  readonly setDraft: (conversationId: string, text: string) => void;
  readonly log: vscode.LogOutputChannel;
}

export class ChatBinding implements vscode.Disposable, ChatSurface {
  private webview: vscode.Webview | undefined;
  private conversation: Conversation | undefined;
  private poster: ActionPoster | undefined;
  private subscription: { dispose(): void } | undefined;
  private hostInfo: HostInfo | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  /** The webview's own messages that are not intents (sync, attachments) are the owner's to handle first. */
  onViewMessage: ((message: WebviewToHostMessage) => boolean) | undefined;
  /** Called each time the webview (re)loads and asks for its snapshot. */
  onReady: (() => void) | undefined;

  constructor(private readonly deps: ChatBindingDeps) {}

  get shown(): Conversation | undefined {
    return this.conversation;
  }

  /**
   * Loads the chat into `webview` (a view resolving, a panel opening or being restored). `early`: the page was
   * loaded already (by the shell that stands in while the extension loads, src/boot/chat-view-shell.ts), and these
   * are the messages it posted meanwhile, handled now in order. `previewHtml`: the conversation the page last showed
   * (src/views/chat-page.ts savedPreviewHtml), on screen until the page has drawn the snapshot.
   */
  attach(webview: vscode.Webview, early?: { readonly messages: readonly unknown[] }, previewHtml = ''): void {
    this.detach();
    this.webview = webview;
    if (!early) loadChatPage(webview, this.deps.extensionUri, previewHtml);
    this.disposables.push(webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)));
    // The snapshot goes with the HTML, not in answer to the page's `ready` (issue 31): VS Code keeps it until the page
    // has loaded, while `ready` and its answer each wait behind the workbench's busy thread (after a Reload Window
    // `ready` took 300-460 ms to reach the host).
    this.sendSnapshot();
    for (const message of early?.messages ?? []) this.receive(message);
  }

  /** The webview is gone (view disposed, panel closed); the conversation goes on. */
  detach(): void {
    this.disposables.splice(0).forEach((disposable) => disposable.dispose());
    this.webview = undefined;
  }

  /** Shows `conversation`: its snapshot now, its actions from here on. */
  bind(conversation: Conversation): void {
    if (this.conversation === conversation) return;
    this.subscription?.dispose();
    this.poster?.dispose();
    this.conversation = conversation;
    const poster = new ActionPoster((message) => this.post(message));
    this.poster = poster;
    const logged = { ...poster.counts };
    this.subscription = conversation.store.subscribe((action) => {
      poster.push(action);
      if (action.type === 'turn_ended') this.logFlow(poster, logged);
    });
    this.sendSnapshot();
  }

  setHostInfo(info: HostInfo): void {
    this.hostInfo = info;
    this.post({ type: 'host_info', info });
  }

  rejectPrompt(reason: string): void {
    this.post({ type: 'prompt_rejected', reason });
  }

  /**
   * `ifFocused`: only if the focus is still in the chat when the message lands (it may land seconds later).
   * `unlessPickerOpen`: not if the user opened the palette, a picker, a menu or a dialog meanwhile.
   */
  focusComposer(options: { ifFocused?: true; unlessPickerOpen?: true } = {}): void {
    this.post({ type: 'focus_composer', ...options });
  }

  /** Settles once VS Code has handed the message to the webview (or could not): the poster paces chunks by it. */
  post(message: HostToWebviewMessage): PromiseLike<unknown> | undefined {
    // A hidden view is rebuilt on show and asks for a snapshot, so a message it misses loses nothing.
    return this.webview?.postMessage(message).then(undefined, () => undefined);
  }

  dispose(): void {
    this.detach();
    this.subscription?.dispose();
    this.poster?.dispose();
  }

  /**
   * One line per turn that posted something: how its posts were paced. Posts given up mean VS Code did not settle
   * a `postMessage` within the poster's timeout (the stream bench reads this line).
   */
  private logFlow(poster: ActionPoster, logged: FlowCounts): void {
    const now = poster.counts;
    const posted = now.posted - logged.posted;
    if (posted === 0) return;
    this.deps.log.info(
      `Chat view flow control this turn: ${posted} posts, ${now.delivered - logged.delivered} delivered, ` +
        `${now.timedOut - logged.timedOut} given up undelivered`,
    );
    Object.assign(logged, now);
  }

  private sendSnapshot(): void {
    const conversation = this.conversation;
    if (!conversation || !this.poster || !this.webview) return;
    // The host's facts first: the chat draws its first frame (whether the prompt can send) knowing them.
    if (this.hostInfo) this.post({ type: 'host_info', info: this.hostInfo });
    this.poster.snapshot(conversation.store.state, { conversationId: conversation.id, draft: conversation.draft });
  }

  /** A message from the webview (or one handed in as if from it, see `AcpClientApi.postFromChat`): checked, then routed. */
  receive(raw: unknown): void {
    const message = parseWebviewMessage(raw);
    if ('error' in message) {
      this.deps.log.warn(`Ignored a malformed message from the chat view: ${message.error}`);
      return;
    }
    if (this.onViewMessage?.(message)) return;
    switch (message.type) {
      case 'ready':
      case 'resync':
        // Answered even when the snapshot went with the HTML: what is posted while a page loads can be lost (a page
        // reloaded after a Reload Window waited for its conversation until it asked again, bench open), and the
        // page drops a second snapshot identical to the one it has (webview/host/snapshot-assembler.ts).
        this.sendSnapshot();
        if (message.type === 'ready') this.onReady?.();
        return;
      case 'attachments_taken':
        return;
      case 'draft_changed':
        this.deps.setDraft(message.conversationId, message.text);
        return;
      case 'find_files':
        void this.answerFileSearch(message.requestId, message.query);
        return;
      default:
        if (this.conversation) this.deps.onIntent(message, this.conversation, this);
    }
  }

  private async answerFileSearch(requestId: number, query: string): Promise<void> {
    let matches: readonly FileMatch[] = [];
    try {
      matches = await this.deps.findFiles(query);
    } catch (error) {
      this.deps.log.warn(`Listing workspace files for @ completion failed: ${errorMessage(error)}`);
    }
    this.post({ type: 'file_matches', requestId, matches });
  }
}
