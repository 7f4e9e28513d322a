/**
 * The review loop put together (extension.ts stays a list of parts): the comments kept in workspace storage, their
 * Comments API controller on files a conversation changed, the commands, and the chat's "N review comments".
 */
import * as vscode from 'vscode';
import type { ChangeTracking } from '../editor/change-tracking';
import { ReviewCommentController } from '../editor/review-comment-controller';
import type { Conversations } from '../session/conversations/conversations';
import { conversationChanges } from '../session/review/conversation-changes';
import { ReviewThreads } from '../session/review/review-threads';
import type { ChatCommands } from './chat-commands';
import { ReviewCommands } from './review-commands';

const STORAGE_KEY = 'acpClient.reviewComments';

export function reviewLoop(
  workspaceState: vscode.Memento,
  changes: ChangeTracking,
  conversations: Conversations,
  chat: ChatCommands,
): ReviewCommands {
  const threads = new ReviewThreads({
    load: () => workspaceState.get<unknown>(STORAGE_KEY),
    save: (all) => workspaceState.update(STORAGE_KEY, all),
  });
  if (threads.problem) void vscode.window.showWarningMessage(threads.problem);
  /** The conversation on screen if it changed the file, else another loaded one that did. */
  const conversationOf = async (path: string): Promise<string | undefined> => {
    const shownId = conversations.shown?.id;
    const ids = [shownId, ...conversations.loadedConversations().map((c) => c.id)].filter((id): id is string => id !== undefined);
    for (const id of new Set(ids)) {
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
  return new ReviewCommands(threads, controller, changes, conversations, chat, [controller, counted]);
}
