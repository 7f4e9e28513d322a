/**
 * The chat view's provider while the rest of the extension loads (issue 31). VS Code asks for the view's HTML only
 * once `activate` has returned, and compiling and running the whole extension first held the chat's first paint
 * (after a Reload Window or a first click, while the browser and the workbench still start, 0.1-0.5 s here). So
 * the small first bundle registers this: it loads the chat's page at once and keeps what the page posts, says when
 * the page first posts (the rest loads then: src/extension.ts), and hands the view over when the chat
 * (src/views/chat-view-provider.ts) exists; from then on it only passes views on.
 */
import * as vscode from 'vscode';
import { loadChatPage } from '../views/chat-page';
import { restoredPreview, type PreviewSource } from '../views/restored-preview';

/** What the shell hands views to: the chat view provider, once loaded. */
export interface ChatViewTarget {
  resolveWebviewView(view: vscode.WebviewView, context?: vscode.WebviewViewResolveContext): void | Promise<void>;
  adopt(view: vscode.WebviewView, messages: readonly unknown[]): void;
}

interface EarlyView {
  readonly view: vscode.WebviewView;
  readonly messages: unknown[];
  readonly listeners: vscode.Disposable;
}

export class ChatViewShell implements vscode.WebviewViewProvider {
  private target: ChatViewTarget | undefined;
  private early: EarlyView | undefined;
  /** A view got its page before the extension had loaded: its page is on its way. */
  onEarlyView: (() => void) | undefined;
  /**
   * The first page this shell loaded: how long its preview took (read, and drawn as HTML) and then the page's HTML,
   * for the log once it exists (issue 31: what of a restored chat's start-up is ours).
   */
  firstPage:
    | {
        /** From this shell's making (the first bundle's activation) to VS Code asking for the view. */
        readonly askedMs: number;
        readonly previewMs: number;
        readonly pageMs: number;
        readonly previewChars: number;
        readonly from: PreviewSource;
      }
    | undefined;
  private readonly made = performance.now();
  /** That page said its first word (it runs, its prompt is on screen): time to load the rest. */
  onEarlyViewSpoke: (() => void) | undefined;

  /** `storageDir`: the extension's workspace storage folder, where the host keeps the chat's preview (views/preview-file.ts). */
  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly storageDir?: string,
  ) {}

  async resolveWebviewView(view: vscode.WebviewView, context?: vscode.WebviewViewResolveContext): Promise<void> {
    if (this.target) return this.target.resolveWebviewView(view, context);
    const asked = performance.now();
    // The conversation the page showed, put in its HTML (after Reload Window). Its part loads in a microtask.
    const { html: previewHtml, from } = await restoredPreview(context?.state, this.storageDir);
    const previewed = performance.now();
    // The chat may have been handed over meanwhile (another chain of promises loaded the rest).
    const target = this.handedTo();
    if (target) return target.resolveWebviewView(view, context);
    this.early?.listeners.dispose();
    loadChatPage(view.webview, this.extensionUri, previewHtml);
    this.firstPage ??= {
      askedMs: asked - this.made,
      previewMs: previewed - asked,
      pageMs: performance.now() - previewed,
      previewChars: previewHtml.length,
      from,
    };
    const messages: unknown[] = [];
    const received = view.webview.onDidReceiveMessage((message: unknown) => {
      if (messages.push(message) === 1) this.onEarlyViewSpoke?.();
    });
    const disposed = view.onDidDispose(() => {
      if (this.early?.view !== view) return;
      this.early.listeners.dispose();
      this.early = undefined;
    });
    this.early = { view, messages, listeners: vscode.Disposable.from(received, disposed) };
    this.onEarlyView?.();
  }

  private handedTo(): ChatViewTarget | undefined {
    return this.target;
  }

  /** The chat is loaded: it takes the view shown meanwhile, if any, and every view from now on. */
  handOver(target: ChatViewTarget): void {
    this.target = target;
    const early = this.early;
    this.early = undefined;
    if (!early) return;
    early.listeners.dispose();
    target.adopt(early.view, early.messages);
  }
}
