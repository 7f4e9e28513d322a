/**
 * The sidebar chat: resolves the webview, serves its HTML under a strict CSP, syncs it from the transcript
 * store (snapshot on `ready`/`resync`, then numbered actions) and hands validated user intents on.
 */
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import type { TranscriptStore } from '../session/transcript-store';
import type { Attachment } from '../shared/attachments';
import type { FileMatch, HostInfo, HostToWebviewMessage } from '../shared/webview-protocol';
import type { UserIntent } from '../session/intents';
import { ActionPoster } from './action-poster';
import { chatHtml } from './chat-html';
import { parseWebviewMessage } from './webview-messages';

export type IntentHandler = (intent: UserIntent) => void;
export type FileSearch = (query: string) => Promise<readonly FileMatch[]>;

export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  static readonly viewId = 'acpClient.chat';
  private view: vscode.WebviewView | undefined;
  private readonly poster: ActionPoster;
  private readonly disposables: vscode.Disposable[] = [];
  private hostInfo: HostInfo | undefined;
  /** Attachments sent to the draft and not yet confirmed: a view that was hidden or reloading gets them on ready. */
  private readonly pendingAttachments = new Map<number, readonly Attachment[]>();
  private nextBatch = 1;
  /** Called each time the webview (re)loads and asks for its snapshot. */
  onReady: (() => void) | undefined;
  private markReady: () => void = () => undefined;
  /** Settles when the chat's script first ran and asked for its snapshot: the view really resolved. */
  readonly firstReady = new Promise<void>((resolve) => {
    this.markReady = resolve;
  });

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly store: TranscriptStore,
    private readonly onIntent: IntentHandler,
    private readonly findFiles: FileSearch,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.poster = new ActionPoster((message) => this.post(message));
    const subscription = store.subscribe((action) => this.poster.push(action));
    this.disposables.push({ dispose: () => subscription.dispose() }, { dispose: () => this.poster.dispose() });
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const distUri = vscode.Uri.joinPath(this.extensionUri, 'dist');
    const mediaUri = vscode.Uri.joinPath(this.extensionUri, 'media');
    view.webview.options = { enableScripts: true, localResourceRoots: [distUri, mediaUri] };
    view.webview.html = chatHtml({
      cspSource: view.webview.cspSource,
      nonce: randomBytes(16).toString('base64'),
      scriptUri: view.webview.asWebviewUri(vscode.Uri.joinPath(distUri, 'webview.js')).toString(),
      styleUri: view.webview.asWebviewUri(vscode.Uri.joinPath(mediaUri, 'chat.css')).toString(),
      codiconsUri: view.webview.asWebviewUri(vscode.Uri.joinPath(distUri, 'codicons', 'codicon.css')).toString(),
    });
    const messages = view.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw));
    // Opening the chat puts the cursor in the prompt.
    const shown = view.onDidChangeVisibility(() => {
      if (view.visible) this.focusComposer();
    });
    const disposed = view.onDidDispose(() => {
      if (this.view === view) this.view = undefined;
      messages.dispose();
      shown.dispose();
      disposed.dispose();
    });
  }

  /** Replaces the host facts the webview shows (agents, trust, why sending is blocked). */
  setHostInfo(info: HostInfo): void {
    this.hostInfo = info;
    this.post({ type: 'host_info', info });
  }

  focusComposer(): void {
    this.post({ type: 'focus_composer' });
  }

  rejectPrompt(reason: string): void {
    this.post({ type: 'prompt_rejected', reason });
  }

  /** Puts attachments into the draft, showing the chat; kept until the view confirms it has them. */
  async addAttachments(attachments: readonly Attachment[]): Promise<void> {
    const batch = this.nextBatch++;
    this.pendingAttachments.set(batch, attachments);
    this.post({ type: 'add_attachments', batch, attachments });
    await this.reveal();
  }

  /** The chat is on screen (an agent's question needs no notification then). */
  get visible(): boolean {
    return this.view?.visible ?? false;
  }

  /** Reveals the view (used by commands that need the chat visible). */
  async reveal(): Promise<void> {
    await vscode.commands.executeCommand(`${ChatViewProvider.viewId}.focus`);
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }

  private receive(raw: unknown): void {
    const message = parseWebviewMessage(raw);
    if ('error' in message) {
      this.log.warn(`Ignored a malformed message from the chat view: ${message.error}`);
      return;
    }
    switch (message.type) {
      case 'ready':
      case 'resync':
        this.poster.snapshot(this.store.state);
        if (this.hostInfo) this.post({ type: 'host_info', info: this.hostInfo });
        if (message.type === 'ready') {
          for (const [batch, attachments] of this.pendingAttachments) this.post({ type: 'add_attachments', batch, attachments });
          this.markReady();
          this.onReady?.();
        }
        return;
      case 'attachments_taken':
        this.pendingAttachments.delete(message.batch);
        return;
      case 'find_files':
        void this.answerFileSearch(message.requestId, message.query);
        return;
      default:
        this.onIntent(message);
    }
  }

  private async answerFileSearch(requestId: number, query: string): Promise<void> {
    let matches: readonly FileMatch[] = [];
    try {
      matches = await this.findFiles(query);
    } catch (error) {
      this.log.warn(`Listing workspace files for @ completion failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    this.post({ type: 'file_matches', requestId, matches });
  }

  private post(message: HostToWebviewMessage): void {
    // A hidden view is rebuilt on show and asks for a snapshot, so a message it misses loses nothing.
    void this.view?.webview.postMessage(message).then(undefined, () => undefined);
  }
}
