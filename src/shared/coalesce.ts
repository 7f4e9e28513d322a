/**
 * Streaming chunks are merged before they are posted to the webview, so a burst of tiny chunks costs one
 * message. Merging is only done where applying the merged action is exactly the same as applying both: two
 * text chunks of the same message kind and message id, or two pieces of one terminal's output, back to back.
 */
import type { TranscriptAction } from './actions';
import { TERMINAL_DISPLAY_CHARS } from './model';
import type { MessageChunkKind, SessionUpdate } from './updates';

function isMessageChunk(update: SessionUpdate): update is Extract<SessionUpdate, { sessionUpdate: MessageChunkKind }> {
  return update.sessionUpdate === 'agent_message_chunk' || update.sessionUpdate === 'agent_thought_chunk' || update.sessionUpdate === 'user_message_chunk';
}

export function mergeChunkActions(first: TranscriptAction, second: TranscriptAction): TranscriptAction | undefined {
  if (first.type === 'terminal_output' && second.type === 'terminal_output' && first.terminalId === second.terminalId) {
    // The transcript keeps only the newest TERMINAL_DISPLAY_CHARS (a text that long replaces the display), so a
    // flood posts that much per window, not everything that arrived in it.
    const text = first.text + second.text;
    return { ...first, text: text.length > TERMINAL_DISPLAY_CHARS ? text.slice(-TERMINAL_DISPLAY_CHARS) : text };
  }
  if (first.type !== 'session_update' || second.type !== 'session_update') return undefined;
  const a = first.update;
  const b = second.update;
  if (
    !isMessageChunk(a) ||
    !isMessageChunk(b) ||
    b.sessionUpdate !== a.sessionUpdate ||
    a.messageId !== b.messageId ||
    a.content.type !== 'text' ||
    b.content.type !== 'text'
  ) {
    return undefined;
  }
  return {
    type: 'session_update',
    update: { ...a, content: { type: 'text', text: a.content.text + b.content.text } },
  };
}

export function isChunkAction(action: TranscriptAction): boolean {
  if (action.type === 'terminal_output') return true;
  if (action.type !== 'session_update') return false;
  const kind = action.update.sessionUpdate;
  return kind === 'agent_message_chunk' || kind === 'agent_thought_chunk' || kind === 'user_message_chunk' || kind === 'tool_call_content_chunk';
}
