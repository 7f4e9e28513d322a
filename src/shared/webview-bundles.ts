/**
 * The chat webview's files under dist/ (esbuild.mjs builds them): its stylesheet, the prompt's guard (which the HTML
 * holds itself), the page's first, small fetched script, and the chat, which the page preloads from its HTML
 * (src/views/chat-html.ts) and the first script runs after the first frame (webview/main.ts).
 */
export const PROMPT_GUARD_SCRIPT = 'prompt-guard.js';
export const BOOT_SCRIPT = 'webview.js';
export const CHAT_SCRIPT = 'webview-chat.js';
/** The chat's stylesheets as one file (esbuild.mjs bundles media/chat-page.css). */
export const CHAT_STYLESHEET = 'chat-page.css';
