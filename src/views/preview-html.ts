/**
 * The conversation's saved preview (src/shared/saved-preview.ts) as HTML in the chat page itself: after Reload Window
 * (or when the view is shown again) the newest entries are on screen in the page's first frame, with the prompt,
 * instead of once the page's scripts have come through the workbench and run (0.4-0.7 s after that frame on a slow
 * 2-core machine, issue 31). The chat's script replaces it with its own drawing, then with the host's snapshot.
 *
 * A stand-in, not the chat: read-only (`inert`, so none of it can be clicked, followed or focused), and only what
 * reads the same without the chat's script: user messages as plain text, agent messages through the one markdown
 * renderer the chat uses (raw HTML off, links limited to safe targets), thoughts and tool calls as their one line.
 * Every other string is escaped: the preview holds agent text, and the page's HTML is no place for any of it raw.
 *
 * Loaded lazily (esbuild.mjs, lazy parts): markdown-it is not part of the bundle VS Code compiles at every start.
 */
import { visibleText } from '../shared/visible-text';
import { renderMarkdown } from '../shared/markdown';
import type { Entry } from '../shared/model';
import type { TranscriptPreview } from '../shared/saved-preview';
import { escapeHtml } from './chat-html';

/** At most this much HTML goes into the page (the preview is 32 KB of JSON at most; markdown adds its tags). */
export const PREVIEW_HTML_MAX_CHARS = 96_000;
/** A message's text beyond this is cut, as the chat cuts long texts for display. */
const TEXT_LIMIT = 20_000;

function textOf(entry: Extract<Entry, { kind: 'message' }>): string {
  const text = entry.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n\n');
  return text.length > TEXT_LIMIT ? `${text.slice(0, TEXT_LIMIT)}\n…` : text;
}

function entryHtml(entry: Entry): string | undefined {
  const attributes = `data-entry-key="${escapeHtml(entry.key)}" data-kind="${escapeHtml(entry.kind)}"`;
  switch (entry.kind) {
    case 'message': {
      if (entry.role === 'thought')
        return `<div class="entry message thought" ${attributes}><div class="thought-toggle">Thought</div></div>`;
      const text = textOf(entry);
      if (text.trim() === '') return undefined;
      if (entry.role === 'user')
        return `<div class="entry message user" ${attributes}><div class="message-body user-bubble"><div class="plain-text">${escapeHtml(visibleText(text, 'multiline'))}</div></div></div>`;
      return `<div class="entry message agent" ${attributes}><div class="message-body"><div class="markdown">${renderMarkdown(text)}</div></div></div>`;
    }
    case 'tool_call':
      return `<div class="entry tool-call" ${attributes}><div class="card"><div class="card-header"><span class="tool-title">${escapeHtml(visibleText(entry.title) || 'Tool call')}</span></div></div></div>`;
    default:
      // Plans, turn ends, notices, compactions, change sets: the chat draws them a moment later.
      return undefined;
  }
}

/** The preview's newest entries as HTML (within PREVIEW_HTML_MAX_CHARS), or '' when none of them reads as such. */
export function previewHtml(preview: TranscriptPreview): string {
  const parts: string[] = [];
  let size = 0;
  for (let index = preview.entries.length - 1; index >= 0; index--) {
    const entry = preview.entries[index];
    const html = entry && entryHtml(entry);
    if (!html) continue;
    if (size + html.length > PREVIEW_HTML_MAX_CHARS) break;
    size += html.length;
    parts.push(html);
  }
  if (parts.length === 0) return '';
  // The newest at the bottom without a script to scroll there (chat.css: a reversed flex box starts scrolled to its end).
  return `<div class="transcript boot-preview" role="log" aria-label="Conversation" aria-busy="true" inert><div class="boot-preview-entries">${parts.reverse().join('')}</div></div>`;
}
