/**
 * The review loop's commands: comments on the agent's diff (the Comments widget's buttons), sending them to the
 * agent as the next prompt, and a conversation's changes reviewed as one set (Keep/Undo per file and for all, with
 * the conflict rules of per-turn Undo: a file the user edited since is never overwritten without asking).
 */
import * as vscode from 'vscode';
import type { ChangeTracking, TrackedConversation } from '../editor/change-tracking';
import { ReviewCommentView, type ReviewCommentController } from '../editor/review-comment-controller';
import type { ApplyOutcome } from '../changes/plan-application';
import type { Conversation } from '../conversations/conversation';
import type { Conversations } from '../conversations/conversations';
import type { PromptVerdict } from '../session/session-controller';
import { conversationChanges, listedChanges, pathsOfEntry } from '../changes/conversation-changes';
import { reviewPrompt } from '../session/review/review-prompt';
import type { ReviewThreads } from '../session/review/review-threads';
import type { Attachment } from '../shared/attachments';
import { shownText } from '../shared/shown-text';
import type { ChatSurface } from '../views/chat-binding';
import { shownPath, warnSkipped } from './shown-files';

/** What sending needs from the chat: the same path as a typed prompt (queueing, starting the agent, rejection). */
export interface PromptSender {
  sendPrompt(text: string, attachments: readonly Attachment[], conversation: Conversation, surface?: ChatSurface): Promise<PromptVerdict>;
}

const files = (n: number): string => `${n} file${n === 1 ? '' : 's'}`;

