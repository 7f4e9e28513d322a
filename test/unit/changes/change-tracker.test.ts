/**
 * The change engine in plain Node: turns driven through a transcript store, the disk changed directly (as an
 * agent with its own tools does) or through the client's write hooks, and review, undo and restore on the result.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { SnapshotRead } from '../../../src/changes/change-ports';
import { ChangeLog } from '../../../src/changes/change-log';
import { ChangeTracker } from '../../../src/changes/change-tracker';
import { ContentStore } from '../../../src/changes/content-store';
import { TranscriptStore } from '../../../src/session/transcript-store';
import type { ChangeSetEntry } from '../../../src/shared/model';
import { entriesOf } from '../../../src/shared/selectors';
import { DiskApplier, DiskChangeFiles } from '../../support/disk-change-ports';

describe('change tracking (engine)', () => {
  let scratch: string;
  let root: string;
  let transcript: TranscriptStore;
  let files: DiskChangeFiles;
  let tracker: ChangeTracker;
  let content: ContentStore;
  let turn = 0;
  const errors: string[] = [];

  const make = (conversationId = 'conv-1', maxTotalBytes = 50 * 1024 * 1024): ChangeTracker => {
    content = new ContentStore(path.join(scratch, 'blobs'), { maxTotalBytes: () => maxTotalBytes, maxFileBytes: 1024 * 1024 });
    return new ChangeTracker({
      conversationId,
      transcript,
      files,
      content,
      log: new ChangeLog(path.join(scratch, 'logs'), conversationId),
      applier: new DiskApplier(),
      onError: (message) => errors.push(message),
      settleMs: 5,
    });
  };
  const file = (name: string): string => path.join(root, name);
  const write = (name: string, text: string | Buffer): void => {
    mkdirSync(path.dirname(file(name)), { recursive: true });
    writeFileSync(file(name), text);
  };
  /** One turn: `work` changes the disk and says what the watcher saw. */
  const runTurn = async (work: () => Promise<string[]> | string[]): Promise<string> => {
    const turnId = `t${++turn}`;
    transcript.dispatch({ type: 'prompt_sent', turnId, content: [{ type: 'text', text: 'go' }] });
    for (const changed of await work()) tracker.diskChanged(file(changed));
    transcript.dispatch({ type: 'turn_ended', turnId, stopReason: 'end_turn' });
    await tracker.idle();
    return turnId;
  };
  const card = (turnId: string): ChangeSetEntry | undefined =>
    entriesOf(transcript.state).find((e): e is ChangeSetEntry => e.kind === 'changes' && e.turnId === turnId);
  /** `made/z.txt`, gone from the disk, made again by the next turn: that turn's card shows it created. */
  const madeAgainIsNew = async (): Promise<void> => {
    const next = await runTurn(() => {
      write('made/z.txt', 'z\n');
      return ['made/z.txt'];
    });
    assert.deepEqual(
      card(next)?.files.map((f) => [path.relative(root, f.path), f.change]),
      [['made/z.txt', 'created']],
    );
  };

  beforeEach(async () => {
    scratch = mkdtempSync(path.join(tmpdir(), 'acp-changes-'));
    root = path.join(scratch, 'ws');
    mkdirSync(root);
    write('a.txt', 'one\ntwo\nthree\n');
    write('b.txt', 'bee\n');
    write('.git/HEAD', 'ref: refs/heads/main\n');
    transcript = new TranscriptStore();
    files = new DiskChangeFiles(root);
    errors.length = 0;
    tracker = make();
    await tracker.idle();
  });
  afterEach(() => {
    tracker.dispose();
    rmSync(scratch, { recursive: true, force: true });
    assert.deepEqual(errors, []);
  });

  it('captures modifications, creations and deletions made on disk, with line counts', async () => {
    const turnId = await runTurn(() => {
      write('a.txt', 'one\nTWO\nthree\nfour\n');
      write('new/c.txt', 'sea\n');
      unlinkSync(file('b.txt'));
      write('.git/index', 'ignored');
      return ['a.txt', 'new/c.txt', 'b.txt', '.git/index'];
    });
    const shown = card(turnId);
    assert.deepEqual(
      shown?.files.map((f) => [path.relative(root, f.path), f.change, f.added, f.removed, f.review]),
      [
        ['a.txt', 'modified', 2, 1, 'pending'],
        ['new/c.txt', 'created', 1, 0, 'pending'],
        ['b.txt', 'deleted', 0, 1, 'pending'],
      ],
    );
  });

  it('folds a delete and a create of the same content into a rename, and undoes it as one', async () => {
    // The file was made well before the turn: a rename keeps its birth time, and it is still new at its new path.
    await new Promise((resolve) => setTimeout(resolve, 60));
    const turnId = await runTurn(() => {
      renameSync(file('b.txt'), file('moved.txt'));
      return ['b.txt', 'moved.txt'];
    });
    const shown = card(turnId)!;
    assert.equal(shown.files.length, 1);
    assert.equal(shown.files[0]?.change, 'renamed');
    assert.equal(shown.files[0]?.renamedFrom, file('b.txt'));
    const outcome = await tracker.undo(turnId, [file('moved.txt')]);
    assert.equal(outcome.kind, 'applied');
    assert.equal(readFileSync(file('b.txt'), 'utf8'), 'bee\n');
    assert.equal(existsSync(file('moved.txt')), false);
  });

  it('does not attribute a change that leaves the file as it was, nor a save the user made', async () => {
    const turnId = await runTurn(() => {
      write('a.txt', 'user edit\n');
      tracker.userSaved(file('a.txt'));
      return ['a.txt', 'b.txt'];
    });
    assert.equal(card(turnId), undefined);
  });

  it('an agent that writes on disk itself and then the same content through the client (OpenCode) still shows its change', async () => {
    const turnId = await runTurn(async () => {
      // Its own write lands first; the watcher's event for it is handled only after the client write.
      write('a.txt', 'one\nTWO\nthree\n');
      await tracker.beforeClientWrite(file('a.txt'), 'one\nTWO\nthree\n');
      write('a.txt', 'one\nTWO\nthree\n');
      return ['a.txt'];
    });
    const shown = card(turnId)?.files.map((f) => [f.change, f.added, f.removed]);
    assert.deepEqual(shown, [['modified', 1, 1]]);
    assert.deepEqual(await tracker.undo(turnId), { kind: 'applied', paths: [file('a.txt')], unrestorable: [], skipped: [] });
    assert.equal(readFileSync(file('a.txt'), 'utf8'), 'one\ntwo\nthree\n');
  });

  it('uses the exact before-content of writes through the client, and Undo restores it', async () => {
    const turnId = await runTurn(async () => {
      await tracker.beforeClientWrite(file('a.txt'));
      write('a.txt', 'rewritten\n');
      await tracker.beforeClientWrite(file('fresh.txt'));
      write('fresh.txt', 'hello\n');
      return ['a.txt', 'fresh.txt'];
    });
    assert.deepEqual(
      card(turnId)?.files.map((f) => f.change),
      ['modified', 'created'],
    );
    assert.deepEqual(await tracker.undo(turnId), {
      kind: 'applied',
      paths: [file('a.txt'), file('fresh.txt')],
      unrestorable: [],
      skipped: [],
    });
    assert.equal(readFileSync(file('a.txt'), 'utf8'), 'one\ntwo\nthree\n');
    assert.equal(existsSync(file('fresh.txt')), false, 'a file the agent created is deleted');
    assert.deepEqual(
      card(turnId)?.files.map((f) => f.review),
      ['undone', 'undone'],
    );
  });

  it('Keep clears a file from review without touching it', async () => {
    const turnId = await runTurn(() => {
      write('a.txt', 'kept\n');
      write('b.txt', 'also\n');
      return ['a.txt', 'b.txt'];
    });
    await tracker.keep(turnId, [file('a.txt')]);
    assert.deepEqual(
      card(turnId)?.files.map((f) => f.review),
      ['kept', 'pending'],
    );
    assert.equal(readFileSync(file('a.txt'), 'utf8'), 'kept\n');
  });

  it('refuses to undo over a user edit made after the agent, unless forced', async () => {
    const turnId = await runTurn(() => {
      write('a.txt', 'agent\n');
      return ['a.txt'];
    });
    write('a.txt', 'agent\nplus the user\n');
    assert.deepEqual(await tracker.undo(turnId), { kind: 'conflict', paths: [file('a.txt')], unsaved: [] });
    assert.equal(readFileSync(file('a.txt'), 'utf8'), 'agent\nplus the user\n', 'nothing was overwritten');
    assert.equal((await tracker.undo(turnId, undefined, true)).kind, 'applied');
    assert.equal(readFileSync(file('a.txt'), 'utf8'), 'one\ntwo\nthree\n');
  });

  it('restores to a checkpoint across two turns, and the restore itself can be undone', async () => {
    const first = await runTurn(() => {
      write('a.txt', 'first\n');
      return ['a.txt'];
    });
    const quiet = await runTurn(() => []);
    await runTurn(() => {
      write('a.txt', 'second\n');
      write('n.txt', 'new\n');
      unlinkSync(file('b.txt'));
      return ['a.txt', 'n.txt', 'b.txt'];
    });
    const preview = await tracker.previewRestore(quiet);
    assert.deepEqual(preview?.files.map((f) => path.relative(root, f.path)).sort(), ['a.txt', 'b.txt', 'n.txt']);
    assert.deepEqual(preview?.conflicts, []);
    const restored = await tracker.restore(first);
    assert.equal(restored.kind, 'applied');
    assert.equal(readFileSync(file('a.txt'), 'utf8'), 'one\ntwo\nthree\n');
    assert.equal(readFileSync(file('b.txt'), 'utf8'), 'bee\n');
    assert.equal(existsSync(file('n.txt')), false);
    const restoreCard = entriesOf(transcript.state).find((e): e is ChangeSetEntry => e.kind === 'changes' && e.origin === 'restore');
    assert.ok(restoreCard, 'the restore shows as a change set of its own');
    assert.equal((await tracker.undo(restoreCard.turnId)).kind, 'applied');
    assert.equal(readFileSync(file('a.txt'), 'utf8'), 'second\n');
    assert.equal(readFileSync(file('n.txt'), 'utf8'), 'new\n');
    assert.equal(existsSync(file('b.txt')), false);
    assert.ok(
      card(first)?.files.every((f) => f.review === 'pending'),
      "undoing the restore puts the agent's changes back under review",
    );
    assert.equal((await tracker.restore(first)).kind, 'applied', 'and the same checkpoint restores again');
    assert.equal(readFileSync(file('a.txt'), 'utf8'), 'one\ntwo\nthree\n');
    assert.equal(existsSync(file('n.txt')), false);
  });

  it('survives a reload: a new tracker for the same conversation restores from the stored log', async () => {
    const turnId = await runTurn(() => {
      write('a.txt', 'changed\n');
      return ['a.txt'];
    });
    tracker.dispose();
    transcript = new TranscriptStore();
    tracker = make('conv-1');
    await tracker.idle();
    assert.equal(tracker.hasCheckpoint(turnId), true);
    assert.equal((await tracker.restore(turnId)).kind, 'applied');
    assert.equal(readFileSync(file('a.txt'), 'utf8'), 'one\ntwo\nthree\n');
    const other = make('conv-2');
    await other.idle();
    assert.equal(other.hasCheckpoint(turnId), false, 'checkpoints are per conversation');
    other.dispose();
  });

  it('tracks binary files by hash with a note, and still undoes them', async () => {
    write('img.bin', Buffer.from([0, 1, 2, 3, 255]));
    tracker.diskChanged(file('img.bin'));
    await tracker.idle();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const turnId = await runTurn(() => {
      write('img.bin', Buffer.from([0, 9, 9]));
      return ['img.bin'];
    });
    const shown = card(turnId)!.files[0]!;
    assert.equal(shown.added, undefined);
    assert.match(shown.note ?? '', /Binary/);
    assert.equal((await tracker.undo(turnId)).kind, 'applied');
    assert.deepEqual([...readFileSync(file('img.bin'))], [0, 1, 2, 3, 255]);
  });

  it('keeps the snapshot store within its budget: past it, files are tracked by hash only', async () => {
    tracker.dispose();
    rmSync(path.join(scratch, 'blobs'), { recursive: true, force: true });
    tracker = make('small', 20);
    await tracker.idle();
    assert.ok(content.totalBytes <= 20);
    const turnId = await runTurn(() => {
      write('a.txt', 'a much longer text than the budget allows\n');
      return ['a.txt'];
    });
    assert.match(card(turnId)!.files[0]!.note ?? '', /Too large/);
    assert.ok(content.totalBytes <= 20);
    // The before-content fitted: undo still works; a file deleted whose content did not fit cannot come back.
    assert.equal((await tracker.undo(turnId)).kind, 'applied');
    assert.equal(readFileSync(file('a.txt'), 'utf8'), 'one\ntwo\nthree\n');
    const gone = await runTurn(() => {
      write('big.txt', 'x'.repeat(100));
      return ['big.txt'];
    });
    await tracker.keep(gone);
    const deleted = await runTurn(() => {
      unlinkSync(file('big.txt'));
      return ['big.txt'];
    });
    assert.deepEqual(await tracker.undo(deleted), { kind: 'refused', skipped: [] });
  });

  it('evicts the oldest snapshots when the budget is full: the latest turn stays undoable, the old card says why it is not', async () => {
    tracker.dispose();
    rmSync(path.join(scratch, 'blobs'), { recursive: true, force: true });
    // The baseline (a.txt 14 bytes, b.txt 4) and both versions below need 60 bytes; 45 are allowed.
    tracker = make('evicting', 45);
    await tracker.idle();
    const first = await runTurn(() => {
      write('a.txt', 'first version here\n');
      return ['a.txt'];
    });
    const second = await runTurn(() => {
      write('a.txt', 'second version, longer\n');
      return ['a.txt'];
    });
    assert.ok(content.totalBytes <= 45);
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.match(card(first)!.files[0]!.note ?? '', /evicted/, 'the older card says its content is gone');
    assert.equal(card(second)!.files[0]!.note, undefined);
    assert.deepEqual(card(second)!.files[0]!.added, 1);
    assert.deepEqual(await tracker.undo(second), { kind: 'applied', paths: [file('a.txt')], unrestorable: [], skipped: [] });
    assert.equal(readFileSync(file('a.txt'), 'utf8'), 'first version here\n');
    assert.deepEqual(await tracker.undo(first), { kind: 'refused', skipped: [] }, 'content that is gone is never guessed');
  });

  it('a file the user made just before a short turn, seen by the watcher only in the next turn, is not that turn’s change', async () => {
    write('made-by-user.txt', 'the user made this\n');
    // A short turn (a real agent against a mock model answered in 74 ms), and the next prompt soon after.
    await runTurn(() => []);
    await new Promise((resolve) => setTimeout(resolve, 60));
    const next = await runTurn(() => {
      write('made-by-agent.txt', 'the agent made this\n');
      return ['made-by-user.txt', 'made-by-agent.txt'];
    });
    assert.deepEqual(
      card(next)?.files.map((f) => path.basename(f.path)),
      ['made-by-agent.txt'],
    );
  });

  it('a change in the first moments of a turn, before the baseline walk reached the file, is neither lost nor called created', async () => {
    tracker.dispose();
    // A workspace whose walk has not started when the turn does (a large one, on a slow disk).
    let walk: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (walk = resolve));
    const slow = new (class extends DiskChangeFiles {
      override async list(): Promise<readonly string[]> {
        await gate;
        return super.list();
      }
    })(root);
    files = slow;
    // Last modified well before the turn (the files were written a moment ago by beforeEach).
    const earlier = new Date(Date.now() - 60_000);
    for (const name of ['a.txt', 'b.txt']) utimesSync(file(name), earlier, earlier);
    rmSync(path.join(scratch, 'blobs'), { recursive: true, force: true });
    tracker = make('early');
    const turnId = `t${++turn}`;
    transcript.dispatch({ type: 'prompt_sent', turnId, content: [{ type: 'text', text: 'go' }] });
    // Announced: the tool call names a.txt before the tool runs (as agents report an edit before making it).
    transcript.dispatch({
      type: 'session_update',
      update: {
        sessionUpdate: 'tool_call',
        toolCallId: 'e',
        title: 'Edit a.txt',
        kind: 'edit',
        status: 'pending',
        locations: [{ path: file('a.txt') }],
      },
    });
    // The tool runs a moment later (long enough for the read ahead of the walk on a loaded machine).
    await new Promise((resolve) => setTimeout(resolve, 200));
    write('a.txt', 'one\nTWO\nthree\n');
    tracker.diskChanged(file('a.txt'));
    // Not announced: b.txt changes, and the walk only reaches it afterwards (reading the agent's result).
    write('b.txt', 'changed unannounced\n');
    walk();
    await new Promise((resolve) => setTimeout(resolve, 50));
    tracker.diskChanged(file('b.txt'));
    transcript.dispatch({ type: 'turn_ended', turnId, stopReason: 'end_turn' });
    await tracker.idle();
    const shown = Object.fromEntries(card(turnId)!.files.map((f) => [path.basename(f.path), [f.change, f.added, f.note]]));
    assert.deepEqual(shown['a.txt'], ['modified', 1, undefined], 'its before was read when the tool call named it');
    assert.equal(shown['b.txt']?.[0], 'modified', 'never lost, never "created"');
    assert.match(String(shown['b.txt']?.[2]), /unknown/);
    assert.deepEqual(await tracker.undo(turnId, [file('a.txt')]), {
      kind: 'applied',
      paths: [file('a.txt')],
      unrestorable: [],
      skipped: [],
    });
    assert.equal(readFileSync(file('a.txt'), 'utf8'), 'one\ntwo\nthree\n');
  });

  it('a file a tool call named, written on disk with the watcher event coming only after the turn settled, is on the card (Copilot CLI under load)', async () => {
    const turnId = `t${++turn}`;
    transcript.dispatch({ type: 'prompt_sent', turnId, content: [{ type: 'text', text: 'go' }] });
    // As Copilot CLI reports its create and edit tools: the path in locations and in a diff.
    transcript.dispatch({
      type: 'session_update',
      update: {
        sessionUpdate: 'tool_call',
        toolCallId: 'create',
        title: 'Creating c.txt',
        kind: 'edit',
        status: 'completed',
        locations: [{ path: file('c.txt') }],
        content: [{ type: 'diff', files: [{ path: file('c.txt'), oldText: '', newText: 'sea\n' }] }],
      },
    });
    transcript.dispatch({
      type: 'session_update',
      update: {
        sessionUpdate: 'tool_call',
        toolCallId: 'edit',
        title: 'Editing a.txt',
        kind: 'edit',
        status: 'completed',
        content: [{ type: 'diff', files: [{ path: file('a.txt'), oldText: 'two', newText: 'TWO' }] }],
      },
    });
    // And one it only read: named, unchanged, never on the card.
    transcript.dispatch({
      type: 'session_update',
      update: {
        sessionUpdate: 'tool_call',
        toolCallId: 'view',
        title: 'Viewing b.txt',
        kind: 'read',
        status: 'completed',
        locations: [{ path: file('b.txt') }],
      },
    });
    write('c.txt', 'sea\n');
    write('a.txt', 'one\nTWO\nthree\n');
    // No watcher event reaches the tracker while the turn runs or settles.
    transcript.dispatch({ type: 'turn_ended', turnId, stopReason: 'end_turn' });
    await tracker.idle();
    assert.deepEqual(
      card(turnId)?.files.map((f) => [path.basename(f.path), f.change, f.added, f.removed, f.note]),
      [
        ['c.txt', 'created', 1, 0, undefined],
        ['a.txt', 'modified', 1, 1, undefined],
      ],
    );
    // The late events come now: they change nothing, and the next turn does not take them for its own.
    tracker.diskChanged(file('c.txt'));
    tracker.diskChanged(file('a.txt'));
    const next = await runTurn(() => ['c.txt', 'a.txt']);
    assert.equal(card(next), undefined);
    assert.deepEqual(await tracker.undo(turnId), {
      kind: 'applied',
      paths: [file('c.txt'), file('a.txt')],
      unrestorable: [],
      skipped: [],
    });
    assert.equal(existsSync(file('c.txt')), false);
    assert.equal(readFileSync(file('a.txt'), 'utf8'), 'one\ntwo\nthree\n');
  });

  it("a file the user made just before a turn, whose watcher event has not come, is never taken for the agent's creation", async () => {
    // The attack on the user's data: a seeded baseline that never heard of a file calls it absent; the agent then
    // rewrites it on disk, the card said "created", and Undo deleted the user's file.
    write('fresh.txt', 'the user wrote this\n');
    await new Promise((resolve) => setTimeout(resolve, 60));
    const turnId = await runTurn(() => {
      write('fresh.txt', 'the agent rewrote it\n');
      return ['fresh.txt'];
    });
    const shown = card(turnId)?.files.map((f) => [path.basename(f.path), f.change, f.note]);
    assert.deepEqual(shown, [['fresh.txt', 'modified', 'Its content before the turn is unknown (it was never read or snapshotted).']]);
    // Nothing to put back: Undo refuses rather than deleting the file.
    assert.deepEqual(await tracker.undo(turnId), { kind: 'refused', skipped: [] });
    assert.equal(readFileSync(file('fresh.txt'), 'utf8'), 'the agent rewrote it\n', 'left as it is, never deleted');
  });

  it("a change in the turn whose watcher event comes after the card is out joins the card; the user's change after it does not", async () => {
    write('other/late.txt', 'one\n');
    tracker.diskChanged(file('other/late.txt'));
    await tracker.idle();
    await new Promise((resolve) => setTimeout(resolve, 60));
    const turnId = `t${++turn}`;
    transcript.dispatch({ type: 'prompt_sent', turnId, content: [{ type: 'text', text: 'go' }] });
    write('other/late.txt', 'one\nby the agent\n');
    write('made.txt', 'made by the agent\n');
    tracker.diskChanged(file('made.txt'));
    // The edit of other/late.txt (a folder the turn changed nothing else in) is not reported while the turn runs or settles (a loaded machine's watcher).
    transcript.dispatch({ type: 'turn_ended', turnId, stopReason: 'end_turn' });
    await tracker.idle();
    assert.deepEqual(
      card(turnId)?.files.map((f) => path.basename(f.path)),
      ['made.txt'],
    );
    await new Promise((resolve) => setTimeout(resolve, 60));
    // After the turn the user edits b.txt; then both events come.
    write('b.txt', 'the user, after the turn\n');
    tracker.diskChanged(file('other/late.txt'));
    tracker.diskChanged(file('b.txt'));
    for (let i = 0; i < 100 && card(turnId)?.files.length !== 2; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(
      card(turnId)?.files.map((f) => [path.basename(f.path), f.change, f.added]),
      [
        ['made.txt', 'created', 1],
        ['late.txt', 'modified', 1],
      ],
    );
    const outcome = await tracker.undo(turnId);
    assert.equal(outcome.kind, 'applied');
    assert.equal(readFileSync(file('other/late.txt'), 'utf8'), 'one\n');
    assert.equal(readFileSync(file('b.txt'), 'utf8'), 'the user, after the turn\n', "the user's change is not the agent's");
  });

  it('a folder made with a file in it at once, reported as the folder only: its file is known, and a turn that replaces it shows a modification', async () => {
    // VS Code's watcher reports a new folder but not a file made in it before its watch began.
    write('fresh/note.txt', 'the user wrote this\n');
    tracker.diskCreated(file('fresh'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const turnId = await runTurn(() => {
      // The agent replaces the file by a rename (a new inode, born in the turn), as atomic writers do.
      write('fresh/note.txt.tmp', 'the agent rewrote it\n');
      renameSync(file('fresh/note.txt.tmp'), file('fresh/note.txt'));
      return ['fresh/note.txt'];
    });
    assert.deepEqual(
      card(turnId)?.files.map((f) => [path.basename(f.path), f.change, f.added, f.removed]),
      [['note.txt', 'modified', 1, 1]],
    );
    assert.equal((await tracker.undo(turnId)).kind, 'applied');
    assert.equal(readFileSync(file('fresh/note.txt'), 'utf8'), 'the user wrote this\n');
  });

  it("the agent's new folder with files, reported as the folder only: the card lists the files as created", async () => {
    const turnId = await runTurn(() => {
      write('made/one.txt', '1\n');
      write('made/deeper/two.txt', '2\n');
      tracker.diskCreated(file('made'));
      return [];
    });
    assert.deepEqual(
      card(turnId)
        ?.files.map((f) => [path.relative(root, f.path), f.change])
        .sort(),
      [
        ['made/deeper/two.txt', 'created'],
        ['made/one.txt', 'created'],
      ],
    );
  });

  it('a file the watcher never reported, in a folder where the turn changed a file, is on the card; an unreported deletion is not guessed', async () => {
    await new Promise((resolve) => setTimeout(resolve, 60));
    const turnId = await runTurn(() => {
      write('a.txt', 'one\ntwo\nthree\nfour\n');
      write('quiet.txt', 'never reported\n');
      // Gone with no event: the user may have deleted it before the turn, its event still on the way.
      unlinkSync(file('b.txt'));
      // Only a.txt's event comes (VS Code's watcher drops some under load).
      return ['a.txt'];
    });
    assert.deepEqual(
      card(turnId)
        ?.files.map((f) => [path.basename(f.path), f.change])
        .sort(),
      [
        ['a.txt', 'modified'],
        ['quiet.txt', 'created'],
      ],
    );
  });

  it('a folder deleted with its files, reported as the folder only: the files are gone, in a turn and outside one', async () => {
    write('gone/x.txt', 'x\n');
    write('gone/deeper/y.txt', 'y\n');
    tracker.diskCreated(file('gone'));
    await tracker.idle();
    await new Promise((resolve) => setTimeout(resolve, 60));
    const turnId = await runTurn(() => {
      rmSync(file('gone'), { recursive: true });
      tracker.diskDeleted(file('gone'));
      return [];
    });
    assert.deepEqual(
      card(turnId)
        ?.files.map((f) => [path.relative(root, f.path), f.change])
        .sort(),
      [
        ['gone/deeper/y.txt', 'deleted'],
        ['gone/x.txt', 'deleted'],
      ],
    );
    // Outside a turn too: the same file made again later is new to the next turn, not "unchanged".
    write('made/z.txt', 'z\n');
    tracker.diskCreated(file('made'));
    await tracker.idle();
    rmSync(file('made'), { recursive: true });
    tracker.diskDeleted(file('made'));
    await tracker.idle();
    await madeAgainIsNew();
  });

  it('a file the turn made, reported late, whose folder is deleted while it is read: the file does not come back', async () => {
    // The watcher reports the turn's new folder only after the card is out (a loaded machine), and the folder is
    // deleted while the late report's read of its file is under way: that read's content must not outlive the
    // deletion, or the same file made again later would look unchanged.
    const late = file('made/z.txt');
    const held = new HeldAfterRead(root, late);
    files = held;
    tracker.dispose();
    tracker = make();
    await tracker.idle();
    await runTurn(() => {
      write('made/z.txt', 'z\n');
      return [];
    });
    tracker.diskCreated(file('made'));
    await held.readDone;
    rmSync(file('made'), { recursive: true });
    tracker.diskDeleted(file('made'));
    held.release();
    await tracker.idle();
    await madeAgainIsNew();
  });

  it('says where the tool call the agent reported differs from the file on disk', async () => {
    const turnId = `t${++turn}`;
    transcript.dispatch({ type: 'prompt_sent', turnId, content: [{ type: 'text', text: 'go' }] });
    transcript.dispatch({
      type: 'session_update',
      update: {
        sessionUpdate: 'tool_call',
        toolCallId: 'x',
        title: 'Edit a.txt',
        kind: 'edit',
        status: 'completed',
        content: [
          {
            type: 'diff',
            files: [
              { path: file('a.txt'), oldText: 'one\ntwo\nthree\n', newText: 'what it said\n' },
              { path: file('b.txt'), oldText: 'bee\n', newText: 'never written\n' },
            ],
          },
        ],
      },
    });
    write('a.txt', 'what it did\n');
    tracker.diskChanged(file('a.txt'));
    transcript.dispatch({ type: 'turn_ended', turnId, stopReason: 'end_turn' });
    await tracker.idle();
    assert.match(card(turnId)!.files[0]!.note ?? '', /Differs from the diff/);
    assert.deepEqual(card(turnId)!.notes, [`The agent reported changes that did not reach the disk: ${file('b.txt')}`]);
  });

  it('takes a reported diff of only the edited fragment (OpenCode) as agreeing when the file holds that fragment', async () => {
    const turnId = `t${++turn}`;
    transcript.dispatch({ type: 'prompt_sent', turnId, content: [{ type: 'text', text: 'go' }] });
    const fragment = { path: file('a.txt'), oldText: 'two', newText: 'TWO' };
    transcript.dispatch({
      type: 'session_update',
      update: {
        sessionUpdate: 'tool_call',
        toolCallId: 'frag',
        title: 'Edit a.txt',
        kind: 'edit',
        status: 'completed',
        content: [{ type: 'diff', files: [fragment] }],
      },
    });
    write('a.txt', 'one\nTWO\nthree\n');
    tracker.diskChanged(file('a.txt'));
    transcript.dispatch({ type: 'turn_ended', turnId, stopReason: 'end_turn' });
    await tracker.idle();
    const shown = card(turnId)!.files[0]!;
    assert.deepEqual([shown.change, shown.added, shown.removed, shown.note], ['modified', 1, 1, undefined]);
  });
});

/** Disk reads where the first read of `held` has its result kept back (the read itself done) until `release`. */
class HeldAfterRead extends DiskChangeFiles {
  readonly readDone: Promise<void>;
  private markDone: () => void = () => undefined;
  private released: Promise<void>;
  release: () => void = () => undefined;
  private holding = true;

  constructor(
    root: string,
    private readonly held: string,
  ) {
    super(root);
    this.readDone = new Promise((resolve) => (this.markDone = resolve));
    this.released = new Promise((resolve) => (this.release = resolve));
  }

  override async read(absolutePath: string, maxBytes: number): Promise<SnapshotRead> {
    const read = await super.read(absolutePath, maxBytes);
    if (absolutePath !== this.held || !this.holding) return read;
    this.holding = false;
    this.markDone();
    await this.released;
    return read;
  }
}
