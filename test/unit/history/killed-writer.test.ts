/**
 * A real writer process recording a streaming conversation (with frequent compactions) is killed with SIGKILL at
 * arbitrary moments. Each time, the session must load without error, equal to the conversation's exact state
 * after some number of actions, and hold at least every action the writer had seen flushed before the kill.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { loadSession } from '../../../src/history/session-loader';
import { repoRoot } from '../../support/repo-root';
import { stateAfter } from '../../support/history-conversation';
import { asStored, tempRootPerTest } from './temp-root';

const writerPath = (): string => path.join(repoRoot(), 'out', 'test', 'support', 'history-writer.js');

interface KilledRun {
  readonly sessionDir: string;
  readonly durable: number;
}

/** Starts the writer, waits until it has flushed at least `minDurable` actions, waits `extraMs` more, kills it. */
async function runAndKill(root: string, minDurable: number, extraMs: number): Promise<KilledRun> {
  const child = spawn(process.execPath, [writerPath(), root, '20000'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let sessionId = '';
  let durable = 0;
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
  await new Promise<void>((resolve, reject) => {
    child.once('exit', () => reject(new Error('writer exited before it was killed')));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const [word, value] = line.split(' ');
      if (word === 'session') sessionId = value ?? '';
      if (word === 'durable') durable = Number(value);
      if (durable >= minDurable) resolve();
    });
  });
  await new Promise((resolve) => setTimeout(resolve, extraMs));
  child.kill('SIGKILL');
  assert.equal(await exited, 'SIGKILL');
  return { sessionDir: path.join(root, 'sessions', sessionId), durable };
}

describe('history: writer killed with SIGKILL mid-write', function () {
  this.timeout(60_000);
  const root = tempRootPerTest();

  for (const [minDurable, extraMs] of [
    [997, 0],
    [997, 20],
    [997, 45],
    [1994, 70],
    [2991, 110],
  ] as const) {
    it(`loads a consistent transcript holding every flushed action (killed ${extraMs} ms after ${minDurable}+ were flushed)`, async () => {
      const run = await runAndKill(root(), minDurable, extraMs);
      const loaded = await loadSession(run.sessionDir);
      assert.ok(loaded.seq >= run.durable, `loaded ${loaded.seq} actions, ${run.durable} had been flushed`);
      assert.deepEqual(asStored(loaded.state), asStored(stateAfter(loaded.seq)));
      assert.equal(loaded.skippedRecords, 0);
    });
  }
});
