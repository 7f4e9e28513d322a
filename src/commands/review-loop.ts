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
import type { UserIntent } from '../session/intents';
import { conversationChanges } from '../changes/conversation-changes';
import { ReviewThreads } from '../session/review/review-threads';
import type { ChatSurface } from '../views/chat-binding';
import type { ChatCommands } from './chat-commands';
import { EditResendCommands } from './edit-resend-commands';
import { ReviewCommands } from './review-commands';

const STORAGE_KEY = 'acpClient.reviewComments';

export interface ReviewLoop extends vscode.Disposable {
  /** The chat's review intents (Send to agent, an edited message's Send); false for any other intent. */
  handle(intent: UserIntent, conversation: Conversation, surface: ChatSurface): boolean;
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
    handle: (intent, conversation, surface) => {
      if (intent.type === 'resend_message') {
        void edits.resend(conversation, intent.turnId, intent.text, intent.attachments, surface);
        return true;
      }
      return review.handle(intent, conversation, surface);
    },
    dispose: () => {
      review.dispose();
      edits.dispose();
    },
  };
}
