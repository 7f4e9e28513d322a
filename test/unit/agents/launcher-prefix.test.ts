import * as assert from 'node:assert/strict';
import { argsOutsideWorkspace } from '../../../src/agents/launcher-prefix';

describe('argsOutsideWorkspace: npx is pointed at the home folder, not the workspace', () => {
  const home = '/home/user';

  it('puts --prefix <home> first for npx, by name or path, and for its Windows shim', () => {
    for (const command of ['npx', '/usr/local/bin/npx', 'C:\\Program Files\\nodejs\\npx.cmd', 'NPX.CMD'])
      assert.deepEqual(argsOutsideWorkspace(command, ['-y', 'pkg@1'], home), ['--prefix', home, '-y', 'pkg@1'], command);
  });

  it('does the same for npm exec and npm x', () => {
    assert.deepEqual(argsOutsideWorkspace('npm', ['exec', '--yes', 'pkg'], home), ['--prefix', home, 'exec', '--yes', 'pkg']);
    assert.deepEqual(argsOutsideWorkspace('npm.cmd', ['x', 'pkg'], home), ['--prefix', home, 'x', 'pkg']);
  });

  it("keeps a prefix the user chose, and other commands' arguments as they are", () => {
    assert.deepEqual(argsOutsideWorkspace('npx', ['--prefix', '/opt/agents', 'pkg'], home), ['--prefix', '/opt/agents', 'pkg']);
    assert.deepEqual(argsOutsideWorkspace('npx', ['--prefix=/opt/agents', 'pkg'], home), ['--prefix=/opt/agents', 'pkg']);
    assert.deepEqual(argsOutsideWorkspace('npm', ['run', 'agent'], home), ['run', 'agent']);
    assert.deepEqual(argsOutsideWorkspace('uvx', ['pkg'], home), ['pkg']);
    assert.deepEqual(argsOutsideWorkspace('/usr/bin/node', ['agent.js'], home), ['agent.js']);
    assert.deepEqual(argsOutsideWorkspace('npx-like', ['pkg'], home), ['pkg']);
  });
});
