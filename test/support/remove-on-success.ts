import { rmSync } from 'node:fs';

/**
 * A scratch folder (a code-server home, a browser profile, a workspace copy: 10-260 MB each) is removed once the
 * process that made it exits with 0: left behind, every test and bench run added hundreds of MB to the machine's
 * temporary folder. Kept, and named, when the run failed (or with ACP_KEEP_E2E_HOME=1), for its logs and storage to
 * be read.
 */
export function removeOnSuccess(name: string, folder: string): void {
  process.once('exit', (code) => {
    if (code !== 0 || process.env['ACP_KEEP_E2E_HOME']) {
      console.log(`${name}: its folder is kept at ${folder}`);
      return;
    }
    try {
      rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
    } catch (error) {
      console.log(`${name}: its folder ${folder} could not be removed: ${String(error)}`);
    }
  });
}
