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
const OPEN = '\u27e6';
const CLOSE = '\u27e7';
const latencies: number[] = [];
/** Paint time (epoch ms) per stamp index, for the breakdown (bench/webview/vscode-stream.ts). */
const paintedAt: Record<string, number> = {};
const seen = new Set<number>();
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
    recordStamps(node.textContent ?? '', painted);
  }
}

/**
 * Records the stamps in `text` not seen before. The streaming paragraph is drawn anew each frame, so most of its
 * stamps were seen already: they are skipped by reading the index's digits in place. A regex over every stamp of it
 * (matchAll) allocated 7 MB in an 8 s stream, most of what the chat's page allocated, on the heap the workbench
 * shares: the probe brought the collections it then measured.
 */
function recordStamps(text: string, painted: number): void {
  for (let open = text.indexOf(OPEN); open !== -1; open = text.indexOf(OPEN, open + 1)) {
    let index = 0;
    let at = open + 1;
    for (let code = text.charCodeAt(at); code >= 48 && code <= 57; code = text.charCodeAt(++at)) index = index * 10 + code - 48;
    if (at === open + 1 || text[at] !== '@' || seen.has(index)) continue;
    const close = text.indexOf(CLOSE, at);
    if (close === -1) continue;
    seen.add(index);
    latencies.push(painted - Number(text.slice(at + 1, close)));
    paintedAt[index] = painted;
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
