/** Live processes found through /proc, for tests that must prove an agent and everything it started is gone. */
import { readdirSync, readFileSync } from 'node:fs';

/** Live processes whose environment holds `marker` (zombies excluded: they have exited, only unreaped). */
export function processesMarked(marker: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`, 'latin1').includes(marker)) {
        const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
        if (!/^\d+ \(.*\) Z/.test(stat)) found.push(Number(name));
      }
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

export async function eventually(check: () => boolean, what: string, timeoutMs = 8000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
