/**
 * The chat webview's files under dist/ (esbuild.mjs builds them): its stylesheet, the page's first, small script, and
 * the chat, which the page preloads from its HTML (src/views/chat-html.ts) and the first script runs after the first
 * frame (webview/main.ts).
 */
export const BOOT_SCRIPT = 'webview.js';
export const CHAT_SCRIPT = 'webview-chat.js';
/** The chat's stylesheets as one file (esbuild.mjs bundles media/chat-page.css). */
export const CHAT_STYLESHEET = 'chat-page.css';