export class ReviewCommands implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[];

  constructor(
    private readonly threads: ReviewThreads,
    private readonly comments: ReviewCommentController,
    private readonly changes: ChangeTracking,
    private readonly conversations: Conversations,
    private readonly chat: PromptSender,
    /** Parts made for these commands, disposed with them. */
    owned: readonly vscode.Disposable[] = [],
  ) {
    const comment = (handler: (c: ReviewCommentView) => unknown) => (c: unknown) =>
      c instanceof ReviewCommentView ? handler(c) : undefined;
    this.disposables = [
      // The Comments widget's buttons (package.json: comments/* menus).
      vscode.commands.registerCommand('acpClient.reviewComment.submit', (reply: vscode.CommentReply) => this.comments.submit(reply)),
      vscode.commands.registerCommand(
        'acpClient.reviewComment.edit',
        comment((c) => this.comments.startEdit(c)),
      ),
      vscode.commands.registerCommand(
        'acpClient.reviewComment.save',
        comment((c) => this.comments.saveEdit(c)),
      ),
      vscode.commands.registerCommand(
        'acpClient.reviewComment.cancel',
        comment((c) => this.comments.cancelEdit(c)),
      ),
      vscode.commands.registerCommand(
        'acpClient.reviewComment.delete',
        comment((c) => this.comments.deleteComment(c)),
      ),
      vscode.commands.registerCommand('acpClient.reviewComment.deleteThread', (thread: vscode.CommentThread) =>
        this.comments.deleteThread(thread),
      ),
      // A comment on the active editor's selection (also for keybindings and tests): the gutter's `+` without the mouse.
      vscode.commands.registerCommand('acpClient.addReviewComment', async (text?: unknown) => {
        const editor = vscode.window.activeTextEditor;
        if (!editor) return void vscode.window.showWarningMessage('Open a file an agent changed, then select the lines to comment on.');
        const body =
          typeof text === 'string'
            ? text
            : await vscode.window.showInputBox({ title: 'Comment for the agent', prompt: 'What should the agent change here?' });
        return body === undefined ? undefined : this.comments.add(editor.document.uri, editor.selection, body);
      }),
      vscode.commands.registerCommand('acpClient.sendReviewComments', async (typed?: unknown) => {
        const conversation = this.conversations.shown;
        if (!conversation) return void vscode.window.showWarningMessage('No conversation is open.');
        if (this.threads.open(conversation.id).length === 0)
          return void vscode.window.showInformationMessage(
            'No review comments to send: add them with the + beside a line of the agent’s diff.',
          );
        const extra =
          typeof typed === 'string'
            ? typed
            : await vscode.window.showInputBox({ title: 'Send review comments to the agent', prompt: 'Anything to add? (optional)' });
        return extra === undefined ? undefined : this.send(conversation, extra, []);
      }),
      vscode.commands.registerCommand('acpClient.reviewConversation', () => this.reviewConversation()),
      // Not in the palette: the conversation review's choices, also for keybindings and tests.
      vscode.commands.registerCommand('acpClient.keepConversationChanges', (file?: unknown) =>
        this.keepConversation(typeof file === 'string' ? file : undefined),
      ),
      vscode.commands.registerCommand('acpClient.undoConversationChanges', (file?: unknown) =>
        this.undoConversation(typeof file === 'string' ? file : undefined),
      ),
      ...owned,
    ];
  }

  /** The chat's "Send to agent" above the composer (with what is typed there); false for any other intent. */
  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }

  /** One prompt quoting every open comment of the conversation; once the agent has it, those threads are resolved. */
  async send(conversation: Conversation, typed: string, attachments: readonly Attachment[], surface?: ChatSurface): Promise<PromptVerdict> {
    const open = this.threads.open(conversation.id);
    if (open.length === 0) {
      const verdict = { accepted: false as const, reason: 'There are no review comments to send.' };
      surface?.rejectPrompt(verdict.reason);
      return verdict;
    }
    const prompt = reviewPrompt(open, typed, shownPath);
    const verdict = await this.chat.sendPrompt(prompt.text, [...attachments, ...prompt.attachments], conversation, surface);
    if (verdict.accepted) await this.threads.markSent(open.map((t) => t.id));
    return verdict;
  }

  private shownTracked(): TrackedConversation | undefined {
    const tracked = this.changes.current;
    if (!tracked) void vscode.window.showWarningMessage('No conversation is tracking changes.');
    return tracked;
  }

  /** Everything the conversation changed, from before its first turn to now, in the multi-file diff editor. */
  async reviewConversation(): Promise<number> {
    const tracked = this.shownTracked();
    if (!tracked) return 0;
    const { records } = await tracked.tracker.history();
    const changed = conversationChanges(records);
    if (changed.length === 0) {
      void vscode.window.showInformationMessage('This conversation has changed no files (or all its changes were undone).');
      return 0;
    }
    // VS Code's multi-file diff editor adds the count to the title itself ("(5 files)"); a rename is one entry.
    const shown = await this.changes.diffs.openAll(changed, 'Conversation changes');
    // The same entries as the editor and the card list: a rename counted once, kept or undone as one.
    void this.offerChoices(listedChanges(changed).map((f) => f.path));
    return shown;
  }

  private async offerChoices(paths: readonly string[]): Promise<void> {
    const choice = await vscode.window.showInformationMessage(
      `This conversation changed ${files(paths.length)}.`,
      'Keep All',
      'Undo All',
      'One File…',
    );
    if (choice === 'Keep All') await this.keepConversation(undefined);
    else if (choice === 'Undo All') await this.undoConversation(undefined);
    else if (choice === 'One File…') {
      const picked = await vscode.window.showQuickPick(
        paths.flatMap((p) => [
          { label: `$(check) Keep ${shownText(shownPath(p), 'quick-pick')}`, path: p, keep: true },
          { label: `$(discard) Undo ${shownText(shownPath(p), 'quick-pick')}`, path: p, keep: false },
        ]),
        { title: 'Keep or undo one file of this conversation’s changes' },
      );
      if (picked) await (picked.keep ? this.keepConversation(picked.path) : this.undoConversation(picked.path));
    }
  }

  /** Keep: every turn's change to the file (or to all files) leaves review; nothing on disk changes. */
  async keepConversation(file: string | undefined): Promise<void> {
    const tracked = this.shownTracked();
    if (!tracked) return;
    const { records } = await tracked.tracker.history();
    const entry = file === undefined ? undefined : pathsOfEntry(conversationChanges(records), file);
    for (const record of records) {
      const paths = record.files
        .filter((f) => f.review === 'pending' && (entry === undefined || entry.includes(f.path)))
        .map((f) => f.path);
      if (paths.length > 0) await tracked.tracker.keep(record.turnId, paths);
    }
  }

  /**
   * Undo of the whole conversation (or one file of it): a restore to before its first turn, limited to the chosen
   * files. Files edited since the agent are a conflict: the user is asked, and nothing is written until they answer.
   */
  async undoConversation(file: string | undefined): Promise<ApplyOutcome> {
    const tracked = this.shownTracked();
    if (!tracked) return { kind: 'nothing' };
    if (tracked.transcript.state.turn.phase !== 'idle') {
      void vscode.window.showWarningMessage('Wait for the turn to end (or cancel it) before undoing its changes.');
      return { kind: 'nothing' };
    }
    const { tracker } = tracked;
    const { records, turns } = await tracker.history();
    const first = turns[0];
    const changes = conversationChanges(records);
    // A renamed file is undone as the entry it is: its new path removed and its old one back.
    const entry = file === undefined ? undefined : pathsOfEntry(changes, file);
    const chosen = new Set(changes.map((f) => f.path).filter((p) => entry === undefined || entry.includes(p)));
    const preview = first === undefined ? undefined : await tracker.previewRestore(first);
    if (first === undefined || !preview || chosen.size === 0) return { kind: 'nothing' };
    const others = preview.files.map((f) => f.path).filter((p) => !chosen.has(p));
    const conflicts = preview.conflicts.filter((p) => chosen.has(p));
    if (conflicts.length > 0) {
      const unsaved = conflicts.filter((p) => this.isUnsaved(p));
      const picked = await vscode.window.showQuickPick(
        [
          { label: '$(diff) Show Diff', choice: 'diff' as const },
          { label: '$(warning) Undo Anyway', description: 'overwrites your edits', choice: 'force' as const },
        ],
        {
          title:
            `${conflicts.map((p) => shownPath(p)).join(', ')} changed after the agent` +
            (unsaved.length > 0 ? ' (unsaved edits in the editor)' : '') +
            ': undo would overwrite those edits',
        },
      );
      if (picked?.choice === 'diff')
        await this.changes.diffs.openAll(conversationChanges(records).filter((f) => conflicts.includes(f.path)));
      if (picked?.choice !== 'force') return { kind: 'conflict', paths: conflicts, unsaved };
    }
    const outcome = await tracker.restore(first, true, others);
    if (outcome.kind === 'applied' && outcome.unrestorable.length > 0)
      void vscode.window.showWarningMessage(
        shownText(`Left as they are (earlier content not kept): ${outcome.unrestorable.map(shownPath).join(', ')}`, 'notification'),
      );
    if (outcome.kind === 'applied') warnSkipped('undo', outcome.skipped);
    return outcome;
  }

  private isUnsaved(path: string): boolean {
    return vscode.workspace.textDocuments.some((d) => d.uri.scheme === 'file' && d.uri.fsPath === path && d.isDirty);
  }
}
