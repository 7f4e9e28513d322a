/**
 * Review comments on the agent's changes through VS Code's Comments API: the `+` in the gutter of a file an agent
 * changed (the agent's side of the diff editor, the multi-file review, or the file itself), threads, replies, edit
 * and delete. What the threads say lives in ReviewThreads (session layer); this draws them and keeps each on its
 * lines as the file changes (comment-anchor.ts).
 */
import * as vscode from 'vscode';
import { anchorAt, placeAnchor } from '../session/review/comment-anchor';
import type { ReviewThread, ReviewThreads } from '../session/review/review-threads';

export const REVIEW_CONTROLLER_ID = 'acpClient.review';
const RE_PLACE_DELAY_MS = 300;

/** One comment as VS Code shows it; the ids say which stored comment it is. */
export class ReviewCommentView implements vscode.Comment {
  mode = vscode.CommentMode.Preview;
  readonly author = { name: 'You' };
  contextValue = 'acpReviewComment';
  constructor(
    readonly threadId: string,
    readonly commentId: string,
    public body: string | vscode.MarkdownString,
  ) {}
}

/** Which conversation a comment on `path` belongs to (the one on screen if it changed the file), if any. */
export type ConversationOfFile = (path: string) => Promise<string | undefined>;

export class ReviewCommentController implements vscode.Disposable {
  private readonly controller = vscode.comments.createCommentController(REVIEW_CONTROLLER_ID, 'Review for the agent');
  /** Stored thread id -> the thread VS Code shows. */
  private readonly shown = new Map<string, vscode.CommentThread>();
  private readonly ids = new WeakMap<vscode.CommentThread, string>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly pending = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(
    private readonly threads: ReviewThreads,
    private readonly conversationOf: ConversationOfFile,
  ) {
    this.controller.options = { prompt: 'Comment for the agent', placeHolder: 'What should the agent change here?' };
    this.controller.commentingRangeProvider = {
      provideCommentingRanges: async (document) => {
        if (document.uri.scheme !== 'file' || (await this.conversationOf(document.uri.fsPath)) === undefined) return [];
        return [new vscode.Range(0, 0, Math.max(0, document.lineCount - 1), 0)];
      },
    };
    this.disposables.push(
      this.controller,
      threads.onDidChange(() => this.render()),
      vscode.workspace.onDidChangeTextDocument((event) => this.rePlaceSoon(event.document)),
      vscode.workspace.onDidOpenTextDocument((document) => this.rePlaceSoon(document)),
    );
    this.render();
    // Comments kept from before a reload: their files may have changed meanwhile.
    for (const path of new Set(threads.all().map((t) => t.path)))
      void vscode.workspace.openTextDocument(vscode.Uri.file(path)).then(
        (document) => this.rePlace(document),
        () => undefined,
      );
  }

  /** "Add Comment" / "Reply" in a thread's widget: a new thread is stored, an existing one gets a reply. */
  async submit(reply: vscode.CommentReply): Promise<ReviewThread | undefined> {
    const existing = this.ids.get(reply.thread);
    if (existing !== undefined) {
      await this.threads.reply(existing, reply.text);
      return this.threads.get(existing);
    }
    const range = reply.thread.range ?? new vscode.Range(0, 0, 0, 0);
    const created = await this.add(reply.thread.uri, range, reply.text);
    // The widget's own thread is replaced by the stored one (drawn by render).
    if (created) reply.thread.dispose();
    return created;
  }

  /** A comment on lines of `uri` (the commands' and tests' way in; the gutter's goes through `submit`). */
  async add(uri: vscode.Uri, range: vscode.Range, text: string): Promise<ReviewThread | undefined> {
    if (text.trim() === '') return undefined;
    const conversationId = uri.scheme === 'file' ? await this.conversationOf(uri.fsPath) : undefined;
    if (conversationId === undefined) {
      void vscode.window.showWarningMessage('Review comments go on files an agent changed in a conversation here.');
      return undefined;
    }
    const document = await vscode.workspace.openTextDocument(uri);
    const anchor = anchorAt(document.getText(), { startLine: range.start.line + 1, endLine: range.end.line + 1 });
    return this.threads.create(conversationId, uri.fsPath, anchor, text);
  }

  startEdit(comment: ReviewCommentView): void {
    comment.mode = vscode.CommentMode.Editing;
    this.redraw(comment.threadId);
  }

