/** Loaded by VS Code's extension host: runs every integration suite with mocha and settles with the result. */
import * as path from 'node:path';
import { appendFileSync, mkdirSync, readdirSync } from 'node:fs';
import Mocha from 'mocha';
import { repoRoot } from '../support/repo-root';

/** One line per failing test, which `npm test` repeats after its summary (CI shows only the end of the output). */
const FAILURES = path.join(repoRoot(), 'test-results', 'failures-integration.txt');

function recordFailure(test: Mocha.Runnable, error: unknown): void {
  const message = (error instanceof Error ? error.message : String(error)).split('\n', 3).join(' ').slice(0, 300);
  mkdirSync(path.dirname(FAILURES), { recursive: true });
  appendFileSync(FAILURES, `- ${test.fullTitle()}: ${message}\n`);
}

export function run(): Promise<void> {
  // ACP_TEST_GREP runs only the matching tests (e.g. one real agent's suite while working on it).
  const grep = process.env['ACP_TEST_GREP'];
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 60_000, reporter: 'spec', ...(grep ? { grep } : {}) });
  for (const file of readdirSync(__dirname)
    .filter((name) => name.endsWith('.test.js'))
    .sort())
    mocha.addFile(path.join(__dirname, file));
  return new Promise((resolve, reject) => {
    const durations: string[] = [];
    const runner = mocha.run((failures) => {
      // The run has a CI time limit: each top-level suite's share is printed so growth is seen where it happens.
      console.log(`Suite durations:\n${durations.join('\n')}`);
      console.log(`${runner.stats?.passes ?? mocha.suite.total() - failures} passed, ${failures} failed`);
      if (failures > 0) reject(new Error(`${failures} integration test(s) failed`));
      else resolve();
    });
    const started = new Map<Mocha.Suite, number>();
    runner.on('suite', (suite) => started.set(suite, Date.now()));
    runner.on('fail', recordFailure);
    runner.on('suite end', (suite) => {
      const since = started.get(suite);
      if (suite.parent?.root && since !== undefined) durations.push(`  ${((Date.now() - since) / 1000).toFixed(1)} s  ${suite.title}`);
    });
  });
}
