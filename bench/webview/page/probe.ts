/**
 * Runs inside Chromium before the real webview bundle (dist/webview.js): stands in for VS Code's webview API,
 * counts every animation frame anyone requests, watches long tasks, and drives the view through its real
 * message interface (window `message` events, exactly what VS Code delivers) while timing what reaches the screen.
 */
import type { TranscriptAction } from '../../../src/shared/actions';
import type { TranscriptState } from '../../../src/shared/model';
import { postSnapshotPaced, snapshotMessages } from '../../../src/shared/snapshot-parts';
import type { HostToWebviewMessage } from '../../../src/shared/webview-protocol';
import { hiddenText, messageLayout, streamMessage } from './message-stream';
import {
  PROBE_GLOBAL,
  type IdleFigures,
  type LongWork,
  type PageSample,
  type ProbeApi,
  type SnapshotFigures,
  type StreamFigures,
  type StreamOptions,
  type WholeFigures,
} from '../probe-api';

interface ViewCounters {
  readonly renders: number;
  readonly drawnEntries?: number;
  readonly conversationId?: string;
}

declare global {
  interface Window {
    acquireVsCodeApi?: () => { postMessage(message: unknown): void; getState(): unknown; setState(state: unknown): void };
    __acpChat?: ViewCounters;
  }
}

let storedUiState: unknown;
/** What the view posted to the host. */
const posted: unknown[] = [];
Object.assign(window, { __acpPosted: posted });
let readyPostedAt: number | undefined;
window.acquireVsCodeApi = () => ({
  postMessage: (message: unknown) => {
    posted.push(message);
    // When the host would hear the view is ready (and post its snapshot): epoch ms, comparable across processes.
    if (Reflect.get(Object(message), 'type') === 'ready') readyPostedAt ??= performance.timeOrigin + performance.now();
  },
  getState: () => storedUiState,
  setState: (state: unknown) => {
    storedUiState = state;
  },
});

let framesRequested = 0;
const realRequestFrame = window.requestAnimationFrame.bind(window);
window.requestAnimationFrame = (callback: FrameRequestCallback): number => {
  framesRequested++;
  return realRequestFrame(callback);
};

/** Long tasks, and long animation frames (a frame's tasks plus its style, layout and paint): anything over 50 ms. */
let longTasks: LongWork = { tasks: [], frames: [] };
const watchLongWork = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    (entry.entryType === 'longtask' ? longTasks.tasks : longTasks.frames).push(entry.duration);
    // With BENCH_VERBOSE the bench prints the page console: say where a long frame spent its time.
    console.debug(
      `long ${entry.entryType} at ${Math.round(entry.startTime)} ms: ${Math.round(entry.duration)} ms ${JSON.stringify(entry.toJSON())}`,
    );
  }
});
watchLongWork.observe({ type: 'longtask', buffered: true });
watchLongWork.observe({ type: 'long-animation-frame', buffered: true });

/** Blocks the page for 80 ms in a task of its own, which the watcher must see: proves the figure can be non-zero. */
async function checkLongTaskWatch(): Promise<boolean> {
  longTasks = { tasks: [], frames: [] };
  await new Promise<void>((resolve) =>
    setTimeout(() => {
      const started = performance.now();
      while (performance.now() - started < 80) {
        // busy on purpose
      }
      resolve();
    }, 0),
  );
  await new Promise((resolve) => setTimeout(resolve, 200));
  const seen = longTasks.tasks.some((duration) => duration >= 80) && longTasks.frames.some((duration) => duration >= 80);
  longTasks = { tasks: [], frames: [] };
  return seen;
}

/** Resolves after the next frame has been produced (rAF, then the task after it, which runs after paint). */
function afterNextPaint(): Promise<number> {
  return new Promise((resolve) => realRequestFrame(() => setTimeout(() => resolve(performance.now()), 0)));
}

function countElements(root: Document | ShadowRoot): number {
  const all = root.querySelectorAll('*');
  let count = all.length;
  for (const element of all) if (element.shadowRoot) count += countElements(element.shadowRoot);
  return count;
}

let maxDom = 0;
function sample(): PageSample {
  const domElements = countElements(document);
  maxDom = Math.max(maxDom, domElements);
  return { domElements };
}

function post(message: HostToWebviewMessage): void {
  window.postMessage(message, '*');
}

let staged: { state: unknown; conversationId: string } | undefined;

let loaded: { started: number; entryCount: number; conversationId: string } | undefined;

/** Whether the chat shows `conversationId` and has drawn it (a switch may leave the last one up for a frame). */
function drawnConversation(conversationId: string): boolean {
  return window.__acpChat?.conversationId === conversationId && window.__acpChat.drawnEntries !== undefined;
}

