/**
 * What the open-time harness puts in every frame before the frame's own scripts run (through the debugger
 * protocol, so a webview's CSP does not apply): from the document's first animation frame on, the first frame in
 * which the prompt is laid out and visible, in which it is also enabled (typeable), and in which a transcript
 * entry is, each in epoch ms. An animation frame's callbacks run just before that frame is painted, and none run
 * while a render-blocking stylesheet is loading, so these are the frames the user sees them in.
 */

/** What the probe records in a frame (epoch ms). */
import type { EntrySource } from './open-samples';

export interface OpenProbeRecord {
  readonly title: string;
  /** The document's time origin: the webview's inner frame is made when VS Code hands it the HTML. */
  readonly timeOrigin: number;
  /** The page's script ran (its `acp:script-evaluated` performance mark), if it set it. */
  readonly scriptEvaluated?: number;
  /** The last of the page's scripts had arrived (its resource timing's end), so fetching tells from evaluating. */
  readonly scriptFetched?: number;
  /** The page's script fetches (a preloaded script fetched again would count twice). */
  readonly scripts: readonly string[];
  readonly prompt?: number;
  readonly typeable?: number;
  readonly entry?: number;
  /**
   * That entry was the saved preview's, before the host answered: in the page's HTML (src/views/preview-html.ts) or
   * drawn by the chat's script (webview/transcript/preview-view.ts); else the chat's own.
   */
  readonly entryFrom?: EntrySource;
}

/** Source of the init script: a function body, self-contained (it runs in the page, not here). */
export const OPEN_PROBE_SCRIPT = `(() => {
  if (window.top === window) return;
  const origin = performance.timeOrigin;
  const found = {};
  const visible = (element) => {
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  };
  const done = () => found.typeable !== undefined && found.entry !== undefined;
  let armedAt = -1;
  const tick = () => {
    armedAt = -1;
    const now = origin + performance.now();
    const prompt = document.querySelector('textarea[aria-label="Prompt"]');
    if (prompt && visible(prompt)) {
      if (found.prompt === undefined) found.prompt = now;
      if (found.typeable === undefined && !prompt.disabled) found.typeable = now;
    }
    const entry = found.entry === undefined && document.querySelector('[data-entry-key]');
    if (entry && visible(entry)) {
      found.entry = now;
      found.entryFrom = entry.closest('.boot-preview') ? 'html' : entry.closest('[inert]') ? 'preview' : 'chat';
    }
  };
  const arm = () => {
    if (armedAt >= 0 && performance.now() - armedAt < 50) return;
    armedAt = performance.now();
    requestAnimationFrame(tick);
  };
  // VS Code writes the webview's HTML into this document (document.open), which drops the animation-frame
  // callbacks asked for before; a timer (which survives it) asks again. Stops once all is seen, or after two minutes
  // (the baseline has no entries).
  const timer = setInterval(() => (done() || performance.now() > 120000 ? clearInterval(timer) : arm()), 10);
  arm();
  Object.defineProperty(window, '__acpOpenProbe', {
    value: () => {
      const mark = performance.getEntriesByName('acp:script-evaluated')[0];
      const scripts = performance.getEntriesByType('resource').filter((entry) => entry.initiatorType === 'script');
      const fetched = scripts.length ? Math.max(...scripts.map((entry) => entry.responseEnd)) : undefined;
      return {
        title: document.title,
        timeOrigin: origin,
        ...(mark ? { scriptEvaluated: origin + mark.startTime } : {}),
        ...(fetched ? { scriptFetched: origin + fetched } : {}),
        scripts: scripts.map((entry) => entry.name.split('/').pop()),
        ...found,
      };
    },
  });
})();`;
