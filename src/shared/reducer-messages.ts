/**
 * Messages: v1 chunks (append to the last message of the same role, else start one), v2 upserts by messageId
 * with seed 002's semantics (omitted content unchanged; null or [] clears; an array replaces everything
 * including earlier chunks; later chunks append; a new messageId starts a new message).
 */
import type { ContentBlock } from './content';
import type { Entry, MessageEntry, MessageRole, TranscriptState } from './model';
import { appendEntry, entryAtPosition, lastEntry, positionOf, removeEntry, replaceEntry } from './pages';
import type { MessageChunkKind, MessageUpsertKind } from './updates';
import { takeLocalId } from './reducer-ids';
import { activeTurnId } from './selectors';
import { messageIsFull, withinMessageLimit } from './reducer-limits';
import { userPromptKey } from './reducer-turns';
import { recordAppend } from './text-growth';

const ROLE_OF: Record<MessageChunkKind | MessageUpsertKind, MessageRole> = {
  user_message_chunk: 'user',
  agent_message_chunk: 'agent',
  agent_thought_chunk: 'thought',
  user_message: 'user',
  agent_message: 'agent',
  agent_thought: 'thought',
};

function messageKey(role: MessageRole, messageId: string): string {
  return `msg:${role}:${messageId}`;
}

/**
 * Appends a block, merging consecutive text so a streamed message stays one block however long it grows, within
 * MAX_MESSAGE_CHARS (a message cut at the limit takes nothing more).
 */
export function appendBlock(content: readonly ContentBlock[], block: ContentBlock): readonly ContentBlock[] {
  if (messageIsFull(content)) return content;
  const last = content[content.length - 1];
  let grown: readonly ContentBlock[];
  if (last?.type === 'text' && block.type === 'text') {
    const merged = content.slice();
    const text = { type: 'text' as const, text: last.text + block.text };
    recordAppend(last, text, block.text);
    merged[merged.length - 1] = text;
    grown = merged;
  } else grown = [...content, block];
  return withinMessageLimit(grown);
}

/**
 * The message at `position` with `block` appended; the same state when the message is full (MAX_MESSAGE_CHARS): a
 * chunk that changes nothing is not an update, so the host does not post it. A 20 MB message's 16 MB past the
 * limit went to the webview as 250 posts that changed nothing there either, on the workbench's busy thread.
 */
function appendToEntry(state: TranscriptState, position: number, entry: MessageEntry, block: ContentBlock): TranscriptState {
  const content = appendBlock(entry.content, block);
  return content === entry.content ? state : replaceEntry(state, position, { ...entry, content });
}

export function applyChunk(
  state: TranscriptState,
  kind: MessageChunkKind,
  block: ContentBlock,
  messageId: string | undefined,
): TranscriptState {
  const role = ROLE_OF[kind];
  const prompt = role === 'user' && messageId !== undefined ? sentPromptNamed(state, messageId) : undefined;
  if (prompt) return absorbEcho(prompt.state, prompt.position, block);
  if (messageId !== undefined) {
    const key = messageKey(role, messageId);
    const position = positionOf(state, key);
    const existing = position === undefined ? undefined : entryAtPosition(state, position);
    if (position !== undefined && existing?.kind === 'message') {
      return appendToEntry(state, position, existing, block);
    }
    return appendEntry(state, newMessage(state, key, role, [block], messageId));
  }
  // Nothing from before the current session opened (a resumed or reloaded conversation) is continued by a chunk.
  const last = state.entryCount - 1 >= (state.sessionOpenedAt ?? 0) ? lastEntry(state) : undefined;
  if (last?.kind === 'message' && last.role === 'user' && role === 'user' && isSentPrompt(last))
    return absorbEcho(state, state.entryCount - 1, block);
  if (last?.kind === 'message' && last.role === role) {
    return appendToEntry(state, state.entryCount - 1, last, block);
  }
  if (last?.kind === 'turn_end' && state.turn.phase === 'idle') {
    // Real agents can flush a last chunk just after answering the prompt: it belongs to that turn's message, above
    // the turn's end line, not to a stray message of its own.
    const before = state.entryCount - 2 >= (state.sessionOpenedAt ?? 0) ? entryAtPosition(state, state.entryCount - 2) : undefined;
    if (before?.kind === 'message' && before.role === role && before.turnId === last.turnId) {
      return appendToEntry(state, state.entryCount - 2, before, block);
    }
  }
  const [key, next] = takeLocalId(state, `msg:${role}:local-`);
  return appendEntry(next, newMessage(next, key, role, [block], undefined));
}

