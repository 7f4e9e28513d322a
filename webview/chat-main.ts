/**
 * The chat (dist/webview-chat.js), loaded by the page's first script (webview/main.ts) once the prompt from the
 * page's HTML is on screen: takes what that script kept (VS Code's API, the host's early messages) and the prompt
 * itself, with whatever was typed into it meanwhile.
 */
import { reduce } from '../src/shared/reducer';
import { trackTextGrowth } from '../src/shared/text-growth';
import type { HostToWebviewMessage } from '../src/shared/webview-protocol';
import { ChatApp, type ChatStats } from './app';
import { BOOT_PROMPT_SELECTOR, SEND_REQUESTED_ATTRIBUTE, type BootHandoff } from './boot-handoff';
import './elements';
import { MessagePump } from './host/message-pump';
import { PreviewKeeper } from '../src/shared/preview-keeper';
import { SnapshotAssembler } from './host/snapshot-assembler';
import { UiStore } from './host/ui-store';
import { acquireHostApi, connectToHost, isHostMessage } from './host/vscode-api';
import { AfterPaint } from './host/after-paint';
import { BROWSER_PAINT_CLOCK } from './host/browser-paint-clock';
import { warmUpElements } from './warm-up';
import { showPreview, type ShownPreview } from './transcript/preview-view';

declare global {
  interface Window {
    /** Render counters for benchmarks and end-to-end tests. */
    __acpChat?: ChatStats;
  }
}

// Messages are drawn here: a streaming one reads only its new text, not the whole text again.
trackTextGrowth();
// Without the boot script (a page that loads this alone) this acquires the API and listens from the start itself.
const boot: BootHandoff = window.__acpBoot ?? { api: acquireHostApi(), takeEarlyMessages: () => [] };
const channel = connectToHost(boot.api);
const uiStore = new UiStore(channel);
// The page saves its preview (up to 32 KB, once a second while streaming) through VS Code's webview transport, on
// the workbench's busy thread, beside the host's file. Measured as a cause of the stream's lag in the real VS Code
// with a slow machine emulated (bench stream part, BENCH_CONTEND=3), it was not: in alternating runs write → paint
// p95 read 38-72 ms (median 61) with these saves and 49-113 (median 72) with none, so they stay.
const previewKeeper = new PreviewKeeper(
  () => {
    const state = app?.transcriptState;
    return shownId !== undefined && state ? { conversationId: shownId, state } : undefined;
  },
  (preview) => uiStore.keepPreview(preview),
);
// Told of a change after the frame that draws it is painted: the keeper may save at once (previewOf and a post of up
// to 32 KB), which in the frame of a 10,000-entry snapshot's first message was 4 ms of a CPU profile at 0.5 speed.
const previewChanged = new AfterPaint(() => previewKeeper.changed(), BROWSER_PAINT_CLOCK);
function savePreviewNow(): void {
  previewChanged.flush();
  previewKeeper.saveNow();
}
// Hidden, a view's page goes: what the user changed in the draft reaches the host first.
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState !== 'hidden') return;
  uiStore.postDraftsNow();
  savePreviewNow();
});
window.addEventListener('pagehide', () => {
  uiStore.postDraftsNow();
  savePreviewNow();
});
const root = document.getElementById('root') ?? document.body;
/** One counter object for the page's life, whichever conversation is shown. */
const stats: ChatStats = { renders: 0, framesScheduled: 0 };
window.__acpChat = stats;
let app: ChatApp | undefined;
let shownId: string | undefined;
/** The saved preview on screen until the first chat replaces the page's first content. */
let preview: ShownPreview | undefined;
/** Host facts arrive once and stay true when the chat switches conversation. */
let hostInfo: Extract<HostToWebviewMessage, { type: 'host_info' }> | undefined;

/** The prompt from the page's HTML, taken by the first chat shown (it keeps what was typed, and the focus). */
function takeBootPrompt():
  | { prompt: HTMLTextAreaElement; focused: boolean; selection: [number, number]; sendRequested: boolean }
  | undefined {
  const prompt = document.querySelector<HTMLTextAreaElement>(BOOT_PROMPT_SELECTOR);
  if (!prompt) return undefined;
  prompt.removeAttribute('data-boot-prompt');
  const sendRequested = prompt.hasAttribute(SEND_REQUESTED_ATTRIBUTE);
  prompt.removeAttribute(SEND_REQUESTED_ATTRIBUTE);
  return {
    prompt,
    focused: document.activeElement === prompt,
    selection: [prompt.selectionStart, prompt.selectionEnd],
    sendRequested,
  };
}

