/**
 * Entry point of the chat webview (dist/webview.js), kept small: the prompt is already on screen from the page's
 * HTML; this switches the codicons on, tells the host the view is ready (so the snapshot is on its way while the
 * chat loads), keeps the host's messages until the chat listens, and loads the chat (dist/webview-chat.js) after
 * the first frame, so that frame is painted before the big script is read.
 */
import { BOOT_PROMPT_SELECTOR, CHAT_SCRIPT, type BootHandoff } from './boot-handoff';
import { acquireHostApi, connectToHost } from './host/vscode-api';

const ownScript = document.currentScript instanceof HTMLScriptElement ? document.currentScript : undefined;
// Linked for print so it does not hold the first paint (src/views/chat-html.ts).
document.getElementById('vscode-codicon-stylesheet')?.setAttribute('media', 'all');

const api = acquireHostApi();
const early: MessageEvent<unknown>[] = [];
const keep = (event: MessageEvent<unknown>): void => void early.push(event);
window.addEventListener('message', keep);
const handoff: BootHandoff = {
  api,
  sendRequested: false,
  takeEarlyMessages: () => {
    window.removeEventListener('message', keep);
    return early.splice(0);
  },
};
window.__acpBoot = handoff;

// Enter sends, in the chat; before the chat has loaded it must not become a newline: the chat sends it when it can.
const prompt = document.querySelector<HTMLTextAreaElement>(BOOT_PROMPT_SELECTOR);
prompt?.addEventListener('keydown', (event) => {
  if (!prompt.hasAttribute('data-boot-prompt')) return;
  if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
  event.preventDefault();
  handoff.sendRequested = true;
});

// Where typing goes, as in the chat (webview/app.ts) until it takes over: the prompt, when the page itself has the
// focus (VS Code focuses the frame of a view it opens) or a character is typed with the focus nowhere.
const focusPrompt = (): void => {
  const nowhere = document.activeElement === document.body || document.activeElement === null;
  if (prompt?.hasAttribute('data-boot-prompt') && nowhere) prompt.focus();
};
if (document.hasFocus()) focusPrompt();
window.addEventListener('focus', focusPrompt);
document.addEventListener('keydown', (event) => {
  if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) focusPrompt();
});

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