  async saveEdit(comment: ReviewCommentView): Promise<void> {
    comment.mode = vscode.CommentMode.Preview;
    const body = typeof comment.body === 'string' ? comment.body : comment.body.value;
    await this.threads.edit(comment.threadId, comment.commentId, body);
  }

  cancelEdit(comment: ReviewCommentView): void {
    comment.mode = vscode.CommentMode.Preview;
    const stored = this.threads.get(comment.threadId)?.comments.find((c) => c.id === comment.commentId);
    if (stored) comment.body = stored.body;
    this.redraw(comment.threadId);
  }

  async deleteComment(comment: ReviewCommentView): Promise<void> {
    await this.threads.deleteComment(comment.threadId, comment.commentId);
  }

  async deleteThread(thread: vscode.CommentThread): Promise<void> {
    const id = this.ids.get(thread);
    if (id === undefined) return thread.dispose();
    await this.threads.deleteThread(id);
  }

  dispose(): void {
    for (const timer of this.pending.values()) clearTimeout(timer);
    for (const thread of this.shown.values()) thread.dispose();
    this.disposables.forEach((d) => d.dispose());
  }

  /** The stored threads, drawn: new ones created, gone ones disposed, the rest brought up to date. */
  private render(): void {
    const stored = new Map(this.threads.all().map((t) => [t.id, t]));
    for (const [id, thread] of this.shown)
      if (!stored.has(id)) {
        thread.dispose();
        this.shown.delete(id);
      }
    for (const thread of stored.values()) this.draw(thread);
  }

  private redraw(threadId: string): void {
    const thread = this.threads.get(threadId);
    if (thread) this.draw(thread);
  }

  private draw(stored: ReviewThread): void {
    const range = new vscode.Range(stored.anchor.startLine - 1, 0, stored.anchor.endLine - 1, 0);
    let thread = this.shown.get(stored.id);
    if (!thread) {
      thread = this.controller.createCommentThread(vscode.Uri.file(stored.path), range, []);
      this.shown.set(stored.id, thread);
      this.ids.set(thread, stored.id);
    } else if (!thread.range?.isEqual(range)) thread.range = range;
    const editing = new Map(
      thread.comments
        .filter((c): c is ReviewCommentView => c instanceof ReviewCommentView && c.mode === vscode.CommentMode.Editing)
        .map((c) => [c.commentId, c]),
    );
    // A comment being edited keeps its widget (and what is typed in it); the others show what is stored.
    thread.comments = stored.comments.map((c) => editing.get(c.id) ?? new ReviewCommentView(stored.id, c.id, c.body));
    thread.contextValue = stored.status === 'sent' ? 'acpReviewSent' : 'acpReviewOpen';
    thread.state = stored.status === 'sent' ? vscode.CommentThreadState.Resolved : vscode.CommentThreadState.Unresolved;
    thread.label =
      (stored.status === 'sent' ? 'Sent to the agent' : 'For the agent') +
      (stored.outdated ? ' · outdated: the lines it points at changed' : '');
    thread.canReply = true;
    thread.collapsibleState =
      stored.status === 'sent' ? vscode.CommentThreadCollapsibleState.Collapsed : vscode.CommentThreadCollapsibleState.Expanded;
  }

  private rePlaceSoon(document: vscode.TextDocument): void {
    if (document.uri.scheme !== 'file') return;
    const path = document.uri.fsPath;
    if (!this.threads.all().some((t) => t.path === path)) return;
    const timer = this.pending.get(path);
    if (timer !== undefined) clearTimeout(timer);
    this.pending.set(
      path,
      setTimeout(() => {
        this.pending.delete(path);
        void this.rePlace(document);
      }, RE_PLACE_DELAY_MS),
    );
  }

  /** Each thread on the document back on its lines, or flagged outdated where they are gone. */
  private async rePlace(document: vscode.TextDocument): Promise<void> {
    const text = document.getText();
    for (const thread of this.threads.all().filter((t) => t.path === document.uri.fsPath)) {
      const placement = placeAnchor(text, thread.anchor);
      if (placement.kind === 'outdated') await this.threads.placed(thread.id, thread.anchor, true);
      else if (placement.kind === 'same') await this.threads.placed(thread.id, thread.anchor, false);
      else await this.threads.placed(thread.id, { ...thread.anchor, ...placement.range }, false);
    }
  }
}
