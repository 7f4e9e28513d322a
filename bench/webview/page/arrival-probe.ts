/**
 * Injected by bench/webview/vscode-stream.ts into both frames of the chat webview in the real VS Code: the outer
 * frame VS Code's workbench posts to, and the chat's own document it hands each message on to. Records, per
 * bench-agent stamp (see bench/flood-agent.ts), when a message carrying it first reached this frame (epoch ms).
 */
const STAMP = /\u27e6(\d+)@(\d+(?:\.\d+)?)\u27e7/g;
const arrivals: Record<string, number> = {};
/** The agent's write time per stamp, as the stamp says. */
const writes: Record<string, number> = {};
let stampMessages = 0;

// Capturing, so it runs before the page's own listeners have handled (and drawn) the message.
window.addEventListener(
  'message',
  (event: MessageEvent<unknown>) => {
    const at = performance.timeOrigin + performance.now();
    let text: string;
    try {
      text = JSON.stringify(event.data) ?? '';
    } catch {
      return;
    }
    let stamped = false;
    for (const match of text.matchAll(STAMP)) {
      const index = match[1] ?? '';
      stamped = true;
      if (index in arrivals) continue;
      arrivals[index] = at;
      writes[index] = Number(match[2]);
    }
    if (stamped) Reflect.set(window, '__acpStampMessages', ++stampMessages);
  },
  { capture: true },
);

Object.assign(window, { __acpArrivals: arrivals, __acpWrites: writes });

export {};
