/**
 * The README's agent examples agree with its compatibility table (issue 26: the configuration example started Gemini
 * CLI with `--experimental-acp`, the table with `--acp`; a user pasting the example got a deprecated flag). Every
 * agent of the `acpClient.agents` example is a table row, and its command line is the one the row says to configure.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../../support/repo-root';

interface Example {
  readonly command: string;
  readonly args?: readonly string[];
}

const readme = (): string => readFileSync(path.join(repoRoot(), 'README.md'), 'utf8');

/** The `"acpClient.agents": { … }` object of the README's first jsonc block that has one. */
function configExample(text: string): Record<string, Example> {
  for (const [, block = ''] of text.matchAll(/```jsonc?\n([\s\S]*?)```/g)) {
    const agents = /"acpClient\.agents":\s*(\{[\s\S]*?\n\})/.exec(block)?.[1];
    if (agents) return JSON.parse(agents) as Record<string, Example>;
  }
  throw new Error('README has no "acpClient.agents" example');
}

/** The compatibility table: agent name (before its package in parentheses) → the "configure it as" cell. */
function compatibilityTable(text: string): Map<string, string> {
  const lines = text.split('\n');
  const header = lines.findIndex((line) => line.startsWith('| agent |') && line.includes('configure it as'));
  assert.ok(header >= 0, 'README has the compatibility table');
  const column = (lines[header] ?? '').split('|').findIndex((cell) => cell.trim() === 'configure it as');
  const rows = new Map<string, string>();
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const cells = line.split('|');
    const name = (cells[1] ?? '').replace(/\(.*\)/, '').trim();
    rows.set(name, cells[column] ?? '');
  }
  return rows;
}

/** The command lines in backticks in a table cell. */
const commandLines = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? '');

describe('README: agent examples agree with the compatibility table', () => {
  const text = readme();
  const table = compatibilityTable(text);
  const examples = Object.entries(configExample(text));

  it('the example names agents', () => assert.ok(examples.length > 0));

  for (const [name, example] of examples) {
    it(`${name}: the example's command line is the table's`, () => {
      const cell = table.get(name);
      assert.ok(cell !== undefined, `${name} is a row of the compatibility table (rows: ${[...table.keys()].join(', ')})`);
      const line = [example.command, ...(example.args ?? [])].join(' ');
      assert.ok(commandLines(cell).includes(line), `the example runs \`${line}\`; the table says ${cell.trim()}`);
    });
  }
});