async function loadSnapshot(): Promise<SnapshotFigures> {
  const started = performance.now();
  const conversationId = staged?.conversationId ?? 'bench';
  loaded = { started, entryCount: Reflect.get(Object(staged?.state), 'entryCount') as number, conversationId };
  // An empty conversation is shown once the view has drawn it.
  const empty = loaded.entryCount === 0;
  // As the host posts it (src/views/action-poster.ts): a long transcript in parts, paced. Each part is a message
  // of its own from VS Code, so it reaches the webview (and is copied) in a task of its own.
  const state = staged?.state as TranscriptState;
  postSnapshotPaced(snapshotMessages(0, state, { conversationId, draft: '' }), post);
  staged = undefined;
  for (;;) {
    const painted = await afterNextPaint();
    const entries = document.querySelectorAll('[data-entry-key]').length;
    if (drawnConversation(conversationId) && (entries > 0 || empty)) {
      sample();
      return { firstRenderMs: painted - started, entriesInDom: entries };
    }
    if (painted - started > 10_000) throw new Error('the snapshot never rendered');
  }
}

async function wholeDrawn(): Promise<WholeFigures> {
  const { started, entryCount, conversationId } = loaded ?? { started: performance.now(), entryCount: 0, conversationId: 'bench' };
  for (;;) {
    const painted = await afterNextPaint();
    if (drawnConversation(conversationId) && window.__acpChat?.drawnEntries === entryCount) return { wholeMs: painted - started };
    if (painted - started > 20_000) throw new Error('the snapshot was never drawn whole');
  }
}

const WORDS = ['stream', 'tokens', 'parser', 'buffer', 'the', 'a', 'chunk', 'render', 'frame', 'value', 'index', 'of'];

/** The i-th chunk of a long markdown answer: words, paragraphs, and now and then a code block. */
function chunkText(index: number): string {
  let text = `${WORDS[index % WORDS.length] ?? 'word'} `;
  if (index % 60 === 59) text += '\n\n';
  if (index % 400 === 200) text += '\n```ts\nconst chunk = next();\nrender(chunk);\n```\n\n';
  return text;
}

function stream(options: StreamOptions): Promise<StreamFigures> {
  const total = Math.round(options.chunksPerSecond * options.seconds);
  const endMarker = `end-of-stream-${total}`;
  const chunkToPaint: number[] = [];
  const postToPaint: number[] = [];
  const inFlight = new Map<number, { postedAt: number; chunkTimes: number[] }>();
  let seq = options.seq;
  let generated = 0;
  let posts = 0;
  const onMessage = (event: MessageEvent<{ type?: string; firstSeq?: number }>): void => {
    // Registered after the view's own listener, so the view has handled the message and asked for its frame.
    const sent = event.data.type === 'actions' && event.data.firstSeq !== undefined ? inFlight.get(event.data.firstSeq) : undefined;
    if (!sent) return;
    inFlight.delete(event.data.firstSeq ?? -1);
    void afterNextPaint().then((painted) => {
      postToPaint.push(painted - sent.postedAt);
      for (const time of sent.chunkTimes) chunkToPaint.push(painted - time);
    });
  };
  window.addEventListener('message', onMessage);
  const sampler = setInterval(sample, 250);
  const started = performance.now();
  return new Promise((resolve) => {
    const tick = (): void => {
      const now = performance.now();
      const due = Math.min(total, Math.floor(((now - started) * options.chunksPerSecond) / 1000));
      if (due > generated) {
        let text = '';
        const chunkTimes: number[] = [];
        for (let index = generated; index < due; index++) {
          text += index === total - 1 ? endMarker : chunkText(index);
          chunkTimes.push(started + (index * 1000) / options.chunksPerSecond);
        }
        generated = due;
        seq++;
        posts++;
        // One merged chunk action per window, as the host's ActionPoster posts them.
        const action: TranscriptAction = {
          type: 'session_update',
          update: { sessionUpdate: 'agent_message_chunk', messageId: 'live', content: { type: 'text', text } },
        };
        inFlight.set(seq, { postedAt: performance.now(), chunkTimes });
        post({ type: 'actions', firstSeq: seq, actions: [action] });
      }
      if (generated < total) {
        setTimeout(tick, options.windowMs);
        return;
      }
      void afterNextPaint()
        .then(afterNextPaint)
        .then(() => {
          window.removeEventListener('message', onMessage);
          clearInterval(sampler);
          sample();
          const lastChunkShown = document.body.innerText.includes(endMarker);
          resolve({ chunks: total, posts, chunkToPaintMs: chunkToPaint, postToPaintMs: postToPaint, lastChunkShown });
        });
    };
    setTimeout(tick, options.windowMs);
  });
}

async function idle(milliseconds: number): Promise<IdleFigures> {
  const rendersBefore = window.__acpChat?.renders ?? 0;
  const framesBefore = framesRequested;
  await new Promise((resolve) => setTimeout(resolve, milliseconds));
  return { renders: (window.__acpChat?.renders ?? 0) - rendersBefore, framesRequested: framesRequested - framesBefore };
}

const api: ProbeApi = {
  post,
  stage: (state, conversationId = 'bench') => {
    staged = { state, conversationId };
  },
  loadSnapshot,
  wholeDrawn,
  stream,
  streamMessage,
  messageLayout,
  hiddenText,
  idle,
  sample,
  checkLongTaskWatch,
  maxDomElements: () => maxDom,
  readyPostedAt: () => readyPostedAt,
  takeLongTasks: () => {
    const taken = longTasks;
    longTasks = { tasks: [], frames: [] };
    return taken;
  },
};
Object.assign(window, { [PROBE_GLOBAL]: api });
