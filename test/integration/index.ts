/** Loaded by VS Code's extension host: runs every integration suite with mocha and settles with the result. */
import * as path from 'node:path';
import { readdirSync } from 'node:fs';
import Mocha from 'mocha';

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
    runner.on('suite end', (suite) => {
      const since = started.get(suite);
      if (suite.parent?.root && since !== undefined) durations.push(`  ${((Date.now() - since) / 1000).toFixed(1)} s  ${suite.title}`);
    });
  });
}