export function applyUpsert(
  state: TranscriptState,
  kind: MessageUpsertKind,
  messageId: string,
  content: readonly ContentBlock[] | null | undefined,
): TranscriptState {
  const role = ROLE_OF[kind];
  const prompt = role === 'user' ? sentPromptNamed(state, messageId) : undefined;
  if (prompt) {
    // The agent's record of the prompt patches ours (schema: same messageId, fields patch), and never doubles it.
    if (content === undefined) return prompt.state;
    return replaceEntry(prompt.state, prompt.position, { ...prompt.entry, content: content ?? [] });
  }
  const key = messageKey(role, messageId);
  const position = positionOf(state, key);
  const existing = position === undefined ? undefined : entryAtPosition(state, position);
  if (position === undefined || existing?.kind !== 'message') {
    return appendEntry(state, newMessage(state, key, role, content ?? [], messageId));
  }
  if (content === undefined) return state;
  return replaceEntry(state, position, { ...existing, content: withinMessageLimit(content ?? []) });
}

/**
 * v2: the agent inserted the prompt sent in `turnId` as message `messageId`. Its echo, if it already came and was
 * not recognised, is folded into the prompt.
 */
export function adoptPromptMessageId(state: TranscriptState, turnId: string, messageId: string): TranscriptState {
  const key = userPromptKey(turnId);
  const position = positionOf(state, key);
  const entry = position === undefined ? undefined : entryAtPosition(state, position);
  if (position === undefined || entry?.kind !== 'message') return state;
  if (entry.messageId === messageId && state.promptMessageIds[messageId] === key) return state;
  let next = replaceEntry(state, position, { ...entry, messageId });
  next = { ...next, promptMessageIds: { ...next.promptMessageIds, [messageId]: key } };
  return removeEntry(next, messageKey('user', messageId));
}

/**
 * The sent prompt a user message id refers to: one already adopted, or (the echo may come before the prompt's
 * `{messageId}` answer) a new id arriving while the running turn's prompt has none yet, which it then adopts.
 */
function sentPromptNamed(
  state: TranscriptState,
  messageId: string,
): { state: TranscriptState; position: number; entry: MessageEntry } | undefined {
  const known = state.promptMessageIds[messageId];
  const turnId = activeTurnId(state);
  const key =
    known ?? (turnId !== undefined && positionOf(state, messageKey('user', messageId)) === undefined ? userPromptKey(turnId) : undefined);
  if (key === undefined) return undefined;
  const position = positionOf(state, key);
  const entry = position === undefined ? undefined : entryAtPosition(state, position);
  if (position === undefined || entry?.kind !== 'message') return undefined;
  if (known !== undefined) return { state, position, entry };
  if (entry.messageId !== undefined) return undefined;
  const adopted: MessageEntry = { ...entry, messageId };
  const next = replaceEntry(state, position, adopted);
  return { state: { ...next, promptMessageIds: { ...next.promptMessageIds, [messageId]: key } }, position, entry: adopted };
}

/** A user chunk for the sent prompt: text that repeats what the user sent is an echo and is absorbed. */
function absorbEcho(state: TranscriptState, position: number, block: ContentBlock): TranscriptState {
  const prompt = entryAtPosition(state, position);
  if (prompt?.kind !== 'message') return state;
  const echoed = prompt.echoed ?? 0;
  if (block.type === 'text' && textOf(prompt).startsWith(block.text, echoed)) {
    return replaceEntry(state, position, { ...prompt, echoed: echoed + block.text.length });
  }
  // The rest of the echo with text the agent appended to it, in one chunk (coalesced on the host, or sent so): the
  // echo is absorbed and what follows is the agent's own message.
  const rest = textOf(prompt).slice(echoed);
  if (block.type === 'text' && rest !== '' && block.text.startsWith(rest)) {
    const echoedAll = replaceEntry(state, position, { ...prompt, echoed: echoed + rest.length });
    return absorbEcho(echoedAll, position, { ...block, text: block.text.slice(rest.length) });
  }
  if (prompt.messageId !== undefined) return replaceEntry(state, position, { ...prompt, content: appendBlock(prompt.content, block) });
  // Not an echo: user content from the agent is its own message, never glued onto what the user typed.
  const [key, next] = takeLocalId(state, 'msg:user:local-');
  return appendEntry(next, newMessage(next, key, 'user', [block], undefined));
}

/** The message this client created when the user sent a prompt (see reducer-turns). */
function isSentPrompt(entry: MessageEntry): boolean {
  return entry.turnId !== undefined && entry.key === userPromptKey(entry.turnId);
}

function textOf(entry: MessageEntry): string {
  return entry.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

function newMessage(
  state: TranscriptState,
  key: string,
  role: MessageRole,
  content: readonly ContentBlock[],
  messageId: string | undefined,
): Entry {
  const turnId = activeTurnId(state);
  const entry: MessageEntry = {
    kind: 'message',
    key,
    role,
    content: withinMessageLimit(content),
    ...(messageId !== undefined ? { messageId } : {}),
    ...(turnId !== undefined ? { turnId } : {}),
  };
  return entry;
}
