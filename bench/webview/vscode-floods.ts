/**
 * The real extension host under floods, in the real VS Code (code-server, Chromium): how long a command waits
 * while an agent's command prints 50 MB (outputByteLimit 1,000, and the default) or an agent streams a 20 MB
 * message, with the chat and the command's terminal on screen. The plain-Node lines (bench/agent-limits.ts) time
 * the host's own work; these time what a user's command waits for, the workbench included. They run the
 * integration suite test/integration/host-floods.test.ts, which asserts a generous bound; here the figures.
 * Issue 31: where a target cannot hold for a reason outside our code, a baseline measured in the same run. With the
 * chat only, the target is 200 ms. With the command's VS Code terminal open, VS Code's own start of a terminal
 * stalls the workbench's thread, and so does showing live output at any pace: the suite probes VS Code opening a
 * terminal of nothing of ours, repainted with a screenful four times a second as the mirror repaints a flood, over the
 * same span (as many probes) right after each such case, and the target is that baseline + 200 ms. The window's
 * first terminal (cold: xterm's code loads, a quiet terminal) is its own reported line.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { repoRoot } from '../../test/support/repo-root';
import type { FloodProbeFigures } from '../../test/support/flood-probe';
import type { Figure } from './figure';

/** What a command may wait under a flood, the workbench's own cost of opening a terminal aside. */
const TARGET_MS = 200;

function baselineFigures(run: FloodProbeFigures): Figure[] {
  return [
    {
      name: `vscode: probe answer while ${run.name}: p95 (p50 ${run.p50Ms} ms, max ${run.maxMs} ms, ${run.probes} probes over ${(run.floodMs / 1000).toFixed(1)} s; idle max ${run.idleMaxMs} ms)`,
      value: Math.round(run.p95Ms),
      unit: 'ms',
      target: 'reported: VS Code only',
      ok: true,
    },
  ];
}

function figuresOf(run: FloodProbeFigures): Figure[] {
  if (run.kind === 'baseline') return baselineFigures(run);
  const about = `(p50 ${run.p50Ms} ms, ${run.probes} probes over ${(run.floodMs / 1000).toFixed(1)} s; idle max ${run.idleMaxMs} ms; host event loop longest block ${run.hostBlockMaxMs} ms)`;
  // The terminal open: VS Code opening a terminal repainted at the mirror's flood pace over the same span is the
  // baseline, ours is on top of it.
  const base = run.baseline;
  const p95Target = TARGET_MS + (base?.p95Ms ?? 0);
  const maxTarget = TARGET_MS + (base?.maxMs ?? 0);
  const over = (baseline: number | undefined): string =>
    baseline === undefined ? '' : ` (baseline ${Math.round(baseline)} + ${TARGET_MS})`;
  return [
    ...(base
      ? [
          {
            name: `vscode: baseline for the next lines, VS Code opening a terminal repainted with a screenful 4 times a second (as the mirror shows a flood) over the same span: p95 (p50 ${base.p50Ms} ms, max ${base.maxMs} ms, ${base.probes} probes)`,
            value: Math.round(base.p95Ms),
            unit: 'ms',
            target: 'reported: VS Code only',
            ok: true,
          },
        ]
      : []),
    {
      name: `vscode: probe answer under a ${run.name}: p95 ${about}`,
      value: Math.round(run.p95Ms),
      unit: 'ms',
      target: `<= ${Math.round(p95Target)} ms${over(base?.p95Ms)}`,
      ok: run.p95Ms <= p95Target,
    },
    {
      name: `vscode: probe answer under a ${run.name}: max`,
      value: Math.round(run.maxMs),
      unit: 'ms',
      target: `<= ${Math.round(maxTarget)} ms${over(base?.maxMs)}`,
      ok: run.maxMs <= maxTarget,
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
        // BENCH_FLOODS_GREP narrows the suite to the cases to study (e.g. '20 MB', with ACP_WORKBENCH_TRACE=<file>).
        env: { ...process.env, ACP_TEST_GREP: `host under floods.*${process.env['BENCH_FLOODS_GREP'] ?? ''}`, ACP_FLOOD_FIGURES: file },
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
