/**
 * Injected into the chat webview inside code-server (the real VS Code) by bench/webview/vscode-bench.ts. The
 * bench agent stamps each chunk with its write time; after every frame that changed the DOM this records, for
 * each stamp the frame shows for the first time, paint time minus write time. Same machine, same clock.
 */
/** ⟦index@epoch-ms⟧: the index tells stamps written in the same millisecond apart. */
const STAMP = /\u27e6(\d+)@(\d+(?:\.\d+)?)\u27e7/g;
const latencies: number[] = [];
/** Paint time (epoch ms) per stamp index, for the breakdown (bench/webview/vscode-stream.ts). */
const paintedAt: Record<string, number> = {};
const seen = new Set<string>();
let scanned = 0;
let scannedKey: string | undefined;
let scheduled = false;

function afterPaint(): void {
  scheduled = false;
  const painted = performance.timeOrigin + performance.now();
  // The streaming answer is the last message (a turn end may already follow it).
  const entries = document.querySelectorAll<HTMLElement>('[data-entry-key][data-kind="message"]');
  const last = entries[entries.length - 1];
  if (!last) return;
  if (last.dataset.entryKey !== scannedKey) {
    scannedKey = last.dataset.entryKey;
    scanned = 0;
  }
  const text = last.textContent ?? '';
  // Only the new tail, with some overlap in case rendering shifted it; stamps are unique, so none counts twice.
  for (const match of text.slice(Math.max(0, scanned - 64)).matchAll(STAMP)) {
    const index = match[1] ?? '';
    if (seen.has(index)) continue;
    seen.add(index);
    latencies.push(painted - Number(match[2]));
    paintedAt[index] = painted;
  }
  scanned = text.length;
}

// The view changes the DOM inside its animation frame callback, so this observer runs just before that frame is
// painted: the next task comes after the paint. (Asking for another animation frame here would wait a frame more.)
new MutationObserver(() => {
  if (scheduled) return;
  scheduled = true;
  setTimeout(afterPaint, 0);
}).observe(document.body, { subtree: true, childList: true, characterData: true });

Object.assign(window, { __acpPaintProbe: { latencies, paintedAt } });
