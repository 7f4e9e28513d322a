/** Validation of what the webview posts: it is another process's input, so it is parsed, not trusted. */
import { z } from 'zod';
import { MAX_MEDIA_BYTES } from '../shared/attachments';
import type { WebviewToHostMessage } from '../shared/webview-protocol';

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

const webviewToHostSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('resync') }),
  z.object({ type: z.literal('drawn'), conversationId: z.string().max(200), seq: z.number().int().min(0) }),
  z.object({ type: z.literal('send_prompt'), text: z.string(), attachments: z.array(attachment).max(100).readonly() }),
  z.object({ type: z.literal('attachments_taken'), batch: z.number().int() }),
  z.object({ type: z.literal('draft_changed'), conversationId: z.string().max(200), text: z.string().max(1_000_000) }),
  z.object({ type: z.literal('find_files'), requestId: z.number().int(), query: z.string().max(500) }),
  z.object({ type: z.literal('cancel_turn') }),
  z.object({ type: z.literal('remove_queued_prompt'), id: z.string().max(100) }),
  z.object({ type: z.literal('steer_queued_prompt'), id: z.string().max(100) }),
  z.object({ type: z.literal('permission_answer'), requestId: z.string(), optionId: z.string() }),
  z.object({
    type: z.literal('elicitation_answer'),
    requestId: z.string(),
    action: z.enum(['accept', 'decline', 'cancel']),
    // Shape only: what the values must be is the form's business, checked by the elicitation broker.
    values: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string()).max(1000).readonly()]))
      .readonly()
      .optional(),
  }),
  z.object({
    type: z.literal('open_diff'),
    toolCallId: z.string(),
    contentIndex: z.number().int().min(0),
    fileIndex: z.number().int().min(0),
  }),
  z.object({ type: z.literal('open_location'), path: z.string(), line: z.number().int().optional() }),
  z.object({ type: z.literal('open_change'), turnId: z.string().max(200), path: z.string().max(4096) }),
  z.object({ type: z.literal('review_changes'), turnId: z.string().max(200) }),
  z.object({ type: z.literal('keep_changes'), turnId: z.string().max(200), path: z.string().max(4096).optional() }),
  z.object({ type: z.literal('undo_changes'), turnId: z.string().max(200), path: z.string().max(4096).optional() }),
  z.object({ type: z.literal('restore_checkpoint'), turnId: z.string().max(200) }),
  z.object({ type: z.literal('open_terminal'), terminalId: z.string() }),
  z.object({ type: z.literal('cancel_terminal'), terminalId: z.string() }),
  z.object({ type: z.literal('restart_agent') }),
  z.object({ type: z.literal('stop_agent') }),
  z.object({ type: z.literal('retry_start') }),
  z.object({ type: z.literal('sign_in') }),
  z.object({ type: z.literal('new_session') }),
  z.object({ type: z.literal('select_agent') }),
  z.object({ type: z.literal('add_agent') }),
  z.object({ type: z.literal('cancel_install') }),
  z.object({ type: z.literal('configure_agents') }),
  z.object({ type: z.literal('manage_trust') }),
  z.object({ type: z.literal('show_log') }),
  z.object({ type: z.literal('set_mode'), modeId: z.string() }),
  z.object({ type: z.literal('set_config_option'), configId: z.string(), value: z.union([z.string(), z.boolean()]) }),
]);

// Drift between the schema and the declared protocol fails the build.
type Parsed = z.infer<typeof webviewToHostSchema>;
const _sameShape: [Parsed] extends [WebviewToHostMessage] ? ([WebviewToHostMessage] extends [Parsed] ? true : false) : false = true;
void _sameShape;

export function parseWebviewMessage(raw: unknown): WebviewToHostMessage | { error: string } {
  const parsed = webviewToHostSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  return { error: parsed.error.issues.map((issue) => `${issue.path.join('.') || 'message'}: ${issue.message}`).join('; ') };
}
