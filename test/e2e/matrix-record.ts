/**
 * What the e2e matrix (matrix-states.ts) saw, cell by cell: each cell checks the agent processes its state calls for
 * (bounded wait: a stopped agent's process takes a moment to end) and is written, once the run ends, as a markdown
 * table (state × command → what the user saw) to test-results/matrix-states.md and to the console, for the closing
 * note.
 */
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { E2E_RESULTS } from '../support/e2e-home';
import { eventually, processesMarked } from '../support/processes';

export type ProcessCounts = Readonly<Record<string, number>>;

interface Cell {
  readonly state: string;
  readonly command: string;
  readonly saw: string;
  readonly processes: string;
}

export class MatrixRecord {
  private readonly cells: Cell[] = [];
  private readonly shots = new Map<string, string>();

  /** `marks`: each agent's name → the marker its processes carry in their environment. */
  constructor(private readonly marks: Readonly<Record<string, string>>) {}

  /** Records a cell once the agent processes are what `expected` says (agents not named: none). */
  async cell(state: string, command: string, saw: string, expected: ProcessCounts): Promise<void> {
    const counts = (): string =>
      Object.keys(this.marks)
        .map((agent) => `${agent} ${processesMarked(this.marks[agent] ?? '').length}`)
        .join(', ');
    const want = Object.keys(this.marks)
      .map((agent) => `${agent} ${expected[agent] ?? 0}`)
      .join(', ');
    await eventually(() => counts() === want, `${state} → ${command}: agent processes ${want}`, 15_000).catch((error: unknown) => {
      throw new Error(`${String(error)} (running: ${counts()})`);
    });
    this.cells.push({ state, command, saw, processes: want });
    console.log(`  ✔ ${state} → ${command}: ${saw} [${want}]`);
  }

  screenshot(state: string, file: string): void {
    this.shots.set(state, file);
  }

  /** The table, written to test-results/matrix-states.md; returns its text. */
  write(seconds: number): string {
    const text = (value: string): string => value.replace(/\|/g, '\\|').replace(/\s+/g, ' ');
    const lines = [
      `# State × command in the real VS Code (test/e2e/matrix-states.ts), ${new Date().toISOString()}`,
      '',
      '| state | command | what the user saw | agent processes after |',
      '| --- | --- | --- | --- |',
      ...this.cells.map((cell) => `| ${text(cell.state)} | ${text(cell.command)} | ${text(cell.saw)} | ${cell.processes} |`),
      '',
      `${this.cells.length} cells in ${seconds} s.`,
      '',
      '| state | screenshot (test-results/) |',
      '| --- | --- |',
      ...[...this.shots].map(([state, file]) => `| ${text(state)} | ${file} |`),
      '',
    ];
    const table = lines.join('\n');
    writeFileSync(path.join(E2E_RESULTS, 'matrix-states.md'), table);
    return table;
  }
}
