/**
 * `BENCH_CONTEND=<n>`: n busy loops share the machine's 2 cores with the bench, so that every process is slower at
 * once: the extension host, code-server, the browser's processes and the agent, which Chromium's CPU throttling
 * (`BENCH_CPU_THROTTLE`, one page's main thread) cannot slow. The physical-limit line is read with them running and
 * says how slow the result is (three loops: 226-287k updates/s here against 536k without; the slow machine
 * reads 236-303k). What it emulates is a machine with less CPU time to give, not a slower CPU: the loops take turns
 * with the bench's threads in the kernel's time slices, so a line that times the longest stall (a block, a probe's
 * answer, a chunk's way to the screen across four processes) also counts the slices a thread waited for a core,
 * which a slow CPU does not add. Measured with three loops: the extension host's longest event-loop block under the
 * 50 MB terminal flood 85-157 ms against 14-17 ms without them, where half the CPU's speed would make some 30.
 * So: durations and throughput, read beside the physical-limit line; stalls only as an upper bound. `BENCH_SLOW_CPU`
 * (bench/slow-cpu.ts) slows the cores instead, and is the closer stand-in where root may set CFS quotas.
 */
import { spawn, type ChildProcess } from 'node:child_process';

/** Spins, checking now and then that the bench that started it is still there (no loop outlives it). */
const LOOP = `const parent = process.ppid; for (;;) { let x = 0; for (let i = 0; i < 5e6; i++) x += i; if (x < 0 || process.ppid !== parent) process.exit(0); }`;

export interface Contention {
  /** Ends the loops for a while (the open bench's wait for a quiet machine), until `resume` starts them again. */
  pause(): void;
  resume(): void;
  stop(): void;
}

/**
 * Kept on the process, not in a module variable: each bench file is its own bundle (esbuild.mjs), so run.ts and
 * machine-quiet.ts each had a copy of this module, and the open bench's waits for a quiet machine never saw the loops
 * run.ts started. They ran on, and every wait ran to its 20 s limit: most of the open bench's 1,159 s in a 1,507 s bench.
 */
const CURRENT = Symbol.for('acp-bench.contention');

function setCurrent(handle: Contention | undefined): void {
  Reflect.set(globalThis, CURRENT, handle);
}

/** The bench's contention, if BENCH_CONTEND asked for it. */
export function contention(): Contention | undefined {
  return Reflect.get(globalThis, CURRENT) as Contention | undefined;
}

export function startContention(loops: number): Contention {
  let children: ChildProcess[] = [];
  const spawnLoops = (): void => {
    for (let index = 0; index < loops; index++) children.push(spawn(process.execPath, ['-e', LOOP], { stdio: 'ignore' }));
  };
  // Killed rather than stopped (SIGSTOP) while paused: a stopped loop would outlive a bench killed meanwhile.
  const killLoops = (): void => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    children = [];
  };
  const stop = (): void => {
    killLoops();
    process.off('exit', stop);
    if (contention() === handle) setCurrent(undefined);
  };
  process.on('exit', stop);
  spawnLoops();
  const handle: Contention = {
    pause: killLoops,
    resume: () => {
      if (children.length === 0) spawnLoops();
    },
    stop,
  };
  setCurrent(handle);
  return handle;
}
