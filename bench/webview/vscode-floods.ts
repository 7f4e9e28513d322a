/**
 * The real extension host under floods, in the real VS Code (code-server, Chromium): how long a command waits
 * while an agent's command prints 50 MB (outputByteLimit 1,000, and the default) or an agent streams a 20 MB
 * message, with the chat and the command's terminal on screen. The plain-Node lines (bench/agent-limits.ts) time
 * the host's own work; these time what a user's command waits for, the workbench included. They run the
 * integration suite test/integration/host-floods.test.ts, which asserts a generous bound; here the figures.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { repoRoot } from '../../test/support/repo-root';
import type { FloodProbeFigures } from '../../test/support/flood-probe';
import type { Figure } from './figure';

const TARGET_MS = 200;

function figuresOf(run: FloodProbeFigures): Figure[] {
  const about = `(p50 ${run.p50Ms} ms, ${run.probes} probes over ${(run.floodMs / 1000).toFixed(1)} s; idle max ${run.idleMaxMs} ms; host event loop longest block ${run.hostBlockMaxMs} ms)`;
  return [
    {
      name: `vscode: probe answer under a ${run.name}: p95 ${about}`,
      value: Math.round(run.p95Ms),
      unit: 'ms',
      target: `<= ${TARGET_MS} ms`,
      ok: run.p95Ms <= TARGET_MS,
    },
    {
      name: `vscode: probe answer under a ${run.name}: max`,
      value: Math.round(run.maxMs),
      unit: 'ms',
      target: `<= ${TARGET_MS} ms`,
      ok: run.maxMs <= TARGET_MS,
    },
    {
      // The extension host's own share, beside the plain-Node lines (bench part `limits`) for the same flood.
      name: `vscode: extension host longest event-loop block under a ${run.name}`,
      value: Math.round(run.hostBlockMaxMs),
      unit: 'ms',
      target: `<= ${TARGET_MS} ms`,
      ok: run.hostBlockMaxMs <= TARGET_MS,
    },
  ];
}

export function runVscodeFloodBench(): Promise<Figure[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'acp-flood-bench-'));
  const file = path.join(dir, 'figures.jsonl');
  try {
    try {
      execFileSync(process.execPath, [path.join(repoRoot(), 'out', 'test', 'integration', 'run.js')], {
        cwd: repoRoot(),
        env: { ...process.env, ACP_TEST_GREP: 'host under floods', ACP_FLOOD_FIGURES: file },
        stdio: process.env['BENCH_VERBOSE'] ? 'inherit' : 'ignore',
      });
    } catch {
      // A case over the suite's bound fails the suite; its figures are written all the same.
    }
    let lines: string[] = [];
    try {
      lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    } catch {
      throw new Error('the flood suite reported no figures (run with BENCH_VERBOSE=1 to see why)');
    }
    return Promise.resolve(lines.flatMap((line) => figuresOf(JSON.parse(line) as FloodProbeFigures)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
