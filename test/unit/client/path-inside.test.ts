import * as assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { isAtOrInside, isStrictlyInside, pathInside } from '../../../src/client/path-inside';
import { inspectWriteTarget } from '../../../src/client/write-target';

describe('path inside a folder', () => {
  const root = path.resolve('/work/ws');

  it('counts the folder itself and what lies under it', () => {
    assert.equal(isAtOrInside(root, root), true);
    assert.equal(isAtOrInside(root, path.join(root, 'src', 'a.ts')), true);
    assert.equal(isStrictlyInside(root, path.join(root, 'src', 'a.ts')), true);
    assert.equal(isStrictlyInside(root, root), false);
  });

  it('a name that begins with two dots is inside; the parent, a sibling and a prefix-sharing folder are not', () => {
    assert.equal(isAtOrInside(root, path.join(root, '..cache', 'x')), true);
    assert.equal(isStrictlyInside(root, path.join(root, '..env.local')), true);
    assert.equal(isAtOrInside(root, path.dirname(root)), false);
    assert.equal(isAtOrInside(root, path.resolve('/work/other/file')), false);
    assert.equal(isAtOrInside(root, path.resolve('/work/ws-old/file')), false);
    assert.equal(isStrictlyInside(root, path.resolve('/work/ws-old/file')), false);
  });

  it('gives the path from the folder, and nothing for a path outside it', () => {
    assert.equal(pathInside(root, root), '');
    assert.equal(pathInside(root, path.join(root, 'src', 'a.ts')), path.join('src', 'a.ts'));
    assert.equal(pathInside(root, path.join(root, '..env.local')), '..env.local');
    assert.equal(pathInside(root, path.resolve('/work/ws-old/file')), undefined);
    assert.equal(pathInside(root, path.resolve('/work')), undefined);
  });

  it('the agent may write a file named ..env.local at the top of the workspace, and still nothing above it', async () => {
    const workspace = realpathSync(mkdtempSync(path.join(tmpdir(), 'acp-inside-')));
    try {
      writeFileSync(path.join(workspace, '..env.local'), 'A=1\n');
      assert.deepEqual(await inspectWriteTarget(path.join(workspace, '..env.local'), [workspace], 'write'), { kind: 'file' });
      assert.deepEqual(await inspectWriteTarget(path.join(workspace, '..new'), [workspace], 'write'), { kind: 'absent' });
      assert.equal((await inspectWriteTarget(path.join(workspace, '..', 'above.txt'), [workspace], 'write')).kind, 'blocked');
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  });
});
