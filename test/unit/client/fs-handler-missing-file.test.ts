/**
 * A read of a missing file: the spec's "resource not found" error for every agent, except the ones that cannot
 * recognize it (Gemini CLI), which get empty content so their "does it exist?" check before a write passes.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ResponseError } from 'vscode-jsonrpc';
import { FileSystemHandler, RESOURCE_NOT_FOUND } from '../../../src/client/fs-handler';
import { missingFileAnswerFor } from '../../../src/client/missing-file-answer';
import { MemoryEditorFiles } from '../../support/host-harness';

describe('fs/read_text_file of a missing file', () => {
  let root: string;
  let files: FileSystemHandler;
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'acp-missing-'));
    files = new FileSystemHandler(new MemoryEditorFiles(root), () => undefined);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("answers the spec's resource-not-found error (-32002) by default", async () => {
    const missing = path.join(root, 'nope.txt');
    await assert.rejects(
      files.readTextFile({ path: missing }),
      (error: unknown) => error instanceof ResponseError && error.code === RESOURCE_NOT_FOUND,
    );
  });

  it('answers empty content to an agent that cannot recognize the error, and still serves files that exist', async () => {
    assert.deepEqual(await files.readTextFile({ path: path.join(root, 'nope.txt') }, 'empty_content'), { content: '' });
    writeFileSync(path.join(root, 'here.txt'), 'kept');
    assert.deepEqual(await files.readTextFile({ path: path.join(root, 'here.txt') }, 'empty_content'), { content: 'kept' });
  });

  it('still refuses a path outside the workspace, whatever the agent', async () => {
    await assert.rejects(files.readTextFile({ path: path.join(tmpdir(), 'elsewhere-missing.txt') }, 'empty_content'), /Refused to read/);
  });

  it('picks empty content for Gemini CLI only (by its initialize agentInfo.name)', () => {
    assert.equal(missingFileAnswerFor('gemini-cli'), 'empty_content');
    for (const name of ['qwen-code', 'OpenCode', '@agentclientprotocol/claude-agent-acp', undefined])
      assert.equal(missingFileAnswerFor(name), 'not_found_error');
  });
});
