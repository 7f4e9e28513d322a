/**
 * What the page's first, small script (webview/main.ts) hands the chat's big one (webview/chat-main.ts): VS Code's
 * API (a page acquires it once) and the host's messages that arrived before the chat listened, in order. Whether
 * Enter was pressed in the prompt before the chat could send is on the prompt itself (webview/prompt-guard.ts).
 */
import type { VsCodeWebviewApi } from './host/vscode-api';

export { CHAT_SCRIPT } from '../src/shared/webview-bundles';

export interface BootHandoff {
  readonly api: VsCodeWebviewApi;
  /** The messages kept so far; from here on the chat listens itself. */
  takeEarlyMessages(): MessageEvent<unknown>[];
}

declare global {
  interface Window {
    __acpBoot?: BootHandoff;
  }
}

/** The prompt that is in the page's HTML (src/views/chat-html.ts), until the chat adopts it. */
export const BOOT_PROMPT_SELECTOR = 'textarea[data-boot-prompt]';
/** On that prompt: Enter was pressed before the chat loaded, so the chat sends the draft once it can. */
export const SEND_REQUESTED_ATTRIBUTE = 'data-send-requested';
