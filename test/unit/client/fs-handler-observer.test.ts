/** The fs handler tells change tracking about writes (before they land, and may refuse them) and whole reads. */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ResponseError } from 'vscode-jsonrpc';
import { FileSystemHandler } from '../../../src/client/fs-handler';
import type { FileAccessObserver } from '../../../src/client/ports';
import { MemoryEditorFiles } from '../../support/host-harness';

describe('fs handler observer (change tracking)', () => {
  let root: string;
  let seen: string[];
  let allow: boolean;
  let files: FileSystemHandler;
  let editor: MemoryEditorFiles;

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'acp-observer-'));
    seen = [];
    allow = true;
    const observer: FileAccessObserver = {
      beforeWrite: (p, content) => {
        seen.push(`before ${path.basename(p)} ${content}`);
        return Promise.resolve(allow ? { allowed: true } : { allowed: false, reason: 'the user rejected this change' });
      },
      afterRead: (p, content) => void seen.push(`read ${path.basename(p)} ${content}`),
    };
    editor = new MemoryEditorFiles(root);
    files = new FileSystemHandler(editor, () => undefined, undefined, observer);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('sees a write before it lands, and whole reads but not windowed ones', async () => {
    writeFileSync(path.join(root, 'a.txt'), 'one\ntwo\n');
    await files.readTextFile({ path: path.join(root, 'a.txt') });
    await files.readTextFile({ path: path.join(root, 'a.txt'), line: 2, limit: 1 });
    await files.writeTextFile({ path: path.join(root, 'b.txt'), content: 'new' });
    assert.deepEqual(seen, ['read a.txt one\ntwo\n', 'before b.txt new']);
    assert.equal(editor.writes.length, 1);
  });

  it('answers a refused write with a JSON-RPC error carrying the reason, and writes nothing', async () => {
    allow = false;
    await assert.rejects(
      files.writeTextFile({ path: path.join(root, 'c.txt'), content: 'no' }),
      (error: unknown) =>
        error instanceof ResponseError && error.code === FileSystemHandler.WRITE_REFUSED && /rejected this change/.test(error.message),
    );
    assert.equal(editor.writes.length, 0);
    assert.equal(existsSync(path.join(root, 'c.txt')), false);
  });
});
