/**
 * The preview of a conversation that the chat's page keeps in its saved state (src/shared/transcript-preview.ts
 * makes it, webview/host/ui-store.ts keeps it), read back: by the page, to draw it before the host's snapshot comes,
 * and by the host, to put it in the page's HTML after Reload Window (src/views/preview-html.ts). Pure.
 *
 * The saved state is this page's own (VS Code keeps it in the user's storage, not the workspace), so only the shape
 * the drawing relies on is checked, as the history loader does; whoever draws it escapes every string it holds.
 */
import type { Entry, TerminalRecord } from './model';
import { isRecord, looksLikeEntry } from './shape-checks';

export interface TranscriptPreview {
  readonly conversationId: string;
  /** Oldest first. */
  readonly entries: readonly Entry[];
  /** The terminals those entries' tool calls show, their output cut to its tail. */
  readonly terminals: Readonly<Record<string, TerminalRecord>>;
}

/** A preview read back from the saved state, or undefined. */
export function parsePreview(raw: unknown): TranscriptPreview | undefined {
  if (!isRecord(raw) || typeof raw['conversationId'] !== 'string' || !Array.isArray(raw['entries'])) return undefined;
  const entries: unknown[] = raw['entries'];
  if (!entries.every(looksLikeEntry)) return undefined;
  const terminals = isRecord(raw['terminals']) ? raw['terminals'] : {};
  const terminalsOk = Object.values(terminals).every(
    (terminal) => isRecord(terminal) && typeof terminal['output'] === 'string' && Array.isArray(terminal['toolCallIds']),
  );
  return {
    conversationId: raw['conversationId'],
    entries,
    terminals: terminalsOk ? (terminals as Record<string, TerminalRecord>) : {},
  };
}

/**
 * The preview in a page's saved state (`{ current, conversations: [{ id, ui }], preview }`) if it is the one to draw:
 * of the conversation that was on screen, and only where that conversation was followed at its newest entries (a
 * view scrolled up reopens where it was, which the preview does not hold).
 */
export function previewOnScreen(saved: unknown): TranscriptPreview | undefined {
  if (!isRecord(saved)) return undefined;
  const preview = parsePreview(saved['preview']);
  if (!preview || preview.conversationId !== saved['current']) return undefined;
  return scrolledUp(saved, preview.conversationId) ? undefined : preview;
}

/** The page's saved state says the view of `conversationId` was scrolled up from its newest entries. */
export function scrolledUp(saved: unknown, conversationId: string): boolean {
  if (!isRecord(saved)) return false;
  const conversations = Array.isArray(saved['conversations']) ? saved['conversations'] : [];
  const shown: unknown = conversations.find((item: unknown) => isRecord(item) && item['id'] === conversationId);
  const ui = isRecord(shown) ? shown['ui'] : undefined;
  const scroll = isRecord(ui) ? ui['scroll'] : undefined;
  // As the page reads its UI state (webview/host/ui-state.ts): a position not saved is at the bottom.
  return isRecord(scroll) && scroll['atBottom'] === false;
}