function show(conversationId: string, draft: string): ChatApp {
  app?.dispose();
  preview?.dispose();
  preview = undefined;
  shownId = conversationId;
  stats.conversationId = conversationId;
  delete stats.drawnEntries;
  const adopted = takeBootPrompt();
  const typed = adopted?.prompt.value ?? '';
  const next = new ChatApp(
    uiStore.channelFor(conversationId, draft, typed),
    reduce,
    stats,
    adopted && {
      prompt: adopted.prompt,
      sendRequested: adopted.sendRequested,
      preview: document.querySelector('.boot-preview') ?? undefined,
    },
  );
  // In the page beside its first content, so that the page's prompt moves in keeping its focus (placeBootPrompt).
  root.append(next.element);
  const focusKept = next.placeBootPrompt();
  for (const child of [...root.childNodes]) if (child !== next.element) child.remove();
  if (adopted) {
    const end = adopted.prompt.value.length;
    const keptTyped = adopted.prompt.value === typed;
    if (adopted.focused && !focusKept) {
      // Moving the prompt into the chat took the focus from it: the user is typing there. Without scrolling: the
      // prompt is on screen at the chat's foot, and scrolling it into view lays the whole new chat out here, in the
      // message's task, before its transcript is drawn (a CPU profile with the CPU throttled 2x: focus() took 6.8 ms
      // with the scroll, 3.5 without), and the frame lays it out again.
      adopted.prompt.focus({ preventScroll: true });
      // The caret where it was in what the user typed.
      if (keptTyped) adopted.prompt.setSelectionRange(...adopted.selection);
    }
    // At the end of a draft brought back (at its start, the next keystrokes went in front of the restored text).
    if (!keptTyped) adopted.prompt.setSelectionRange(end, end);
  }
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
  if (message.type === 'snapshot' || message.type === 'actions') previewChanged.request();
}

const pump = new MessagePump(
  (data) => (isHostMessage(data) ? snapshots.accept(data) : []),
  dispatch,
  () => ({ pending: app?.framePending ?? false, drawn: stats.renders }),
  // The task after an animation frame's callbacks runs after that frame's paint.
  (next) => requestAnimationFrame(() => setTimeout(next, 0)),
);
const early = boot.takeEarlyMessages();
function restorePreview(): ShownPreview | undefined {
  const saved = uiStore.restoredPreview();
  const area = document.querySelector('.transcript-area');
  return saved && area instanceof HTMLElement ? showPreview(area, saved.preview, saved.ui) : undefined;
}
/**
 * After Reload Window the conversation's newest entries come from the page's saved state, drawn now rather than once
 * the rest of the extension has loaded and read the history; the host's snapshot replaces them (in `show`). Not the
 * draft: VS Code in the browser persists a webview's state about once a minute (its storage cannot be written while
 * the page unloads), so the saved draft can be older than the host's, and typing onto it would replace the newer.
 */
// The page's HTML holds a preview already: the host's (src/views/preview-file.ts), as new as the host's transcript,
// where the saved state's may be older. It stays until the snapshot replaces it.
const inHtml = document.querySelector('.boot-preview') !== null;
if (!inHtml && !early.some((event) => isHostMessage(event.data) && event.data.type === 'snapshot')) preview = restorePreview();
for (const event of early) pump.push(event);
window.addEventListener('message', (event: MessageEvent<unknown>) => pump.push(event));
// No conversation yet: the page waits for the host, and readies the chat's controls meanwhile (warm-up.ts).
if (!app)
  requestIdleCallback(
    () => {
      if (!app) warmUpElements();
    },
    { timeout: 500 },
  );
// The boot script said `ready` already; a page without it says it here.
if (!window.__acpBoot) channel.post({ type: 'ready' });
// The bench's open-time phases (bench/webview/open-bench.ts): when the chat's script had run.
performance.mark('acp:script-evaluated');
