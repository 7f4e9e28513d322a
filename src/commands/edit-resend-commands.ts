/**
 * Edit on a sent message, then Send: the files go back to how they were before that message (Restore to here: a
 * preview first, and files the user edited after the agent are left alone unless they say otherwise), then the
 * edited text runs in a new conversation holding only the history before it (edit-resend.ts).
 */
import * as vscode from 'vscode';
import type { ChangeTracking } from '../editor/change-tracking';
import type { Conversation } from '../conversations/conversation';
import { EditResend } from '../conversations/edit-resend';
import type { Conversations } from '../conversations/conversations';
import type { PromptVerdict } from '../session/session-controller';
import type { Attachment } from '../shared/attachments';
import { shownText } from '../shared/shown-text';
import type { ChatSurface } from '../views/chat-binding';
import type { PromptSender } from './review-commands';
import { blockedPickItem, shownPath, warnSkipped } from './shown-files';

const files = (n: number): string => `${n} file${n === 1 ? '' : 's'}`;

export class EditResendCommands implements vscode.Disposable {
  private readonly branches: EditResend;
  private readonly disposables: vscode.Disposable[];

  constructor(
    private readonly changes: ChangeTracking,
    conversations: Conversations,
    private readonly chat: PromptSender,
  ) {
    this.branches = new EditResend(conversations);
    this.disposables = [
      // Not in the palette: what Send does after Edit on a user message, also for tests.
      vscode.commands.registerCommand('acpClient.resendEditedMessage', (turnId: unknown, text: unknown) => {
        const shown = conversations.shown;
        if (!shown || typeof turnId !== 'string' || typeof text !== 'string')
          throw new Error('acpClient.resendEditedMessage takes (turnId: string, text: string) for the conversation shown');
        return this.resend(shown, turnId, text, []);
      }),
    ];
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }

  async resend(
    conversation: Conversation,
    turnId: string,
    text: string,
    attachments: readonly Attachment[],
    surface?: ChatSurface,
  ): Promise<PromptVerdict> {
    const refuse = (reason: string): PromptVerdict => {
      surface?.rejectPrompt(reason);
      return { accepted: false, reason };
    };
    if (conversation.store.state.turn.phase !== 'idle')
      return refuse('Wait for the turn to end (or cancel it) before running a message again.');
    if (text.trim() === '' && attachments.length === 0) return refuse('The prompt is empty.');
    const restored = await this.restoreFiles(conversation.id, turnId);
    if (!restored) return refuse('Not sent: the files were not restored.');
    const branch = await this.branches.branch(conversation.id, turnId);
    if (!branch) return refuse('That message is no longer in the transcript.');
    const prompt = branch.carried === '' ? text : `${branch.carried}\n\n${text}`;
    return this.chat.sendPrompt(prompt, attachments, branch.conversation, surface);
  }

  /** Restore to here, previewed; false when the user cancels (nothing changes then). */
  private async restoreFiles(conversationId: string, turnId: string): Promise<boolean> {
    const tracker = this.changes.tracked(conversationId)?.tracker;
    if (!tracker?.hasCheckpoint(turnId)) return true;
    const preview = await tracker.previewRestore(turnId);
    if (!preview || (preview.files.length === 0 && preview.unrestorable.length === 0 && preview.blocked.length === 0)) return true;
    const conflicts = new Set(preview.conflicts);
    type Item = vscode.QuickPickItem & { overwrite?: boolean };
    const items: Item[] = [
      {
        label: `$(history) Restore ${files(preview.files.length - conflicts.size)} and run the message again`,
        overwrite: false,
        ...(conflicts.size ? { detail: `Keeps your edits to ${files(conflicts.size)} changed after the agent` } : {}),
      },
      ...(conflicts.size
        ? [{ label: `$(warning) Restore ${files(preview.files.length)}, overwriting your edits, and run it again`, overwrite: true }]
        : []),
      { label: 'Files', kind: vscode.QuickPickItemKind.Separator },
      ...preview.files.map((f) => ({
        label: shownText(shownPath(f.path), 'quick-pick'),
        description: conflicts.has(f.path) ? 'edited after the agent' : f.target.kind === 'absent' ? 'will be deleted' : 'will be restored',
      })),
      ...preview.unrestorable.map((p) => ({
        label: shownText(shownPath(p), 'quick-pick'),
        description: 'cannot be restored (content not kept)',
      })),
      ...preview.blocked.map(blockedPickItem),
    ];
    const picked = await vscode.window.showQuickPick(items, {
      title: 'Edit and run again: workspace files as they were before this message',
    });
    if (picked?.overwrite === undefined) return false;
    const outcome = await tracker.restore(turnId, true, picked.overwrite ? [] : [...conflicts]);
    if (outcome.kind === 'refused') {
      void vscode.window.showWarningMessage('Could not restore the files: the message was not sent.');
      return false;
    }
    if (outcome.kind === 'applied') warnSkipped('restore', outcome.skipped);
    return true;
  }
}
