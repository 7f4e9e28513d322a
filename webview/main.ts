/**
 * Entry point of the chat webview (dist/webview.js), kept small: the prompt is already on screen from the page's
 * HTML, and its inline script (webview/prompt-guard.ts) already makes Enter and typing behave; this switches the
 * codicons on, tells the host the view is ready (so the snapshot is on its way while the chat loads), keeps the
 * host's messages until the chat listens, and loads the chat (dist/webview-chat.js) after the first frame, so that
 * frame is painted before the big script is read.
 */
import { CHAT_SCRIPT, type BootHandoff } from './boot-handoff';
import { acquireHostApi, connectToHost } from './host/vscode-api';

const ownScript = document.currentScript instanceof HTMLScriptElement ? document.currentScript : undefined;
// Linked for print so it does not hold the first paint (src/views/chat-html.ts).
document.getElementById('vscode-codicon-stylesheet')?.setAttribute('media', 'all');

const api = acquireHostApi();
const early: MessageEvent<unknown>[] = [];
const keep = (event: MessageEvent<unknown>): void => void early.push(event);
window.addEventListener('message', keep);
window.__acpBoot = {
  api,
  takeEarlyMessages: () => {
    window.removeEventListener('message', keep);
    return early.splice(0);
  },
} satisfies BootHandoff;

connectToHost(api).post({ type: 'ready' });

let chatLoading = false;
function loadChat(): void {
  if (chatLoading) return;
  chatLoading = true;
  const chat = document.createElement('script');
  chat.nonce = ownScript?.nonce ?? '';
  chat.src = new URL(CHAT_SCRIPT, ownScript?.src ?? location.href).href;
  document.body.append(chat);
}
requestAnimationFrame(loadChat);
// A page that is not rendered (a panel behind another) gets no animation frames: it loads all the same.
setTimeout(loadChat, 500);
