/**
 * Injected by bench/webview/vscode-stream.ts into the chat's own document in the real VS Code. Records, per
 * bench-agent stamp (see bench/flood-agent.ts), when the webview's outer frame (VS Code's, which gets the
 * workbench's messages over a port) handed a message carrying it on (`forwarded`: its call of this window's
 * postMessage), and when this document's `message` event for it began (`arrivals`), in epoch ms.
 */
const STAMP = /\u27e6(\d+)@(\d+(?:\.\d+)?)\u27e7/g;
const arrivals: Record<string, number> = {};
const forwarded: Record<string, number> = {};
/** The agent's write time per stamp, as the stamp says. */
const writes: Record<string, number> = {};
/** The host's post time per stamp, as the message carrying it says (its `postedAt`). */
const posts: Record<string, number> = {};
const POSTED_AT = /"postedAt":(\d+(?:\.\d+)?)/;
let stampMessages = 0;

function record(data: unknown, into: Record<string, number>, writes?: Record<string, number>): boolean {
  const at = performance.timeOrigin + performance.now();
  let text: string;
  try {
    text = JSON.stringify(data) ?? '';
  } catch {
    return false;
  }
  let stamped = false;
  const postedAt = POSTED_AT.exec(text)?.[1];
  for (const match of text.matchAll(STAMP)) {
    const index = match[1] ?? '';
    stamped = true;
    if (index in into) continue;
    into[index] = at;
    if (writes) writes[index] = Number(match[2]);
    if (writes && postedAt !== undefined) posts[index] = Number(postedAt);
  }
  return stamped;
}

// The outer frame calls this window's postMessage (same origin): an own property here is what it calls.
const post = window.postMessage.bind(window);
Object.defineProperty(window, 'postMessage', {
  configurable: true,
  value: (...args: Parameters<typeof post>) => {
    record(args[0], forwarded);
    return post(...args);
  },
});

// Capturing, so it runs before the page's own listeners have handled (and drawn) the message.
window.addEventListener(
  'message',
  (event: MessageEvent<unknown>) => {
    if (record(event.data, arrivals, writes)) Reflect.set(window, '__acpStampMessages', ++stampMessages);
  },
  { capture: true },
);

Object.assign(window, { __acpArrivals: arrivals, __acpForwarded: forwarded, __acpWrites: writes, __acpPosts: posts });

export {};
