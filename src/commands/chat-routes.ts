/**
 * One route per chat intent: the handler each intent of shared/chat-intents.ts runs. The table is typed by the
 * intents, so a new intent without a handler (or a handler for no intent) does not compile; nothing else routes
 * what the chat asks for. The handlers call the same methods as the palette's commands, so both behave the same.
 */
import * as vscode from 'vscode';
import type { ChatIntent } from '../shared/chat-intents';
import type { Conversation } from '../conversations/conversation';
import type { ChatSurface } from '../views/chat-binding';
import type { ChangeCommands } from './change-commands';
import type { ChatCommands } from './chat-commands';
import type { ReviewLoop } from './review-loop';

/** Where an intent came from and what it may act on. */
export interface RouteContext {
  readonly conversation: Conversation;
  readonly surface: ChatSurface;
  readonly chat: ChatCommands;
  readonly changes: ChangeCommands;
  readonly review: ReviewLoop;
}

type IntentOf = { [I in ChatIntent as I['type']]: I };
type Routes = { readonly [K in keyof IntentOf]: (intent: IntentOf[K], at: RouteContext) => void };

export const CHAT_ROUTES: Routes = {
  send_prompt: (intent, { chat, conversation, surface }) => void chat.sendPrompt(intent.text, intent.attachments, conversation, surface),
  cancel_turn: (_, { conversation }) => conversation.controller.cancelTurn(),
  remove_queued_prompt: (intent, { conversation }) => conversation.controller.removeQueuedPrompt(intent.id),
  steer_queued_prompt: (intent, { conversation }) => void conversation.controller.steerQueuedPrompt(intent.id),
  permission_answer: (intent, { conversation }) => conversation.controller.answerPermission(intent.requestId, intent.optionId),
  elicitation_answer: (intent, { chat, conversation }) => chat.answerElicitation(conversation, intent),
  open_diff: (intent, { chat, conversation }) => void chat.openDiff(conversation, intent.toolCallId, intent.contentIndex, intent.fileIndex),
  open_location: (intent, { chat }) => void chat.openLocation(intent.path, intent.line),
  open_change: (intent, { changes, conversation }) =>
    changes.withTarget(conversation.id, (target) => changes.openFile(target, intent.turnId, intent.path)),
  review_changes: (intent, { changes, conversation }) =>
    changes.withTarget(conversation.id, (target) => changes.review(target, intent.turnId)),
  keep_changes: (intent, { changes, conversation }) =>
    changes.withTarget(conversation.id, (target) => changes.keep(target, intent.turnId, intent.path)),
  undo_changes: (intent, { changes, conversation }) =>
    changes.withTarget(conversation.id, (target) => changes.undo(target, intent.turnId, intent.path)),
  restore_checkpoint: (intent, { changes, conversation }) =>
    changes.withTarget(conversation.id, (target) => changes.restore(target, intent.turnId)),
  send_review_comments: (intent, { review, conversation, surface }) =>
    void review.sendComments(conversation, intent.text, intent.attachments, surface),
  resend_message: (intent, { review, conversation, surface }) =>
    void review.resend(conversation, intent.turnId, intent.text, intent.attachments, surface),
  open_terminal: (intent, { chat, conversation }) => chat.showTerminal(conversation, intent.terminalId),
  cancel_terminal: (intent, { conversation }) => void conversation.controller.cancelTerminal(intent.terminalId),
  restart_agent: (_, { chat, conversation }) => void chat.restart(conversation),
  stop_agent: (_, { conversation }) => void conversation.controller.stopUnresponsive(),
  // A fresh start supersedes the one that does not answer (its process is stopped first).
  retry_start: (_, { chat, conversation }) => void chat.restart(conversation),
  sign_in: (_, { conversation }) => void conversation.controller.signIn(),
  new_session: (_, { chat }) => void chat.newSession(),
  select_agent: (_, { chat }) => void chat.selectAgent(),
  add_agent: () => void vscode.commands.executeCommand('acpClient.addAgent'),
  cancel_install: (_, { chat }) => chat.cancelInstall(),
  configure_agents: () => void vscode.commands.executeCommand('workbench.action.openSettings', 'acpClient.agents'),
  manage_trust: () => void vscode.commands.executeCommand('workbench.trust.manage'),
  show_log: (_, { chat }) => chat.showLog(),
  set_mode: (intent, { conversation }) => void conversation.controller.setMode(intent.modeId),
  set_config_option: (intent, { conversation }) => void conversation.controller.setConfigOption(intent.configId, intent.value),
};

/** Runs the one handler `intent` has. */
export function routeIntent<K extends keyof IntentOf>(intent: IntentOf[K] & { readonly type: K }, at: RouteContext): void {
  const route: Routes[K] = CHAT_ROUTES[intent.type];
  route(intent, at);
}
