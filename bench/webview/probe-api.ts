/**
 * What the in-page probe (page/probe.ts, run inside Chromium next to the real webview bundle) offers the bench,
 * and what it measures. Shared by both sides so the figures keep one shape.
 */
import type { HostToWebviewMessage } from '../../src/shared/webview-protocol';
import type { HiddenText, MessageLayout, MessageStreamFigures, MessageStreamOptions } from './message-stream-api';

export interface SnapshotFigures {
  /** From posting the snapshot to the frame after the first entries are in the DOM. */
  readonly firstRenderMs: number;
  readonly entriesInDom: number;
}

export interface WholeFigures {
  /** From posting the snapshot to the frame that drew it whole (a long one's older pages follow the first paint). */
  readonly wholeMs: number;
}

export interface StreamOptions {
  readonly chunksPerSecond: number;
  readonly seconds: number;
  /** The host's coalescing window (src/views/action-poster.ts): one post per window. */
  readonly windowMs: number;
  /** Sequence number of the snapshot the stream follows. */
  readonly seq: number;
}

export interface StreamFigures {
  readonly chunks: number;
  readonly posts: number;
  /** Chunk creation (spread evenly through each window) to the frame that shows it: includes the host's window. */
  readonly chunkToPaintMs: readonly number[];
  /** Post to the frame that shows it: the webview's own share. */
  readonly postToPaintMs: readonly number[];
  /** Did the last chunk's text reach the DOM? Guards the figures against a view that silently stopped. */
  readonly lastChunkShown: boolean;
}

export interface IdleFigures {
  readonly renders: number;
  /** Every requestAnimationFrame call in the page, the view's or anyone else's. */
  readonly framesRequested: number;
}

export interface PageSample {
  /** Elements in the document, shadow roots included. */
  readonly domElements: number;
}

/** Durations (ms) of work over 50 ms: long tasks (Long Tasks API) and long animation frames. */
export interface LongWork {
  readonly tasks: number[];
  readonly frames: number[];
}

export interface ProbeApi {
  /** Send what the host sends before the transcript: host facts. */
  post(message: HostToWebviewMessage): void;
  /**
   * Hands the page a snapshot to load later, so moving it into the page is not timed as the view's work. A
   * `conversationId` other than the one shown makes the load a switch of conversation.
   */
  stage(state: unknown, conversationId?: string): void;
  loadSnapshot(): Promise<SnapshotFigures>;
  /** Resolves when the snapshot last loaded is drawn whole. */
  wholeDrawn(): Promise<WholeFigures>;
  stream(options: StreamOptions): Promise<StreamFigures>;
  /** Streams one long agent message and times the main thread's blocks and when its end is on screen. */
  streamMessage(options: MessageStreamOptions): Promise<MessageStreamFigures>;
  /** The page's elements by tag, and the gaps between the streamed message's blocks (all its groups laid out). */
  messageLayout(): MessageLayout;
  /** The streamed message's groups still drawn behind, hidden from screen readers and find. */
  hiddenText(): HiddenText;
  idle(milliseconds: number): Promise<IdleFigures>;
  sample(): PageSample;
  /** Largest DOM element count seen at any sample since load (sampled every animation frame while streaming). */
  maxDomElements(): number;
  /** When the view posted `ready` to the host (epoch ms), if it has. */
  readyPostedAt(): number | undefined;
  /** Blocks the page for 80 ms and reports whether the long-task watch saw it. */
  checkLongTaskWatch(): Promise<boolean>;
  /** Long tasks and long animation frames (ms) seen since the last call. */
  takeLongTasks(): LongWork;
}

/** The global the probe installs. */
export const PROBE_GLOBAL = '__acpBench';
