/**
 * A stand-in for the extension host whose agent runs a command through `terminal/create`: it starts one terminal with
 * the real TerminalManager and prints `ready` once the command runs. A test then kills this process (SIGKILL, so
 * neither `deactivate` nor `disposeAll` runs) and watches whether the command lives on.
 *
 * The command ignores SIGTERM and SIGHUP and has no stdin (test/support/stubborn-child.ts); `ACP_TEST_MARK` from
 * this process's environment is passed on in the terminal's env, so the test can find it in /proc either way.
 */
import { TerminalManager } from '../../src/client/terminal-manager';
import { STUBBORN_CHILD } from './stubborn-child';

const marker = process.env['ACP_TEST_MARK'] ?? '';
const terminals = new TerminalManager(
  () => [process.cwd()],
  () => process.cwd(),
  {
    onOutput: (_id, text) => {
      if (text.includes('running')) process.stdout.write('ready\n');
    },
    onExit: () => undefined,
  },
);
void terminals.create({
  command: process.execPath,
  args: ['-e', `${STUBBORN_CHILD} console.log('running');`],
  env: [{ name: 'ACP_TEST_MARK', value: marker }],
});
setInterval(() => undefined, 1000);
