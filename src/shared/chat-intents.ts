/**
 * Every message the chat webview posts to the host, declared once here: its `type` and the zod schema of its fields.
 * From this table come the webview's sender type (`WebviewToHostMessage` in webview-protocol.ts, type-only, so the
 * webview bundle carries no zod), the host's validation (views/webview-messages.ts) and, for the user's intents,
 * the route table (commands/chat-routes.ts: the compiler asks for exactly one handler per intent).
 * Adding a chat button: one entry in CHAT_INTENTS, one handler in CHAT_ROUTES.
 */
import { z } from 'zod';
import { MAX_MEDIA_BYTES } from './attachments';

const message = <K extends string, S extends z.ZodRawShape>(type: K, shape: S) => z.object({ type: z.literal(type), ...shape });

const lineRange = z
  .object({ startLine: z.number().int().min(1), endLine: z.number().int().min(1) })
  .refine((range) => range.endLine >= range.startLine, 'endLine before startLine');
const attachment = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('file'), uri: z.string().startsWith('file:'), label: z.string(), range: lineRange.optional() }),
  z.object({
    kind: z.enum(['image', 'audio']),
    label: z.string(),
    mimeType: z.string(),
    data: z.string().max(Math.ceil((MAX_MEDIA_BYTES * 4) / 3) + 4),
  }),
]);
const turnId = z.string().max(200);
const filePath = z.string().max(4096);

/** The view's own bookkeeping, answered by the chat binding itself (sync, drafts, `@` completion). */
export const VIEW_MESSAGES = [
  message('ready', {}),
  message('resync', {}),
  message('attachments_taken', { batch: z.number().int() }),
  /** The draft's text, so it survives a reload and follows the conversation (sent after typing pauses). */
  message('draft_changed', { conversationId: z.string().max(200), text: z.string().max(1_000_000) }),
  /** `@` completion: which workspace files match `query` (answered by `file_matches`). */
  message('find_files', { requestId: z.number().int(), query: z.string().max(500) }),
] as const;

/** What the user asks for in the chat: each goes to its one handler in commands/chat-routes.ts. */
export const CHAT_INTENTS = [
  message('send_prompt', { text: z.string(), attachments: z.array(attachment).max(100).readonly() }),
  message('cancel_turn', {}),
  /** Take a queued prompt back before it is sent (to edit it in the composer, or drop it). */
  message('remove_queued_prompt', { id: z.string().max(100) }),
  /** Send a queued prompt into the running turn now (only offered where the agent supports steering). */
  message('steer_queued_prompt', { id: z.string().max(100) }),
  message('permission_answer', { requestId: z.string(), optionId: z.string() }),
  /** Accept (with the form's values, or: open the URL), decline or cancel an agent's question. */
  message('elicitation_answer', {
    requestId: z.string(),
    action: z.enum(['accept', 'decline', 'cancel']),
    // Shape only: what the values must be is the form's business, checked by the elicitation broker.
    values: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string()).max(1000).readonly()]))
      .readonly()
      .optional(),
  }),
  message('open_diff', { toolCallId: z.string(), contentIndex: z.number().int().min(0), fileIndex: z.number().int().min(0) }),
  message('open_location', { path: z.string(), line: z.number().int().optional() }),
  /** A turn's change set (see ChangeSetEntry): open one file's diff, or all in the multi-file diff editor. */
  message('open_change', { turnId, path: filePath }),
  message('review_changes', { turnId }),
  /** Keep (clear from review) or undo one file of a turn's change set, or every pending file when `path` is absent. */
  message('keep_changes', { turnId, path: filePath.optional() }),
  message('undo_changes', { turnId, path: filePath.optional() }),
  /** "Restore to here" on the user message that started `turnId`: a preview, then the workspace rewinds. */
  message('restore_checkpoint', { turnId }),
  /** "Send to agent" on the review comments bar: every open review comment, quoted, plus what is typed in the composer. */
  message('send_review_comments', { text: z.string(), attachments: z.array(attachment).max(100).readonly() }),
  /**
   * Edit on a sent message, then Send: the files back to before the message of `turnId`, and `text` sent in a
   * conversation that holds only the history before it (the original conversation stays as it is).
   */
  message('resend_message', { turnId, text: z.string(), attachments: z.array(attachment).max(100).readonly() }),
  /** Show a terminal the agent runs in a VS Code terminal (its output so far, then live). */
  message('open_terminal', { terminalId: z.string() }),
  /** Stop an agent-owned (v2) terminal that the agent says may be cancelled. */
  message('cancel_terminal', { terminalId: z.string() }),
  message('restart_agent', {}),
  message('stop_agent', {}),
  /** An agent not responding while it starts: stop it and start again from scratch. */
  message('retry_start', {}),
  /** The agent refused a session until the user signs in: pick one of its sign-in methods. */
  message('sign_in', {}),
  message('new_session', {}),
  message('select_agent', {}),
  /** The empty state's ways out: the registry, the settings, and VS Code's workspace trust. */
  message('add_agent', {}),
  /** Stop the registry install the chat shows (the same as the progress notification's Cancel). */
  message('cancel_install', {}),
  message('configure_agents', {}),
  message('manage_trust', {}),
  message('show_log', {}),
  message('set_mode', { modeId: z.string() }),
  message('set_config_option', { configId: z.string(), value: z.union([z.string(), z.boolean()]) }),
] as const;

export type ViewMessage = z.infer<(typeof VIEW_MESSAGES)[number]>;
/** A user intent from the chat (or a command acting as the chat, see `AcpClientApi.postFromChat`). */
export type ChatIntent = z.infer<(typeof CHAT_INTENTS)[number]>;
