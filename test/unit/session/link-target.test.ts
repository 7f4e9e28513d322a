import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { linkDestination } from '../../../src/session/link-target';

describe("linkDestination: where an agent's file link leads before the editor opens it", () => {
  let home = '';
  let workspace = '';
  let outside = '';
  before(() => {
    home = realpathSync(mkdtempSync(path.join(tmpdir(), 'acp-link-')));
    workspace = path.join(home, 'workspace');
    outside = path.join(home, 'secrets');
    mkdirSync(path.join(workspace, 'src'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(path.join(workspace, 'src', 'a.ts'), 'a');
    writeFileSync(path.join(outside, 'id_rsa'), 'key');
    symlinkSync(outside, path.join(workspace, 'out'));
    symlinkSync(path.join(outside, 'gone'), path.join(workspace, 'dangling'));
  });
  after(() => rmSync(home, { recursive: true, force: true }));

  it('opens a workspace file, absolute or relative to the workspace', async () => {
    assert.deepEqual(await linkDestination(path.join(workspace, 'src', 'a.ts'), [workspace]), {
      kind: 'inside',
      path: path.join(workspace, 'src', 'a.ts'),
    });
    assert.deepEqual(await linkDestination('src/a.ts', [workspace]), { kind: 'inside', path: path.join(workspace, 'src', 'a.ts') });
  });

  it('leaves a file outside the workspace to the user, however the path gets there', async () => {
    for (const link of [
      path.join(outside, 'id_rsa'),
      '../secrets/id_rsa',
      'src/../../secrets/id_rsa',
      'out/id_rsa',
      'dangling',
      '/etc/passwd',
    ])
      assert.equal((await linkDestination(link, [workspace])).kind, 'outside', link);
  });

  it('never opens a path on another machine, a device path or one with a NUL', async () => {
    for (const link of ['//host/share/x', '\\\\host\\share\\x', '/\\host/share', '\\\\?\\C:\\x', 'src/a.ts\u0000.png'])
      assert.equal((await linkDestination(link, [workspace])).kind, 'refused', JSON.stringify(link));
  });

  it('refuses a relative path when no folder is open', async () => {
    assert.equal((await linkDestination('src/a.ts', [])).kind, 'refused');
    assert.equal((await linkDestination(path.join(workspace, 'src', 'a.ts'), [])).kind, 'outside');
  });
});
