/**
 * Injected into the chat webview inside code-server (the real VS Code) by bench/webview/vscode-stream.ts. The
 * bench agent stamps each chunk with its write time; after every frame that changed the DOM this records, for
 * each stamp the frame shows for the first time, paint time minus write time. Same machine, same clock.
 *
 * Only what the frame changed is read: the nodes it added and the texts it changed, within the streaming message.
 * Reading the whole message's text after every frame (it grows to hundreds of KB) cost the page's thread about a
 * millisecond a frame and made megabytes of garbage a second, whose collections were among the longest tasks
 * of a stream's trace: the probe slowed what it measured.
 */
/** ⟦index@epoch-ms⟧: the index tells stamps written in the same millisecond apart. */
const STAMP = /\u27e6(\d+)@(\d+(?:\.\d+)?)\u27e7/g;
const latencies: number[] = [];
/** Paint time (epoch ms) per stamp index, for the breakdown (bench/webview/vscode-stream.ts). */
const paintedAt: Record<string, number> = {};
const seen = new Set<string>();
/** Nodes added or texts changed since the last paint. */
const changed = new Set<Node>();
let scheduled = false;

function afterPaint(): void {
  scheduled = false;
  const painted = performance.timeOrigin + performance.now();
  const nodes = [...changed];
  changed.clear();
  // The streaming answer is the last message (a turn end may already follow it).
  const entries = document.querySelectorAll<HTMLElement>('[data-entry-key][data-kind="message"]');
  const last = entries[entries.length - 1];
  if (!last) return;
  for (const node of nodes) {
    if (!node.isConnected || !last.contains(node)) continue;
    // A stamp is plain text inside one block, so one node's text holds it whole.
    for (const match of (node.textContent ?? '').matchAll(STAMP)) {
      const index = match[1] ?? '';
      if (seen.has(index)) continue;
      seen.add(index);
      latencies.push(painted - Number(match[2]));
      paintedAt[index] = painted;
    }
  }
}

// The view changes the DOM inside its animation frame callback, so this observer runs just before that frame is
// painted: the next task comes after the paint. (Asking for another animation frame here would wait a frame more.)
new MutationObserver((records) => {
  for (const record of records) {
    if (record.type === 'characterData') changed.add(record.target);
    else record.addedNodes.forEach((node) => changed.add(node));
  }
  if (scheduled) return;
  scheduled = true;
  setTimeout(afterPaint, 0);
}).observe(document.body, { subtree: true, childList: true, characterData: true });

Object.assign(window, { __acpPaintProbe: { latencies, paintedAt } });
