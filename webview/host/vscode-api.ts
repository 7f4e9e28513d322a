/** The webview's side of the VS Code API, typed to our protocol. */
import type { HostToWebviewMessage, WebviewToHostMessage } from '../../src/shared/webview-protocol';

export interface VsCodeWebviewApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeWebviewApi;

export interface HostChannel {
  post(message: WebviewToHostMessage): void;
  loadUiState(): unknown;
  saveUiState(state: unknown): void;
}

/** VS Code's API for this page; a page may acquire it once only (the boot script does, webview/main.ts). */
export function acquireHostApi(): VsCodeWebviewApi {
  return acquireVsCodeApi();
}

export function connectToHost(api: VsCodeWebviewApi): HostChannel {
  return {
    post: (message) => api.postMessage(message),
    loadUiState: () => api.getState(),
    saveUiState: (state) => api.setState(state),
  };
}

const HOST_MESSAGE_TYPES: ReadonlySet<string> = new Set<HostToWebviewMessage['type']>([
  'snapshot',
  'snapshot_part',
  'actions',
  'host_info',
  'focus_composer',
  'prompt_rejected',
  'add_attachments',
  'file_matches',
]);

/** The host is trusted, but `message` events can come from elsewhere in the page: check the tag at least. */
export function isHostMessage(data: unknown): data is HostToWebviewMessage {
  return typeof data === 'object' && data !== null && 'type' in data && typeof data.type === 'string' && HOST_MESSAGE_TYPES.has(data.type);
}
