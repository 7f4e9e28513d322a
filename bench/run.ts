/**
 * `npm run bench`: prints one line per figure with its target and ok/miss, and exits 0 — benchmarks inform, they
 * never fail a build. Figures are ratios or counts measured side by side in one run, so they hold on a noisy
 * machine. Set BENCH_ONLY=host|limits|history|changes|editor-tools|webview|stream|open|floods|size to run a part, and
 * BENCH_SLOW_CPU=<share> (bench/slow-cpu.ts) or BENCH_CONTEND=<n> (bench/contention.ts) to run it on a slower
 * machine. The machine's physical-limit line comes first, whatever runs, so figures from two machines can be
 * compared; each part's wall time is printed after its lines (the whole bench is meant to stay under 10 minutes on a 2-core machine).
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { repoRoot } from '../test/support/repo-root';
import { runLimitsBench } from './agent-limits';
import { runHistoryBench } from './history-bench';
import { runChangesBench } from './changes-bench';
import { runEditorToolsBench } from './editor-tools-bench';
import { bareParse, runHostBench } from './host-throughput';
import { sizeFigures } from './size';
import { cpuTicks, stolenShare } from './cpu-ticks';
import { startContention } from './contention';
import { startSlowCpu } from './slow-cpu';
import type { Figure } from './webview/figure';

type Part = { name: string; run: () => Promise<Figure[]> };

async function optionalPart(modulePath: string, exportName: string): Promise<Figure[]> {
  const loaded: Record<string, unknown> = await import(modulePath);
  const run = loaded[exportName];
  if (typeof run !== 'function') throw new Error(`${modulePath} has no ${exportName}`);
  return (await run()) as Figure[];
}

async function main(): Promise<void> {
  const only = process.env['BENCH_ONLY'];
  const benchStarted = performance.now();
  const ticksAtStart = cpuTicks();
  // Production bundles and the .vsix, so sizes and the webview are what users get.
  execFileSync('npm', ['run', '--silent', 'package'], { cwd: repoRoot(), stdio: 'ignore' });
  const parts: Part[] = [
    { name: 'size', run: () => Promise.resolve(sizeFigures()) },
    { name: 'host', run: runHostBench },
    { name: 'limits', run: runLimitsBench },
    { name: 'history', run: runHistoryBench },
    { name: 'changes', run: runChangesBench },
    { name: 'editor-tools', run: runEditorToolsBench },
    { name: 'webview', run: () => optionalPart('./webview/webview-bench.js', 'runWebviewBench') },
    { name: 'stream', run: () => optionalPart('./webview/vscode-stream.js', 'runVscodeStreamBench') },
    { name: 'open', run: () => optionalPart('./webview/open-bench.js', 'runOpenBench') },
    { name: 'floods', run: () => optionalPart('./webview/vscode-floods.js', 'runVscodeFloodBench') },
  ];
  const loops = Number(process.env['BENCH_CONTEND'] ?? 0);
  const contending = Number.isInteger(loops) && loops > 0 ? startContention(loops) : undefined;
  if (contending)
    console.log(
      `info  machine: ${loops} busy loops share its cores with the bench (BENCH_CONTEND): a slower machine, as the next line reads`,
    );
  const share = process.env['BENCH_SLOW_CPU'];
  const slowCpu = share ? await startSlowCpu(Number(share)) : undefined;
  if (slowCpu)
    console.log(
      `info  machine: its cores run at ${share} of their speed for the bench (BENCH_SLOW_CPU): a slower machine, as the next line reads`,
    );
  // The best of two: the machine's own speed at reading agent output, the yardstick of every other figure here.
  const limit = Math.max(await bareParse(), await bareParse());
  const load = loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
  console.log(`info  machine: physical limit (newline split + JSON.parse): ${Math.round(limit)} updates/s  (load average ${load})`);
  let misses = 0;
  for (const part of parts) {
    if (only && only !== part.name) continue;
    const partStarted = performance.now();
    try {
      for (const figure of await part.run()) {
        if (!figure.ok) misses++;
        console.log(`${figure.ok ? 'ok  ' : 'miss'}  ${figure.name}: ${figure.value} ${figure.unit}  (target ${figure.target})`);
      }
    } catch (error) {
      misses++;
      console.log(`miss  ${part.name}: could not run: ${error instanceof Error ? error.message : String(error)}`);
    }
    console.log(`info  ${part.name}: took ${((performance.now() - partStarted) / 1000).toFixed(1)} s`);
  }
  contending?.stop();
  slowCpu?.stop();
  const stolen = Math.round(stolenShare(ticksAtStart, cpuTicks()) * 100);
  // A run with much stolen is a run on a slower machine than its physical-limit line says (that line takes 1 s).
  console.log(
    `info  bench: took ${((performance.now() - benchStarted) / 1000).toFixed(1)} s, packaging included; the hypervisor took ${stolen}% of the machine's CPU time meanwhile (steal)`,
  );
  console.log(misses === 0 ? 'bench: every target met' : `bench: ${misses} miss(es)`);
}

void main();
