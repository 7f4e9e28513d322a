/**
 * Stored history ("conversations that last"): what recording costs the host, how fast a long session loads, and
 * what an idle loaded session costs in memory against the size of its transcript.
 *   1. the flood of session updates through the whole host path, with and without a recorder on the store
 *      (pairs back to back, the median of their ratios): the time with storage includes writing everything to disk;
 *   2. load of a 10,000-entry session (snapshot + tail);
 *   3. heap per idle loaded session (store + recorder) / its transcript JSON bytes;
 *   4. the flood's chunks merge into few records, so also: dispatching the 10,000-entry mix (prompts, tool
 *      calls, turn ends: mostly records of their own) with a recorder, flushed, against dispatching it alone.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { HistoryStore } from '../src/history/history-store';
import type { SessionRecorder } from '../src/history/session-recorder';
import { TranscriptStore } from '../src/session/transcript-store';
import type { TranscriptAction } from '../src/shared/actions';
import { createHostHarness } from '../test/support/host-harness';
import { floodAgent } from './host-throughput';
import type { Figure } from './webview/figure';

const COUNT = Number(process.env['FLOOD_COUNT'] ?? 200_000);
const IDLE_SESSIONS = 20;

interface FloodRun {
  readonly seconds: number;
  /** CPU the host process used (all its threads: the disk writes run on libuv's pool). */
  readonly cpuSeconds: number;
}

