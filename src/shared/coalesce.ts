/**
 * Streaming chunks are merged before they are posted to the webview, so a burst of tiny chunks costs one
 * message. Merging is only done where applying the merged action is exactly the same as applying both: two
 * text chunks of the same message kind and message id, or two pieces of one terminal's output, back to back.
 */
import type { TranscriptAction } from './actions';
import { TERMINAL_DISPLAY_CHARS } from './model';
import type { MessageChunkKind, SessionUpdate } from './updates';

function isMessageChunk(update: SessionUpdate): update is Extract<SessionUpdate, { sessionUpdate: MessageChunkKind }> {
  return (
    update.sessionUpdate === 'agent_message_chunk' ||
    update.sessionUpdate === 'agent_thought_chunk' ||
    update.sessionUpdate === 'user_message_chunk'
  );
}

export function mergeChunkActions(first: TranscriptAction, second: TranscriptAction): TranscriptAction | undefined {
  const text = chunkText(second);
  return text !== undefined && canMergeChunks(first, second) ? withChunkText(first, (chunkText(first) ?? '') + text) : undefined;
}

/** Whether `second` can be merged onto `first` (see above); a run of such chunks can be joined in one go. */
export function canMergeChunks(first: TranscriptAction, second: TranscriptAction): boolean {
  if (first.type === 'terminal_output' && second.type === 'terminal_output') return first.terminalId === second.terminalId;
  if (first.type !== 'session_update' || second.type !== 'session_update') return false;
  const a = first.update;
  const b = second.update;
  return (
    isMessageChunk(a) &&
    isMessageChunk(b) &&
    b.sessionUpdate === a.sessionUpdate &&
    a.messageId === b.messageId &&
    a.content.type === 'text' &&
    b.content.type === 'text'
  );
}

/** The text a mergeable chunk carries, else undefined. */
export function chunkText(action: TranscriptAction): string | undefined {
  if (action.type === 'terminal_output') return action.text;
  if (action.type !== 'session_update' || !isMessageChunk(action.update) || action.update.content.type !== 'text') return undefined;
  return action.update.content.text;
}

/**
 * A mergeable chunk with its text replaced: the merge of a run of chunks. The transcript keeps only a terminal's
 * newest `keep` characters (a text that long replaces the display), so a flood carries that much per merge,
 * not everything that arrived.
 */
export function withChunkText(action: TranscriptAction, text: string): TranscriptAction {
  if (action.type === 'terminal_output') {
    const keep = terminalKeep(action);
    return { ...action, text: text.length > keep ? text.slice(-keep) : text };
  }
  if (action.type !== 'session_update' || !isMessageChunk(action.update)) return action;
  return { type: 'session_update', update: { ...action.update, content: { type: 'text', text } } };
}

/**
 * A run of chunks that merge, held as their texts and joined once when the run is taken: merging chunk by chunk
 * would build a new action per chunk. Used where many chunks wait together (the store's batch, the recorder).
 */
export class ChunkRun {
  private first: TranscriptAction | undefined;
  private texts: string[] = [];
  /** Characters in `texts`. */
  private chars = 0;

  /** Adds `action` to the run if it is a chunk that continues it. */
  extend(action: TranscriptAction): boolean {
    const first = this.first;
    const text = first && chunkText(action);
    if (!first || text === undefined || !canMergeChunks(first, action)) return false;
    this.texts.push(text);
    this.chars += text.length;
    // A terminal's merge keeps only its newest `keep` characters: texts wholly before those are never joined
    // (a 50 MB flood held here cost a join of all of it per take).
    if (first.type === 'terminal_output') {
      const keep = terminalKeep(first);
      while (this.texts.length > 1 && this.chars - (this.texts[0]?.length ?? 0) >= keep) this.chars -= this.texts.shift()?.length ?? 0;
    }
    return true;
  }

  /** Starts a new run with `action` if it is a chunk; the run must be empty (taken). */
  start(action: TranscriptAction): boolean {
    const text = chunkText(action);
    if (text === undefined) return false;
    this.first = action;
    this.texts = [text];
    this.chars = text.length;
    return true;
  }

  /** The run as one action (undefined when empty), and empties it. */
  take(): TranscriptAction | undefined {
    const first = this.first;
    if (!first) return undefined;
    const texts = this.texts;
    this.first = undefined;
    this.texts = [];
    this.chars = 0;
    return texts.length > 1 || texts[0] !== chunkText(first) ? withChunkText(first, texts.join('')) : first;
  }
}

/** Characters of a terminal's newest output the display keeps (shared/model.ts terminalDisplayChars). */
function terminalKeep(action: Extract<TranscriptAction, { type: 'terminal_output' }>): number {
  return action.keep ?? TERMINAL_DISPLAY_CHARS;
}

export function isChunkAction(action: TranscriptAction): boolean {
  if (action.type === 'terminal_output') return true;
  if (action.type !== 'session_update') return false;
  const kind = action.update.sessionUpdate;
  return (
    kind === 'agent_message_chunk' || kind === 'agent_thought_chunk' || kind === 'user_message_chunk' || kind === 'tool_call_content_chunk'
  );
}
