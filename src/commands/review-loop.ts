/**
 * The review loop put together (extension.ts stays a list of parts): the comments kept in workspace storage, their
 * Comments API controller on files a conversation changed, the commands, the chat's "N review comments", and Edit
 * on a sent message.
 */
import * as vscode from 'vscode';
import type { ChangeTracking } from '../editor/change-tracking';
import { ReviewCommentController } from '../editor/review-comment-controller';
import type { Conversation } from '../conversations/conversation';
import type { Conversations } from '../conversations/conversations';
import type { Attachment } from '../shared/attachments';
import { conversationChanges } from '../changes/conversation-changes';
import { ReviewThreads } from '../session/review/review-threads';
import type { ChatSurface } from '../views/chat-binding';
import type { ChatCommands } from './chat-commands';
import { EditResendCommands } from './edit-resend-commands';
import { ReviewCommands } from './review-commands';

const STORAGE_KEY = 'acpClient.reviewComments';

export interface ReviewLoop extends vscode.Disposable {
  /** "Send to agent" on the chat's review comments bar. */
  sendComments(conversation: Conversation, text: string, attachments: readonly Attachment[], surface: ChatSurface): Promise<unknown>;
  /** Send on an edited message: the files back to before it, then the text in a conversation cut there. */
  resend(
    conversation: Conversation,
    turnId: string,
    text: string,
    attachments: readonly Attachment[],
    surface: ChatSurface,
  ): Promise<unknown>;
}

export function reviewLoop(
  workspaceState: vscode.Memento,
  changes: ChangeTracking,
  conversations: Conversations,
  chat: ChatCommands,
): ReviewLoop {
  const threads = new ReviewThreads({
    load: () => workspaceState.get<unknown>(STORAGE_KEY),
    save: (all) => workspaceState.update(STORAGE_KEY, all),
  });
  if (threads.problem) void vscode.window.showWarningMessage(threads.problem);
  /** The conversation on screen if it changed the file, else another loaded one that did. */
  const conversationOf = async (path: string): Promise<string | undefined> => {
    const ids = [conversations.shown?.id, ...conversations.loadedConversations().map((c) => c.id)];
    for (const id of new Set(ids.filter((candidate): candidate is string => candidate !== undefined))) {
      const tracked = changes.tracked(id);
      if (!tracked) continue;
      const { records } = await tracked.tracker.history();
      if (records.some((r) => r.files.some((f) => f.path === path)) || conversationChanges(records).some((f) => f.path === path)) return id;
    }
    return undefined;
  };
  const controller = new ReviewCommentController(threads, conversationOf);
  chat.countReviewComments(() => threads.openCounts());
  const counted = threads.onDidChange(() => chat.publishHostInfo());
  const review = new ReviewCommands(threads, controller, changes, conversations, chat, [controller, counted]);
  const edits = new EditResendCommands(changes, conversations, chat);
  return {
    sendComments: (conversation, text, attachments, surface) => review.send(conversation, text, attachments, surface),
    resend: (conversation, turnId, text, attachments, surface) => edits.resend(conversation, turnId, text, attachments, surface),
    dispose: () => {
      review.dispose();
      edits.dispose();
    },
  };
}
