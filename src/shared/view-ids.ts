/**
 * The ids of the extension's views, as package.json contributes them. Here, away from the views' own modules,
 * because the small first bundle (src/extension.ts) registers both views and must not load those modules.
 */
export const CHAT_VIEW_ID = 'acpClient.chat';
export const SESSIONS_VIEW_ID = 'acpClient.sessions';
