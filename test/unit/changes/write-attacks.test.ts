/**
 * The attack matrix's rows for writes back to the workspace (issue 25) on the host path, on real folders: Undo,
 * "Restore to here" and fs/write_text_file against links planted after a path was recorded (to a canary file
 * outside the workspace, dangling, a folder turned link, a hard link, another case), a damaged stored copy, a
 * garbled change log, a file with unsaved edits. Each row asserts that nothing was written outside the workspace,
 * the user's file is intact, and what the user is told says why.
 */
import * as assert from 'node:assert/strict';
import {
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { lstat, readdir, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ResponseError } from 'vscode-jsonrpc';
import { FileSystemHandler } from '../../../src/client/fs-handler';
import { confinePath } from '../../../src/client/path-confinement';
import { inspectWriteTarget, type DirectoryLookup } from '../../../src/client/write-target';
import { ChangeLog } from '../../../src/changes/change-log';
import { ChangeTracker } from '../../../src/changes/change-tracker';
import type { ApplyOutcome } from '../../../src/changes/plan-application';
import { ContentStore } from '../../../src/changes/content-store';
import { TranscriptStore } from '../../../src/session/transcript-store';
import type { AttackCase } from '../../support/attack-case';
import { DiskApplier, DiskChangeFiles } from '../../support/disk-change-ports';
import { MemoryEditorFiles } from '../../support/host-harness';

interface Row extends AttackCase {
  readonly run: (world: World) => Promise<void>;
}

/** One temp folder: the workspace, a folder outside it with a canary file, the extension's storage. */
interface World {
  readonly root: string;
  readonly outside: string;
  readonly canary: string;
  readonly storage: string;
  readonly files: DiskChangeFiles;
  readonly notices: string[];
  tracker: ChangeTracker;
  file(name: string): string;
  /** One turn in which the agent changes the disk itself (`work`); returns its turn id. */
  turn(work: () => string[]): Promise<string>;
  /** A tracker as after Reload Window (the same storage). */
  reopen(): Promise<ChangeTracker>;
}

const CANARY = 'export PATH=$HOME/bin:$PATH\n';
const HOST = 'the change engine with real files in a temp folder (host path)';
const skippedOf = (outcome: ApplyOutcome): string =>
  outcome.kind === 'applied' || outcome.kind === 'refused'
    ? outcome.skipped.map((s) => `${path.basename(s.path)}: ${s.reason}`).join('; ')
    : '';

const rows: Row[] = [
  {
    attack: 'undo of a deleted file that came back as a symlink to a file outside the workspace (~/.bash_login)',
    driven: `${HOST}: the agent deletes a.txt, a link a.txt -> canary is planted, Undo`,
    sees: 'Undo refused: "Did not undo a.txt: it is now a symbolic link."; the canary is unchanged',
    run: async (w) => {
      const turnId = await w.turn(() => (unlinkSync(w.file('a.txt')), ['a.txt']));
      symlinkSync(w.canary, w.file('a.txt'));
      const outcome = await w.tracker.undo(turnId, undefined, true);
      assert.equal(outcome.kind, 'refused');
      assert.match(skippedOf(outcome), /a\.txt: it is now a symbolic link$/);
      assert.equal(lstatSync(w.file('a.txt')).isSymbolicLink(), true, 'the link is left as it is');
    },
  },
  {
    attack: 'restore to here through a dangling symlink that points outside the workspace',
    driven: `${HOST}: the agent deletes a.txt, a link a.txt -> outside/planted (missing) is planted, Restore to here`,
    sees: 'the preview lists a.txt "will not be restored: it is now a symbolic link whose target is missing"; nothing is created',
    run: async (w) => {
      const turnId = await w.turn(() => (unlinkSync(w.file('a.txt')), ['a.txt']));
      const planted = path.join(w.outside, 'planted');
      symlinkSync(planted, w.file('a.txt'));
      const preview = await w.tracker.previewRestore(turnId);
      assert.deepEqual(
        preview?.blocked.map((b) => [path.basename(b.path), b.reason]),
        [['a.txt', 'it is now a symbolic link whose target is missing']],
      );
      const outcome = await w.tracker.restore(turnId, true);
      assert.equal(outcome.kind, 'refused');
      assert.match(skippedOf(outcome), /whose target is missing/);
      assert.equal(existsSync(planted), false, 'the link target was not created');
    },
  },
  {
    attack: 'undo of a deleted file whose folder was replaced by a symlink to a folder outside the workspace',
    driven: `${HOST}: the agent deletes dir/c.txt, dir is replaced by a link dir -> outside, Undo`,
    sees: 'Undo refused: "Did not undo dir/c.txt: its folder dir is now a link to outside the workspace."',
    run: async (w) => {
      const turnId = await w.turn(() => (unlinkSync(w.file('dir/c.txt')), ['dir/c.txt']));
      rmSync(w.file('dir'), { recursive: true });
      symlinkSync(w.outside, w.file('dir'));
      const outcome = await w.tracker.undo(turnId, undefined, true);
      assert.equal(outcome.kind, 'refused');
      assert.match(skippedOf(outcome), /its folder dir is now a link to outside the workspace/);
      assert.equal(existsSync(path.join(w.outside, 'c.txt')), false, 'nothing written outside');
    },
  },
  {
    attack: 'undo of a created file whose folder became a link outside, so the delete would remove a file outside',
    driven: `${HOST}: the agent creates dir/made.txt, dir is moved away and linked to outside (which has made.txt), Undo`,
    sees: 'Undo refused with the folder named as a link to outside; the file outside still exists',
    run: async (w) => {
      const turnId = await w.turn(() => (writeFileSync(w.file('dir/made.txt'), 'made\n'), ['dir/made.txt']));
      renameSync(w.file('dir'), w.file('dir-moved'));
      writeFileSync(path.join(w.outside, 'made.txt'), 'made\n');
      symlinkSync(w.outside, w.file('dir'));
      const outcome = await w.tracker.undo(turnId, undefined, true);
      assert.equal(outcome.kind, 'refused');
      assert.match(skippedOf(outcome), /link to outside the workspace/);
      assert.equal(readFileSync(path.join(w.outside, 'made.txt'), 'utf8'), 'made\n');
    },
  },
  {
    attack: 'undo of a deleted file that came back as a hard link to a file outside the workspace',
    driven: `${HOST}: the agent deletes a.txt, a hard link a.txt = canary is made, Undo anyway`,
    sees: 'Undo refused: "it is now a hard link (another name of the same file may be outside the workspace)"',
    run: async (w) => {
      const turnId = await w.turn(() => (unlinkSync(w.file('a.txt')), ['a.txt']));
      linkSync(w.canary, w.file('a.txt'));
      const outcome = await w.tracker.undo(turnId, undefined, true);
      assert.equal(outcome.kind, 'refused');
      assert.match(skippedOf(outcome), /hard link/);
    },
  },
  {
    attack: 'undo into a path that changed case on a case-insensitive disk (Readme.md recorded, README.md on disk)',
    driven: `${HOST}: the write check over a real folder looked up case-insensitively, as on macOS and Windows`,
    sees: 'not written: "Readme.md now exists under another case (README.md)"',
    run: async (w) => {
      writeFileSync(w.file('README.md'), 'the user\u2019s readme\n');
      const verdict = await inspectWriteTarget(w.file('Readme.md'), [w.root], 'write', caseInsensitive);
      assert.deepEqual(verdict, { kind: 'blocked', reason: 'Readme.md now exists under another case (README.md)' });
      assert.deepEqual(await inspectWriteTarget(w.file('README.md'), [w.root], 'write', caseInsensitive), { kind: 'file' });
    },
  },
  {
    attack: 'a torn stored copy (power cut) that Undo would write over the user file',
    driven: `${HOST}: the agent edits a.txt and b.txt, a.txt's stored copy is truncated, Undo of the turn`,
    sees: 'a.txt: "its stored earlier copy is damaged (it does not match its checksum)"; b.txt is undone',
    run: async (w) => {
      const turnId = await w.turn(() => {
        writeFileSync(w.file('a.txt'), 'agent a\n');
        writeFileSync(w.file('b.txt'), 'agent b\n');
        return ['a.txt', 'b.txt'];
      });
      const before = w.tracker.record(turnId)?.files.find((f) => f.path === w.file('a.txt'))?.before;
      assert.equal(before?.kind, 'file');
      const hash = before.kind === 'file' ? before.hash : '';
      truncateSync(path.join(w.storage, 'blobs', hash.slice(0, 2), hash), 3);
      const outcome = await w.tracker.undo(turnId);
      assert.equal(outcome.kind, 'applied');
      assert.deepEqual(outcome.kind === 'applied' && outcome.paths, [w.file('b.txt')]);
      assert.match(skippedOf(outcome), /a\.txt: its stored earlier copy is damaged/);
      assert.equal(readFileSync(w.file('a.txt'), 'utf8'), 'agent a\n', 'the file is left as it is, never torn');
      assert.equal(readFileSync(w.file('b.txt'), 'utf8'), 'bee\n');
    },
  },
  {
    attack: 'a change log that cannot be parsed (torn, garbled) would silently become empty and be overwritten',
    driven: `${HOST}: the conversation's log is garbled, the tracker reopens (Reload Window) and a turn runs`,
    sees: 'a warning that the saved changes could not be loaded, naming the .corrupt-<time> copy kept aside',
    run: async (w) => {
      await w.turn(() => (writeFileSync(w.file('a.txt'), 'agent\n'), ['a.txt']));
      const logs = path.join(w.storage, 'logs');
      const [name] = readdirSync(logs);
      const garbled = '{"version":1,"turns":["t1"],"records":[{"turnId":';
      writeFileSync(path.join(logs, name!), garbled);
      const tracker = await w.reopen();
      await w.turn(() => (writeFileSync(w.file('b.txt'), 'agent\n'), ['b.txt']));
      assert.equal(w.notices.length, 1);
      assert.match(w.notices[0]!, /could not be loaded: it is damaged .*kept as .*\.corrupt-/);
      const aside = readdirSync(logs).filter((n) => n.includes('.corrupt-'));
      assert.equal(aside.length, 1);
      assert.equal(readFileSync(path.join(logs, aside[0]!), 'utf8'), garbled, 'the unreadable log is kept byte for byte');
      assert.equal(tracker.record('t1'), undefined);
    },
  },
  {
    attack: 'undo of a file the agent created deletes unsaved edits the user made to it',
    driven: `${HOST}: the agent creates new.txt, the editor holds unsaved edits of it, Undo`,
    sees: 'a conflict: "new.txt changed after the agent (unsaved edits in the editor: new.txt)"; nothing deleted',
    run: async (w) => {
      const turnId = await w.turn(() => (writeFileSync(w.file('new.txt'), 'agent\n'), ['new.txt']));
      w.files.dirty.add(w.file('new.txt'));
      const outcome = await w.tracker.undo(turnId);
      assert.deepEqual(outcome, { kind: 'conflict', paths: [w.file('new.txt')], unsaved: [w.file('new.txt')] });
      assert.equal(readFileSync(w.file('new.txt'), 'utf8'), 'agent\n');
    },
  },
  {
    attack: 'fs/write_text_file to a dangling symlink inside the workspace that points outside',
    driven: `${HOST}: the fs handler, a link ws/out.txt -> outside/created.txt (missing)`,
    sees: 'the agent gets "Refused to write ...: ... goes through a symbolic link whose target is missing"',
    run: async (w) => {
      symlinkSync(path.join(w.outside, 'created.txt'), w.file('out.txt'));
      const verdict = await confinePath(w.file('out.txt'), [w.root]);
      assert.equal(verdict.allowed, false);
      const handler = new FileSystemHandler(new MemoryEditorFiles(w.root), () => undefined);
      await assert.rejects(
        handler.writeTextFile({ path: w.file('out.txt'), content: 'x' }),
        (error: unknown) => error instanceof ResponseError && /symbolic link whose target is missing/.test(error.message),
      );
      assert.equal(existsSync(path.join(w.outside, 'created.txt')), false);
    },
  },
  {
    attack: 'fs/write_text_file with a NUL in the path',
    driven: `${HOST}: the fs handler`,
    sees: 'the agent gets "Refused to write ...: the path contains a NUL character"',
    run: async (w) => {
      const handler = new FileSystemHandler(new MemoryEditorFiles(w.root), () => undefined);
      await assert.rejects(
        handler.writeTextFile({ path: `${w.file('a.txt')}\0.sh`, content: 'x' }),
        (error: unknown) => error instanceof ResponseError && /NUL character/.test(error.message),
      );
      assert.equal(readFileSync(w.file('a.txt'), 'utf8'), 'one\n');
    },
  },
  {
    attack: 'a write accepted in review before write, whose path became a link to outside while the user looked',
    driven: `${HOST}: the fs handler; during the review the agent swaps dir for a link to outside`,
    sees: 'the agent gets "Refused to write ...: outside the workspace folders"; nothing written outside',
    run: async (w) => {
      const editor = new MemoryEditorFiles(w.root);
      const handler = new FileSystemHandler(editor, () => undefined, undefined, {
        beforeWrite: () => {
          rmSync(w.file('dir'), { recursive: true });
          symlinkSync(w.outside, w.file('dir'));
          return Promise.resolve({ allowed: true });
        },
        afterRead: () => undefined,
      });
      await assert.rejects(
        handler.writeTextFile({ path: w.file('dir/c.txt'), content: 'accepted' }),
        (error: unknown) => error instanceof ResponseError && /outside the workspace/.test(error.message),
      );
      assert.equal(editor.writes.length, 0);
      assert.equal(existsSync(path.join(w.outside, 'c.txt')), false);
    },
  },
];

/** Lookups of a case-insensitive disk over a real folder: a name matches an entry of any case, as APFS and NTFS do. */
const caseInsensitive: DirectoryLookup = {
  lstat: async (target) => lstat(await folded(target)),
  readdir: async (dir) => readdir(await folded(dir)),
  realpath: async (target) => realpath(await folded(target)),
};

async function folded(target: string): Promise<string> {
  const parent = path.dirname(target);
  if (parent === target) return target;
  const base = await folded(parent);
  const name = path.basename(target);
  const entries = await readdir(base).catch(() => [] as string[]);
  return path.join(base, entries.find((e) => e === name) ?? entries.find((e) => e.toLowerCase() === name.toLowerCase()) ?? name);
}

describe('attacks on writes back to the workspace (undo, restore, fs/write)', () => {
  for (const row of rows) {
    it(`attack: ${row.attack}`, async () => {
      const scratch = realpathSync(mkdtempSync(path.join(tmpdir(), 'acp-write-attacks-')));
      const root = path.join(scratch, 'ws');
      const outside = path.join(scratch, 'outside');
      const storage = path.join(scratch, 'storage');
      mkdirSync(path.join(root, 'dir'), { recursive: true });
      mkdirSync(outside);
      writeFileSync(path.join(root, 'a.txt'), 'one\n');
      writeFileSync(path.join(root, 'b.txt'), 'bee\n');
      writeFileSync(path.join(root, 'dir', 'c.txt'), 'sea\n');
      const canary = path.join(outside, '.bash_login');
      writeFileSync(canary, CANARY);
      const transcript = new TranscriptStore();
      const files = new DiskChangeFiles(root);
      const errors: string[] = [];
      const notices: string[] = [];
      let turn = 0;
      const make = (): ChangeTracker =>
        new ChangeTracker({
          conversationId: 'conv',
          transcript,
          files,
          content: new ContentStore(path.join(storage, 'blobs'), { maxTotalBytes: () => 1 << 26, maxFileBytes: 1 << 20 }),
          log: new ChangeLog(path.join(storage, 'logs'), 'conv'),
          applier: new DiskApplier(),
          onError: (message) => errors.push(message),
          onNotice: (message) => notices.push(message),
          settleMs: 5,
        });
      const world: World = {
        root,
        outside,
        canary,
        storage,
        files,
        notices,
        tracker: make(),
        file: (name) => path.join(root, name),
        turn: async (work) => {
          const turnId = `t${++turn}`;
          transcript.dispatch({ type: 'prompt_sent', turnId, content: [{ type: 'text', text: 'go' }] });
          for (const changed of work()) world.tracker.diskChanged(path.join(root, changed));
          transcript.dispatch({ type: 'turn_ended', turnId, stopReason: 'end_turn' });
          await world.tracker.idle();
          return turnId;
        },
        reopen: async () => {
          world.tracker.dispose();
          world.tracker = make();
          await world.tracker.idle();
          return world.tracker;
        },
      };
      try {
        await world.tracker.idle();
        await row.run(world);
        assert.equal(readFileSync(canary, 'utf8'), CANARY, 'the canary outside the workspace is untouched');
        const outsideNow = readdirSync(outside).filter((n) => n !== 'made.txt');
        assert.deepEqual(outsideNow, ['.bash_login'], 'nothing new outside the workspace');
        assert.deepEqual(
          errors.filter((e) => !notices.includes(e)),
          [],
        );
      } finally {
        world.tracker.dispose();
        rmSync(scratch, { recursive: true, force: true });
      }
    });
  }
});
