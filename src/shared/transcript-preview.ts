/**
 * The newest entries of the conversation on screen, kept in the webview's saved state and by the host in a file of
 * its own (src/views/preview-file.ts: VS Code in a browser does not always keep a page's saved state over a reload),
 * so that after Reload Window they are on screen before the rest of the extension has loaded and read the history: the host puts them in the
 * page's HTML (src/views/preview-html.ts, read back with src/shared/saved-preview.ts), and the page draws them
 * with the chat's own views as soon as its chat script has run. Only a preview: the host's snapshot replaces it.
 *
 * Bounded: VS Code posts the whole saved state to the workbench on every save (each keystroke's draft too), so the
 * tail is cut at PREVIEW_MAX_CHARS of JSON, and saved at most once a second (preview-keeper.ts). A last entry larger
 * than that alone, or a view scrolled up, leave no preview, and the view waits for the host as before. A turn that
 * was running is shown as it was last saved: the host's snapshot says it was interrupted.
 */
import type { Entry, TerminalRecord, TranscriptState } from './model';
import { fromEntries } from './pages';
import { initialState } from './reducer';
import type { TranscriptPreview } from './saved-preview';

export const PREVIEW_MAX_CHARS = 32_000;
/** A terminal's output in the preview: the tail a screen shows of it. */
const PREVIEW_TERMINAL_CHARS = 2_000;

/** The preview of `state`, or undefined where there is none worth keeping (see the top of this file). */
export function previewOf(conversationId: string, state: TranscriptState, maxChars = PREVIEW_MAX_CHARS): TranscriptPreview | undefined {
  const entries: Entry[] = [];
  let left = maxChars;
  for (const entry of newestFirst(state)) {
    // Its text alone over the bound: no need to serialize it to know (a 20 MB answer, once a second while it streams).
    if (textLength(entry) > left) break;
    const size = JSON.stringify(entry).length;
    if (size > left) break;
    left -= size;
    entries.push(entry);
  }
  return finish(conversationId, entries.reverse(), state.terminals, left);
}

/** The characters of a message's text blocks: less than its JSON, so a bound it is over, its JSON is over too. */
function textLength(entry: Entry): number {
  if (entry.kind !== 'message') return 0;
  let length = 0;
  for (const block of entry.content) if (block.type === 'text') length += block.text.length;
  return length;
}

function* newestFirst(state: TranscriptState): Generator<Entry> {
  for (let page = state.pages.length - 1; page >= 0; page--) {
    const entries = state.pages[page] ?? [];
    for (let index = entries.length - 1; index >= 0; index--) {
      const entry = entries[index];
      if (entry) yield entry;
    }
  }
}

function finish(
  conversationId: string,
  entries: Entry[],
  allTerminals: TranscriptState['terminals'],
  charsLeft: number,
): TranscriptPreview | undefined {
  if (entries.length === 0) return undefined;
  const toolCalls = new Set(entries.flatMap((entry) => (entry.kind === 'tool_call' ? [entry.toolCallId] : [])));
  const terminals: Record<string, TerminalRecord> = {};
  let left = charsLeft;
  for (const terminal of Object.values(allTerminals)) {
    if (!terminal.toolCallIds.some((id) => toolCalls.has(id))) continue;
    const cut = terminal.output.length > PREVIEW_TERMINAL_CHARS;
    const kept: TerminalRecord = {
      ...terminal,
      output: cut ? terminal.output.slice(-PREVIEW_TERMINAL_CHARS) : terminal.output,
      trimmed: terminal.trimmed || cut,
    };
    left -= JSON.stringify(kept).length;
    if (left < 0) break;
    terminals[terminal.terminalId] = kept;
  }
  return { conversationId, entries, terminals };
}

/** A transcript state holding the preview's entries, as the chat's transcript draws one. */
export function previewState(preview: TranscriptPreview): TranscriptState {
  return fromEntries({ ...initialState(), terminals: preview.terminals }, preview.entries);
}
