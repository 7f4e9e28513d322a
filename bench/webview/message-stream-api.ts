/**
 * One long agent message streamed into the webview (page/message-stream.ts runs it in Chromium): what the bench
 * asks for and what the page measures. Shared by both sides so the figures keep one shape.
 */

export type LongMessageKind = 'markdown' | 'code-block' | 'flood';

export interface MessageStreamOptions {
  readonly kind: LongMessageKind;
  /** Characters in the whole message. */
  readonly totalChars: number;
  /** Characters per agent chunk. */
  readonly chunkChars: number;
  readonly chunksPerSecond: number;
  /** The host's coalescing window (src/views/action-poster.ts): one post per window. */
  readonly windowMs: number;
  /** Sequence number of the snapshot the stream follows. */
  readonly seq: number;
}

export interface MessageStreamFigures {
  readonly chunks: number;
  readonly posts: number;
  /**
   * How long the main thread was busy each time a 4 ms heartbeat timer came late (ms): each value is one
   * stretch the page could not respond to input, whatever it was spent on (script, style, layout, paint).
   */
  readonly blocksMs: readonly number[];
  /** From the first post to the frame after which the message's last characters are on screen. */
  readonly fullyShownMs: number;
  /** From the last post to that frame. */
  readonly afterLastPostMs: number;
}

/** The streamed message as drawn, for a verbose run: its elements by tag and the gaps between its blocks. */
export interface MessageLayout {
  readonly elements: Readonly<Record<string, number>>;
  /** Gap (px, one decimal) between consecutive blocks, however they are drawn: count of each. */
  readonly gaps: Readonly<Record<string, number>>;
}

/** The streamed message's text kept from screen readers and find: its groups still drawn behind (streaming-markdown.ts). */
export interface HiddenText {
  readonly groups: number;
  readonly chars: number;
}
