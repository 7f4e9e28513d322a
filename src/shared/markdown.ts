/**
 * The one markdown renderer: raw HTML off, images off (the CSP would block remote ones anyway), links limited to
 * safe targets. Rendered HTML of a block is cached by its text so finished blocks (and entries scrolled back
 * into view) are never rendered twice. DOM-free: the chat draws with it, and the host with it puts a restored page's
 * saved conversation in the page's HTML (src/views/preview-html.ts), so both show the same.
 */
import MarkdownIt from 'markdown-it';
import { visibleProse, visibleText } from './visible-text';
import { isSafeLink } from './link-safety';

const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: false });
markdown.validateLink = isSafeLink;
markdown.disable('image');
// Prose keeps right-to-left text but shows embeddings and overrides, so a message cannot make a file name read as
// another; code (where Trojan Source hides) shows every bidi and invisible character, as VS Code's editor does.
// Rendered blocks are separate bidi paragraphs (and isolated in CSS), so nothing reorders the UI around them.
markdown.core.ruler.push('visible_text', (state) => {
  for (const token of state.tokens) {
    if (token.type === 'fence' || token.type === 'code_block') token.content = visibleText(token.content, 'multiline');
    for (const child of token.children ?? []) {
      if (child.type === 'code_inline') child.content = visibleText(child.content, 'multiline');
      else if (child.type === 'text') child.content = visibleProse(child.content);
    }
  }
});

// A code block scrolls sideways rather than wrapping: it is a tab stop, so the keyboard can scroll it too.
for (const rule of ['fence', 'code_block'] as const) {
  const render = markdown.renderer.rules[rule];
  if (!render) continue;
  markdown.renderer.rules[rule] = (...args) => render(...args).replace(/^<pre>/, '<pre tabindex="0">');
}

const CACHE_LIMIT = 2000;
const cache = new Map<string, string>();

/**
 * `renderMarkdown` without the cache, for text that will not be rendered again: a streaming message's last block,
 * drawn anew each frame as it grows. Cached, every version of it was kept (a copy of its text and its HTML), each
 * pushing a finished block out of the cache.
 */
export function renderMarkdownOnce(text: string): string {
  return cache.get(text) ?? markdown.render(text);
}

export function renderMarkdown(text: string): string {
  const cached = cache.get(text);
  if (cached !== undefined) return cached;
  const html = markdown.render(text);
  if (cache.size >= CACHE_LIMIT) {
    // Map keeps insertion order: drop the oldest quarter in one go rather than one per insert.
    let toDrop = CACHE_LIMIT / 4;
    for (const key of cache.keys()) {
      cache.delete(key);
      if (--toDrop === 0) break;
    }
  }
  cache.set(detached(text), html);
  return html;
}

/**
 * A copy of `text` that does not hold on to a longer string it was cut from: a block of a streaming message is a
 * slice of that message's whole text at the time, and a cache of slices would keep every version of it alive.
 */
function detached(text: string): string {
  return ` ${text}`.slice(1);
}
