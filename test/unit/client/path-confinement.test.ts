import * as assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, symlinkSync, writeFileSync, rmSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { confinePath } from '../../../src/client/path-confinement';

describe('path confinement', () => {
  let base: string;
  let workspace: string;
  let otherRoot: string;
  let outside: string;

  before(() => {
    base = realpathSync(mkdtempSync(path.join(tmpdir(), 'acp-confine-')));
    workspace = path.join(base, 'ws');
    otherRoot = path.join(base, 'second-root');
    outside = path.join(base, 'outside');
    mkdirSync(path.join(workspace, 'src'), { recursive: true });
    mkdirSync(otherRoot);
    mkdirSync(outside);
    writeFileSync(path.join(workspace, 'src', 'a.ts'), 'a');
    writeFileSync(path.join(outside, 'secret.txt'), 'secret');
    symlinkSync(outside, path.join(workspace, 'escape'));
    symlinkSync(path.join(workspace, 'src'), path.join(workspace, 'inner-link'));
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  it('allows a file whose name begins with two dots (..env.local is a name, not a way up)', async () => {
    writeFileSync(path.join(workspace, '..env.local'), 'x');
    const verdict = await confinePath(path.join(workspace, '..env.local'), [workspace]);
    assert.equal(verdict.allowed, true);
    assert.equal(verdict.allowed && verdict.realPath, path.join(workspace, '..env.local'));
  });

  it('allows an existing file inside the workspace', async () => {
    const verdict = await confinePath(path.join(workspace, 'src', 'a.ts'), [workspace]);
    assert.equal(verdict.allowed, true);
  });

  it('allows a file that does not exist yet inside the workspace', async () => {
    const verdict = await confinePath(path.join(workspace, 'new', 'deep', 'file.ts'), [workspace]);
    assert.deepEqual(verdict, { allowed: true, realPath: path.join(workspace, 'new', 'deep', 'file.ts'), root: workspace });
  });

  it('refuses `..` that climbs out of the workspace', async () => {
    const verdict = await confinePath(`${workspace}/src/../../outside/secret.txt`, [workspace]);
    assert.equal(verdict.allowed, false);
    assert.match(verdict.allowed ? '' : verdict.reason, /outside the workspace/);
  });

  it('refuses a symlink inside the workspace that points outside, for existing and new files', async () => {
    assert.equal((await confinePath(path.join(workspace, 'escape', 'secret.txt'), [workspace])).allowed, false);
    assert.equal((await confinePath(path.join(workspace, 'escape', 'planted.txt'), [workspace])).allowed, false);
  });

  it('allows a symlink that stays inside the workspace', async () => {
    const verdict = await confinePath(path.join(workspace, 'inner-link', 'a.ts'), [workspace]);
    assert.equal(verdict.allowed, true);
    assert.equal(verdict.allowed && verdict.realPath, path.join(workspace, 'src', 'a.ts'));
  });

  it('allows any of several workspace roots, and nothing beside them', async () => {
    assert.equal((await confinePath(path.join(otherRoot, 'x.txt'), [workspace, otherRoot])).allowed, true);
    assert.equal((await confinePath(path.join(outside, 'x.txt'), [workspace, otherRoot])).allowed, false);
  });

  it('refuses a sibling whose name merely starts with the root name', async () => {
    assert.equal((await confinePath(`${workspace}-evil/x.txt`, [workspace])).allowed, false);
  });

  it('refuses relative paths and everything when no folder is open', async () => {
    assert.equal((await confinePath('src/a.ts', [workspace])).allowed, false);
    const none = await confinePath(path.join(workspace, 'src', 'a.ts'), []);
    assert.equal(none.allowed, false);
    assert.match(none.allowed ? '' : none.reason, /no workspace folder/);
  });
});
