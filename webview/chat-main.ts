/** Entry point of the chat webview bundle (dist/webview.js). */
import { reduce } from '../src/shared/reducer';
import { trackTextGrowth } from '../src/shared/text-growth';
import type { HostToWebviewMessage } from '../src/shared/webview-protocol';
import { ChatApp, type ChatStats } from './app';
import './elements';
import { MessagePump } from './message-pump';
import { SnapshotAssembler } from './snapshot-assembler';
import { UiStore } from './ui-store';
import { connectToHost, isHostMessage } from './vscode-api';

declare global {
  interface Window {
    /** Render counters for benchmarks and end-to-end tests. */
    __acpChat?: ChatStats;
  }
}

// Messages are drawn here: a streaming one reads only its new text, not the whole text again.
trackTextGrowth();
const channel = connectToHost();
const uiStore = new UiStore(channel);
const root = document.getElementById('root') ?? document.body;
/** One counter object for the page's life, whichever conversation is shown. */
const stats: ChatStats = { renders: 0, framesScheduled: 0 };
window.__acpChat = stats;
let app: ChatApp | undefined;
let shownId: string | undefined;
/** Host facts arrive once and stay true when the chat switches conversation. */
let hostInfo: Extract<HostToWebviewMessage, { type: 'host_info' }> | undefined;

function show(conversationId: string, draft: string): ChatApp {
  app?.dispose();
  shownId = conversationId;
  stats.conversationId = conversationId;
  delete stats.drawnEntries;
  const next = new ChatApp(uiStore.channelFor(conversationId, draft), reduce, stats);
  root.replaceChildren(next.element);
  if (hostInfo) next.handle(hostInfo);
  app = next;
  return next;
}

const snapshots = new SnapshotAssembler();

function dispatch(message: HostToWebviewMessage): void {
  if (message.type === 'host_info') hostInfo = message;
  // Another conversation: a fresh chat, so nothing of the last one (DOM, drafts, expansions) leaks into it.
  const target = message.type === 'snapshot' && message.conversationId !== shownId ? show(message.conversationId, message.draft) : app;
  target?.handle(message);
}

const pump = new MessagePump(
  (data) => (isHostMessage(data) ? snapshots.accept(data) : []),
  dispatch,
  () => app?.framePending ?? false,
  // The task after an animation frame's callbacks runs after that frame's paint.
  (next) => requestAnimationFrame(() => setTimeout(next, 0)),
);
window.addEventListener('message', (event: MessageEvent<unknown>) => pump.push(event));
channel.post({ type: 'ready' });
