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
    const runner = mocha.run((failures) => {
      console.log(`${runner.stats?.passes ?? mocha.suite.total() - failures} passed, ${failures} failed`);
      if (failures > 0) reject(new Error(`${failures} integration test(s) failed`));
      else resolve();
    });
  });
}
