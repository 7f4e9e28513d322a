/** Validation of what the webview posts: it is another process's input, so it is parsed, not trusted. */
import { z } from 'zod';
import type { WebviewToHostMessage } from '../shared/webview-protocol';

const webviewToHostSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('resync') }),
  z.object({ type: z.literal('send_prompt'), text: z.string() }),
  z.object({ type: z.literal('cancel_turn') }),
  z.object({ type: z.literal('permission_answer'), requestId: z.string(), optionId: z.string() }),
  z.object({ type: z.literal('open_diff'), toolCallId: z.string(), contentIndex: z.number().int().min(0), fileIndex: z.number().int().min(0) }),
  z.object({ type: z.literal('open_location'), path: z.string(), line: z.number().int().optional() }),
  z.object({ type: z.literal('open_terminal'), terminalId: z.string() }),
  z.object({ type: z.literal('restart_agent') }),
  z.object({ type: z.literal('stop_agent') }),
  z.object({ type: z.literal('new_session') }),
  z.object({ type: z.literal('select_agent') }),
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
