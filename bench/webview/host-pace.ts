/**
 * The plain-browser webview benches stand in for the host: they post one merged chunk action every this many ms.
 * The host itself posts as the view acknowledges what it drew (src/views/action-poster.ts); a view that draws every
 * frame acknowledges within a frame, and with two batches in flight that lets a post go about twice a frame.
 */
export const SIMULATED_POST_MS = 8;
