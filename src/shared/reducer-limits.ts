/**
 * The transcript's size limits (see limits.ts) applied where content grows. What goes over is cut and a note
 * says so in the content itself, so every view shows the truncation without knowing about it; the note also marks
 * the content as full, so later chunks are dropped at the cost of one comparison.
 */
import type { ContentBlock, ToolCallContent } from './content';
import { groupThousands } from './group-thousands';
import { headOf, MAX_MESSAGE_CHARS, MAX_TOOL_CALLS_PER_TURN, MAX_TOOL_CONTENT_CHARS } from './limits';
import type { NoticeEntry, TranscriptState } from './model';
import { appendEntry } from './pages';
import { takeLocalId } from './reducer-ids';

export const MESSAGE_TRUNCATED_NOTE = `\n\n*[Message truncated: it passed ${groupThousands(MAX_MESSAGE_CHARS)} characters; the rest was not kept.]*`;
export const TOOL_CONTENT_TRUNCATED_NOTE = `[Output truncated: it passed ${groupThousands(MAX_TOOL_CONTENT_CHARS)} characters; the rest was not kept.]`;

/**
 * What a non-text block counts for: its payload, and at least this much, so a flood of tiny blocks is bounded in
 * number too (each is a card to draw, and each chunk's size check walks them).
 */
const BLOCK_FLOOR_CHARS = 256;

function blockChars(block: ContentBlock): number {
  switch (block.type) {
    case 'text':
      return block.text.length;
    case 'image':
    case 'audio':
      return Math.max(BLOCK_FLOOR_CHARS, block.data.length);
    case 'resource':
      return Math.max(BLOCK_FLOOR_CHARS, (block.resource.text ?? block.resource.blob ?? '').length);
    case 'resource_link':
    case 'unknown':
      return BLOCK_FLOOR_CHARS;
  }
}

/**
 * `content` within MAX_MESSAGE_CHARS: blocks past the limit are dropped, the block that crosses it is cut (text)
 * or dropped, and the note ends the message.
 */
export function withinMessageLimit(content: readonly ContentBlock[]): readonly ContentBlock[] {
  let total = 0;
  for (const block of content) total += blockChars(block);
  if (total <= MAX_MESSAGE_CHARS || messageIsFull(content)) return content;
  const kept: ContentBlock[] = [];
  let room = MAX_MESSAGE_CHARS - MESSAGE_TRUNCATED_NOTE.length;
  for (const block of content) {
    const size = blockChars(block);
    if (size <= room) {
      kept.push(block);
      room -= size;
      continue;
    }
    if (block.type === 'text' && room > 0) kept.push({ type: 'text', text: headOf(block.text, room) });
    break;
  }
  kept.push({ type: 'text', text: MESSAGE_TRUNCATED_NOTE });
  return kept;
}

/**
 * A message already cut at the limit takes nothing more. The note is a block of its own so this is one string
 * comparison (unequal lengths answer at once): looking for it at the end of a text built by appending
 * (`endsWith`) makes V8 flatten the whole text, once per chunk, and caching the answer per content array cost a
 * weak-map entry per chunk, a sixth of the host's update throughput.
 */
export function messageIsFull(content: readonly ContentBlock[]): boolean {
  const last = content[content.length - 1];
  return last?.type === 'text' && last.text === MESSAGE_TRUNCATED_NOTE;
}

function toolItemChars(item: ToolCallContent): number {
  switch (item.type) {
    case 'content':
      return blockChars(item.content);
    case 'diff': {
      let size = item.patch?.length ?? 0;
      for (const file of item.files) size += file.path.length + (file.oldText?.length ?? 0) + (file.newText?.length ?? 0);
      return Math.max(BLOCK_FLOOR_CHARS, size);
    }
    case 'terminal':
    case 'unknown':
      return BLOCK_FLOOR_CHARS;
  }
}

const TOOL_NOTE_ITEM: ToolCallContent = { type: 'content', content: { type: 'text', text: TOOL_CONTENT_TRUNCATED_NOTE } };

export function toolContentIsFull(content: readonly ToolCallContent[]): boolean {
  const last = content[content.length - 1];
  return last?.type === 'content' && last.content.type === 'text' && last.content.text === TOOL_CONTENT_TRUNCATED_NOTE;
}

/**
 * `content` within MAX_TOOL_CONTENT_CHARS: items past the limit are dropped, a text item that crosses it is cut
 * (a diff cut in the middle would show changes that were never made, so it is dropped whole), then the note.
 */
export function withinToolContentLimit(content: readonly ToolCallContent[]): readonly ToolCallContent[] {
  let total = 0;
  for (const item of content) total += toolItemChars(item);
  if (total <= MAX_TOOL_CONTENT_CHARS || toolContentIsFull(content)) return content;
  const kept: ToolCallContent[] = [];
  let room = MAX_TOOL_CONTENT_CHARS;
  for (const item of content) {
    const size = toolItemChars(item);
    if (size <= room) {
      kept.push(item);
      room -= size;
      continue;
    }
    if (item.type === 'content' && item.content.type === 'text' && room > 0)
      kept.push({ type: 'content', content: { type: 'text', text: headOf(item.content.text, room) } });
    break;
  }
  kept.push(TOOL_NOTE_ITEM);
  return kept;
}

/**
 * Whether the running turn may add another tool call. The first call over the limit adds a notice instead, once;
 * calls already shown keep updating.
 */
export function admitToolCall(state: TranscriptState): { readonly admitted: boolean; readonly state: TranscriptState } {
  if (state.turn.phase === 'idle') return { admitted: true, state };
  const count = state.turnToolCalls ?? 0;
  if (count < MAX_TOOL_CALLS_PER_TURN) return { admitted: true, state: { ...state, turnToolCalls: count + 1 } };
  if (count > MAX_TOOL_CALLS_PER_TURN) return { admitted: false, state };
  const [key, next] = takeLocalId({ ...state, turnToolCalls: count + 1 }, 'notice:');
  const notice: NoticeEntry = {
    kind: 'notice',
    key,
    severity: 'warning',
    title: `The agent started more than ${groupThousands(MAX_TOOL_CALLS_PER_TURN)} tool calls in this turn`,
    detail: 'Further tool calls of this turn are not shown (the agent keeps running; permission requests still show).',
  };
  return { admitted: false, state: appendEntry(next, notice) };
}
