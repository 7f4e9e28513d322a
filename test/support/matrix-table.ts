/**
 * Prints the command matrix (test/support/command-matrix.ts) as a markdown table, state × command → what the user
 * sees, from the very rows the real-VS Code test drives: `node out/test/support/matrix-table.js` after a build.
 * A cell no row covers shows "–".
 */
import { MATRIX, type MatrixCommand, type MatrixState } from './command-matrix';

const unique = <T>(values: readonly T[]): T[] => [...new Set(values)];
const cellText = (text: string): string => text.replace(/\|/g, '\\|');

export function matrixTable(): string {
  const states: MatrixState[] = unique(MATRIX.map((cell) => cell.state));
  const commands: MatrixCommand[] = unique(MATRIX.map((cell) => cell.command));
  const lines = [`| command | ${states.join(' | ')} |`, `| --- | ${states.map(() => '---').join(' | ')} |`];
  for (const command of commands) {
    const row = states.map((state) => {
      const cell = MATRIX.find((candidate) => candidate.state === state && candidate.command === command);
      return cell ? cellText(cell.sees) : '–';
    });
    lines.push(`| ${command} | ${row.join(' | ')} |`);
  }
  return `${lines.join('\n')}\n\n${MATRIX.length} cells, ${states.length} states × ${commands.length} commands.`;
}

if (require.main === module) console.log(matrixTable());