async function flood(withStorage: boolean): Promise<FloodRun> {
  const root = mkdtempSync(path.join(tmpdir(), 'acp-bench-history-'));
  try {
    const harness = createHostHarness(root);
    const history = withStorage ? await HistoryStore.open(path.join(root, 'history')) : undefined;
    const recorder = history ? (await history.create({ agentName: 'Flood' })).recorder : undefined;
    if (recorder) harness.store.subscribe((action, state) => recorder.record(action, state));
    await harness.controller.start(floodAgent());
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    await harness.controller.sendPrompt('go');
    await harness.waitFor((state) => state.turn.phase === 'idle', 120_000);
    await history?.flush();
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    await harness.controller.stop();
    return { seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The host bench's realistic mix: each turn a prompt, a streamed answer, a tool call and its update, the end. */
function* tenThousandEntries(): Generator<TranscriptAction> {
  yield { type: 'agent_status', status: { phase: 'ready', agentName: 'Bench', protocolVersion: 1 } };
  for (let turn = 0; turn < 2_500; turn++) {
    const turnId = `turn-${turn}`;
    yield { type: 'prompt_sent', turnId, content: [{ type: 'text', text: `question ${turn}: how does part ${turn} work?` }] };
    for (let chunk = 0; chunk < 8; chunk++) {
      yield {
        type: 'session_update',
        update: {
          sessionUpdate: 'agent_message_chunk',
          messageId: `a${turn}`,
          content: { type: 'text', text: `answer ${turn} with some **markdown** ${chunk} ` },
        },
      };
    }
    yield {
      type: 'session_update',
      update: { sessionUpdate: 'tool_call', toolCallId: `t${turn}`, title: `Read src/part-${turn}.ts`, kind: 'read', status: 'pending' },
    };
    yield { type: 'session_update', update: { sessionUpdate: 'tool_call_update', toolCallId: `t${turn}`, status: 'completed' } };
    yield { type: 'turn_ended', turnId, stopReason: 'end_turn' };
  }
}

export async function storedTenThousand(root: string): Promise<{ history: HistoryStore; id: string; transcriptBytes: number }> {
  const history = await HistoryStore.open(root);
  const { id, recorder } = await history.create({ agentName: 'Bench' });
  const store = new TranscriptStore();
  store.subscribe((action, state) => recorder.record(action, state));
  let dispatched = 0;
  for (const action of tenThousandEntries()) {
    store.dispatch(action);
    // Written as a session would be, batch by batch, so compaction leaves a snapshot and a tail.
    if (++dispatched % 500 === 0) await recorder.flush();
  }
  await history.close(id);
  if (store.state.entryCount !== 10_000) throw new Error(`made ${store.state.entryCount} entries`);
  return { history, id, transcriptBytes: Buffer.byteLength(JSON.stringify(store.state)) };
}

/** Seconds to dispatch the 10,000-entry mix into a fresh store, with a recorder (flushed at the end) or without. */
async function mixSeconds(root: string, withStorage: boolean): Promise<number> {
  const history = withStorage ? await HistoryStore.open(root) : undefined;
  const recorder = history ? (await history.create({ agentName: 'Bench' })).recorder : undefined;
  const store = new TranscriptStore();
  if (recorder) store.subscribe((action, state) => recorder.record(action, state));
  const started = performance.now();
  for (const action of tenThousandEntries()) store.dispatch(action);
  await history?.flush();
  return (performance.now() - started) / 1000;
}

function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  const gc: unknown = runInNewContext('gc');
  if (typeof gc !== 'function') throw new Error('no gc');
  gc();
  gc();
}

export async function runHistoryBench(): Promise<Figure[]> {
  const runs = Number(process.env['BENCH_RUNS'] ?? 3);
  // Robust on a shared machine: pairs run back to back (which goes first alternates), one ratio per pair, and
  // the median of those; a slow moment then spoils one pair, not the figure.
  const pairs = Number(process.env['BENCH_FLOOD_PAIRS'] ?? 7);
  const timeRatios: number[] = [];
  const cpuRatios: number[] = [];
  for (let pair = 0; pair < pairs; pair++) {
    const [without, withStorage] =
      pair % 2 === 0 ? [await flood(false), await flood(true)] : [await flood(true), await flood(false)].reverse();
    timeRatios.push(withStorage!.seconds / without!.seconds);
    cpuRatios.push(withStorage!.cpuSeconds / without!.cpuSeconds);
  }
  const timeRatio = median(timeRatios);
  let mixWithout = Infinity;
  let mixWith = Infinity;
  const mixRoot = mkdtempSync(path.join(tmpdir(), 'acp-bench-history-mix-'));
  try {
    for (let round = 0; round < runs; round++) {
      mixWithout = Math.min(mixWithout, await mixSeconds(mixRoot, false));
      mixWith = Math.min(mixWith, await mixSeconds(mixRoot, true));
    }
  } finally {
    rmSync(mixRoot, { recursive: true, force: true });
  }

  const root = mkdtempSync(path.join(tmpdir(), 'acp-bench-history-load-'));
  try {
    const { history, id, transcriptBytes } = await storedTenThousand(root);
    const dir = path.join(root, 'sessions', id);
    const onDisk = readdirSync(dir).reduce((sum, file) => sum + statSync(path.join(dir, file)).size, 0);
    let loadMs = Infinity;
    let tail = 0;
    for (let round = 0; round < runs; round++) {
      const started = performance.now();
      const loaded = await history.load(id);
      loadMs = Math.min(loadMs, performance.now() - started);
      tail = loaded.tailActions;
      if (loaded.state.entryCount !== 10_000) throw new Error(`loaded ${loaded.state.entryCount} entries`);
    }

    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    const idle: { store: TranscriptStore; recorder: SessionRecorder }[] = [];
    for (let i = 0; i < IDLE_SESSIONS; i++) {
      const loaded = await history.load(id);
      const store = new TranscriptStore(loaded.state);
      const recorder = await history.resume(id, loaded);
      store.subscribe((action, state) => recorder.record(action, state));
      idle.push({ store, recorder });
    }
    collectGarbage();
    const perSession = (process.memoryUsage().heapUsed - before) / idle.length;
    const memoryRatio = perSession / transcriptBytes;
    if (idle.length !== IDLE_SESSIONS) throw new Error('sessions were collected');

    return [
      {
        name: `history: flood of ${COUNT} updates, host time with storage / without, median of ${pairs} interleaved pairs (range ${spread(timeRatios)})`,
        value: round(timeRatio),
        unit: 'ratio',
        target: '<= 1.10',
        ok: timeRatio <= 1.1,
      },
      {
        name: `history: same flood, host CPU with storage / without, median (range ${spread(cpuRatios)})`,
        value: round(median(cpuRatios)),
        unit: 'ratio',
        target: 'reported',
        ok: true,
      },
      {
        name: 'history: 10,000-entry mix dispatched with storage / without (reducer only)',
        value: round(mixWith / mixWithout),
        unit: 'ratio',
        target: 'reported',
        ok: true,
      },
      {
        name: 'history: load a 10,000-entry session (snapshot + tail)',
        value: Math.round(loadMs),
        unit: `ms (${tail} tail actions, ${Math.round(onDisk / 1024)} KB on disk)`,
        target: 'reported',
        ok: true,
      },
      {
        name: 'history: heap per idle loaded session / its transcript JSON',
        value: round(memoryRatio),
        unit: `ratio (${Math.round(perSession / 1024)} KB / ${Math.round(transcriptBytes / 1024)} KB)`,
        target: '<= 2.0',
        ok: memoryRatio <= 2,
      },
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function spread(values: readonly number[]): string {
  return `${round(Math.min(...values))}-${round(Math.max(...values))}`;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
