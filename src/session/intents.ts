/**
 * What the user asks for, from the chat view or a command, turned into controller calls. One place, so the
 * chat's buttons and the command palette behave the same. (The view's own bookkeeping, sync and file
 * completion, stays in the view provider.)
 */
import type { WebviewToHostMessage } from '../shared/webview-protocol';

export type UserIntent = Exclude<WebviewToHostMessage, { type: 'ready' | 'resync' | 'attachments_taken' | 'find_files' | 'draft_changed' }>;
