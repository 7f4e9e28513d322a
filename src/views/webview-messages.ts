/**
 * Validation of what the webview posts: it is another process's input, so it is parsed, not trusted. The schemas
 * are the table in shared/chat-intents.ts (the same declaration the webview's sender type comes from).
 */
import { z } from 'zod';
import type { Attachment } from '../shared/attachments';
import { CHAT_INTENTS, VIEW_MESSAGES, type ChatIntent } from '../shared/chat-intents';
import type { WebviewToHostMessage } from '../shared/webview-protocol';

const webviewToHostSchema = z.discriminatedUnion('type', [...VIEW_MESSAGES, ...CHAT_INTENTS]);

// An attachment as parsed is the host's Attachment: drift between the schema and the type fails the build.
type ParsedAttachment = Extract<ChatIntent, { type: 'send_prompt' }>['attachments'][number];
const _sameAttachment: [ParsedAttachment] extends [Attachment] ? ([Attachment] extends [ParsedAttachment] ? true : false) : false = true;
void _sameAttachment;

export function parseWebviewMessage(raw: unknown): WebviewToHostMessage | { error: string } {
  const parsed = webviewToHostSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  return { error: parsed.error.issues.map((issue) => `${issue.path.join('.') || 'message'}: ${issue.message}`).join('; ') };
}
