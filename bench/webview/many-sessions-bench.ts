/**
 * Issue 11 ("sessions"): 20 conversations streaming at once, 1,000 chunks/s in total. Each has its host store
 * and its history recorder in this process, as the extension host holds them; only the one shown has an
 * ActionPoster, whose posts reach the real webview in Chromium. Chunks of the shown conversation carry their
 * write time; the paint probe (page/paint-probe.ts) records when each is first on screen.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, CDPSession } from 'playwright-core';
import { HistoryStore } from '../../src/history/history-store';
import { TranscriptStore } from '../../src/session/transcript-store';
import type { TranscriptAction } from '../../src/shared/actions';
import type { HostToWebviewMessage } from '../../src/shared/webview-protocol';
import { ActionPoster } from '../../src/views/action-poster';
import { throttlePage } from './harness';
import type { Figure } from './figure';
import { percentile } from './percentile';
import { pageScript } from './vscode-page';

const CONVERSATIONS = 20;
const CHUNKS_PER_SECOND = 1_000;
const SECONDS = 8;
const TARGET_MS = 33;
const STAMP = /\u27e6\d+@(\d+(?:\.\d+)?)\u27e7/g;

function prompt(turnId: string): TranscriptAction {
  return { type: 'prompt_sent', turnId, content: [{ type: 'text', text: 'Stream a long answer.' }] };
}

function chunk(messageId: string, text: string): TranscriptAction {
  return { type: 'session_update', update: { sessionUpdate: 'agent_message_chunk', messageId, content: { type: 'text', text } } };
}

/**
 * Posts to the page without waiting, as VS Code's postMessage does: each post is one debugger-protocol command,
 * and one session runs its commands in the order sent (waiting for each round trip would add its latency).
 */
function pagePoster(
  cdp: CDPSession,
  hostDelays: number[],
): { sink: (message: HostToWebviewMessage) => undefined; drained: () => Promise<void> } {
  let last: Promise<unknown> = Promise.resolve();
  return {
    sink: (message) => {
      const json = JSON.stringify(message);
      // The host's share: from each stamped chunk's write to its post.
      const now = performance.timeOrigin + performance.now();
      for (const match of json.matchAll(STAMP)) hostDelays.push(now - Number(match[1]));
      last = cdp.send('Runtime.evaluate', { expression: `postMessage(${json}, '*')` });
      return undefined;
    },
    drained: async () => {
      await last;
    },
  };
}

interface StreamRun {
  readonly latencies: number[];
  readonly hostDelays: number[];
  readonly shownChunks: number;
}

/** `conversations` stream at `CHUNKS_PER_SECOND / CONVERSATIONS` chunks/s each; the first is shown. */
async function streamConversations(browser: Browser, harness: string, conversations: number): Promise<StreamRun> {
  const dir = mkdtempSync(path.join(tmpdir(), 'acp-bench-many-'));
  const page = await browser.newPage({ viewport: { width: 420, height: 900 } });
  try {
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await throttlePage(page);
    await page.goto(pathToFileURL(harness).href);
    await page.waitForFunction(() => Reflect.has(globalThis, '__acpChat'));
    await page.evaluate(await pageScript(dir));
    const history = await HistoryStore.open(path.join(dir, 'history'));
    const stores: TranscriptStore[] = [];
    for (let index = 0; index < conversations; index++) {
      const store = new TranscriptStore();
      const { recorder } = await history.create({ agentName: 'Bench' });
      store.subscribe((action, state) => recorder.record(action, state));
      store.dispatch(prompt(`turn-${index}`));
      stores.push(store);
    }
    const shown = stores[0]!;
    const hostDelays: number[] = [];
    const posting = pagePoster(await page.context().newCDPSession(page), hostDelays);
    const poster = new ActionPoster(posting.sink);
    poster.snapshot(shown.state, { conversationId: 'shown', draft: '' });
    shown.subscribe((action) => poster.push(action));
    await posting.drained();
    await page.waitForTimeout(300);

    const rate = (CHUNKS_PER_SECOND / CONVERSATIONS) * conversations;
    const total = rate * SECONDS;
    let shownChunks = 0;
    const started = performance.now();
    await new Promise<void>((resolve) => {
      let sent = 0;
      const tick = (): void => {
        const due = Math.min(total, Math.floor(((performance.now() - started) * rate) / 1000));
        for (; sent < due; sent++) {
          const index = sent % conversations;
          // Stamped when written: the probe subtracts it from the paint time (same machine, same clock).
          const stamp = index === 0 ? `\u27e6${shownChunks++}@${performance.timeOrigin + performance.now()}\u27e7` : '';
          stores[index]!.dispatch(chunk(`answer-${index}`, `word ${stamp} `));
        }
        if (sent < total) setTimeout(tick, 2);
        else resolve();
      };
      tick();
    });
    await posting.drained();
    await page.waitForTimeout(500);
    const latencies = await page.evaluate(() => (Reflect.get(globalThis, '__acpPaintProbe') as { latencies: number[] }).latencies.slice());
    poster.dispose();
    await history.flush();
    if (pageErrors.length > 0) throw new Error(`the webview threw: ${pageErrors[0]}`);
    return { latencies, hostDelays, shownChunks };
  } finally {
    await page.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runManySessionsBench(browser: Browser, harness: string): Promise<Figure[]> {
  // The shown conversation alone, at its same rate, side by side: what the 19 others cost it.
  const alone = await streamConversations(browser, harness, 1);
  const many = await streamConversations(browser, harness, CONVERSATIONS);
  const p95 = percentile(many.latencies, 0.95);
  const label = `sessions: ${CONVERSATIONS} conversations streaming, ${CHUNKS_PER_SECOND} chunks/s in all`;
  return [
    {
      name: `${label}, the shown one's chunk-to-paint p95 (p50 ${Math.round(percentile(many.latencies, 0.5))} ms; host's share p95 ${Math.round(percentile(many.hostDelays, 0.95))} ms; ${many.latencies.length} of its ${many.shownChunks} chunks seen; streaming alone: p95 ${Math.round(percentile(alone.latencies, 0.95))} ms)`,
      value: Math.round(p95),
      unit: 'ms',
      target: `<= ${TARGET_MS} ms`,
      ok: p95 <= TARGET_MS && many.latencies.length === many.shownChunks,
    },
  ];
}
