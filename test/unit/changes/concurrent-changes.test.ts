/**
 * Two conversations running turns at once on one workspace (one baseline, one content store, as the extension
 * wires them): each change lands in the conversation whose agent made it where that can be told, and in both,
 * marked, where it cannot.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Baseline } from '../../../src/changes/baseline';
import { ChangeLog } from '../../../src/changes/change-log';
import { ChangeTracker } from '../../../src/changes/change-tracker';
import { SHARED_NOTE } from '../../../src/changes/change-view';
import { ConcurrentTurns } from '../../../src/changes/concurrent-turns';
import { ContentStore } from '../../../src/changes/content-store';
import { TranscriptStore } from '../../../src/session/transcript-store';
import type { ChangeSetEntry } from '../../../src/shared/model';
import { entriesOf } from '../../../src/shared/selectors';
import { DiskApplier, DiskChangeFiles } from '../../support/disk-change-ports';

/** The disk, with reads of the paths in `slow` held back (a loaded machine's slow read). */
class SlowReads extends DiskChangeFiles {
  readonly slow = new Set<string>();

  override async read(absolutePath: string, maxBytes: number): ReturnType<DiskChangeFiles['read']> {
    if (this.slow.has(absolutePath)) await new Promise((resolve) => setTimeout(resolve, 50));
    return super.read(absolutePath, maxBytes);
  }
}

interface Side {
  readonly transcript: TranscriptStore;
  readonly tracker: ChangeTracker;
}

describe('change tracking with conversations running at once', () => {
  let scratch: string;
  let root: string;
  let a: Side;
  let b: Side;
  let turn = 0;
  let slowFiles: SlowReads;
  const errors: string[] = [];
  const file = (name: string): string => path.join(root, name);
  const write = (name: string, text: string): void => writeFileSync(file(name), text);

  beforeEach(async () => {
    scratch = mkdtempSync(path.join(tmpdir(), 'acp-concurrent-'));
    root = path.join(scratch, 'ws');
    mkdirSync(root);
    for (const name of ['a.txt', 'b.txt', 'c.txt', 'd.txt']) write(name, `${name} as it was\n`);
    const files = new DiskChangeFiles(root);
    slowFiles = new SlowReads(root);
    const content = new ContentStore(path.join(scratch, 'blobs'), { maxTotalBytes: () => 1024 * 1024, maxFileBytes: 1024 * 1024 });
    const baseline = new Baseline(files, content);
    const turns = new ConcurrentTurns();
    errors.length = 0;
    // A's reads go through SlowReads, so a test can hold A's queue back behind one slow read.
    const side = (id: string): Side => {
      const transcript = new TranscriptStore();
      const tracker = new ChangeTracker({
        conversationId: id,
        transcript,
        files: id === 'conv-a' ? slowFiles : files,
        content,
        log: new ChangeLog(path.join(scratch, 'logs'), id),
        applier: new DiskApplier(),
        onError: (message) => errors.push(message),
        settleMs: 5,
        baseline,
        turns,
      });
      return { transcript, tracker };
    };
    a = side('conv-a');
    b = side('conv-b');
    await Promise.all([a.tracker.idle(), b.tracker.idle()]);
  });
  afterEach(() => {
    a.tracker.dispose();
    b.tracker.dispose();
    rmSync(scratch, { recursive: true, force: true });
    assert.deepEqual(errors, []);
  });

  const begin = (side: Side): string => {
    const turnId = `t${++turn}`;
    side.transcript.dispatch({ type: 'prompt_sent', turnId, content: [{ type: 'text', text: 'go' }] });
    return turnId;
  };
  const end = async (side: Side, turnId: string): Promise<void> => {
    side.transcript.dispatch({ type: 'turn_ended', turnId, stopReason: 'end_turn' });
    await side.tracker.idle();
  };
  /** What the extension's watcher does: every conversation with a turn running hears of the change. */
  const seen = (name: string): void => {
    for (const side of [a, b]) if (side.tracker.capturing) side.tracker.diskChanged(file(name));
  };
  const reportEdit = (side: Side, id: string, name: string): void =>
    side.transcript.dispatch({
      type: 'session_update',
      update: {
        sessionUpdate: 'tool_call',
        toolCallId: id,
        title: `Edit ${name}`,
        kind: 'edit',
        status: 'pending',
        locations: [{ path: file(name) }],
      },
    });
  const shown = (side: Side, turnId: string): Record<string, string | undefined> => {
    const card = entriesOf(side.transcript.state).find((e): e is ChangeSetEntry => e.kind === 'changes' && e.turnId === turnId);
    return Object.fromEntries((card?.files ?? []).map((f) => [path.basename(f.path), f.note]));
  };

  it('gives each change to the agent that wrote it through us, named it in a tool call, or read it', async () => {
    const turnA = begin(a);
    const turnB = begin(b);
    // A writes through fs/write_text_file; B's agent reports an edit and makes it on disk; A reads c.txt, then edits it.
    await a.tracker.beforeClientWrite(file('a.txt'));
    write('a.txt', 'written by A through the client\n');
    seen('a.txt');
    reportEdit(b, 'b-edit', 'b.txt');
    write('b.txt', 'edited by B on disk\n');
    seen('b.txt');
    a.tracker.clientRead(file('c.txt'), 'c.txt as it was\n');
    write('c.txt', 'edited by A on disk\n');
    seen('c.txt');
    await Promise.all([end(a, turnA), end(b, turnB)]);
    assert.deepEqual(shown(a, turnA), { 'a.txt': undefined, 'c.txt': undefined });
    assert.deepEqual(shown(b, turnB), { 'b.txt': undefined });
  });

  it('keeps a change in the card of the agent that made it when the other conversation’s turn ends first', async () => {
    // Under load one conversation's queue falls behind: here a slow read ahead of A's change. B's turn ends meanwhile
    // and makes the disk as it is the baseline; A's change must still compare with what c.txt was before it.
    const turnA = begin(a);
    const turnB = begin(b);
    slowFiles.slow.add(file('d.txt'));
    write('d.txt', 'changed by someone\n');
    a.tracker.diskChanged(file('d.txt'));
    a.tracker.clientRead(file('c.txt'), 'c.txt as it was\n');
    write('c.txt', 'edited by A on disk\n');
    seen('c.txt');
    await end(b, turnB);
    await end(a, turnA);
    assert.equal(shown(a, turnA)['c.txt'], undefined);
    assert.ok('c.txt' in shown(a, turnA), `A's card holds c.txt (it has ${Object.keys(shown(a, turnA)).join(', ')})`);
    // B's agent never named it: not B's (B's card may hold d.txt, changed while both ran).
    assert.ok(!('c.txt' in shown(b, turnB)));
  });

  it('keeps a change nobody named in every turn that was running, each marked as maybe the other agent’s', async () => {
    const turnA = begin(a);
    const turnB = begin(b);
    write('d.txt', 'changed by someone\n');
    seen('d.txt');
    await Promise.all([end(a, turnA), end(b, turnB)]);
    assert.deepEqual(shown(a, turnA), { 'd.txt': SHARED_NOTE });
    assert.deepEqual(shown(b, turnB), { 'd.txt': SHARED_NOTE });
    // Either can undo it; the other then sees the file is no longer what the agent left, and asks first.
    assert.equal((await a.tracker.undo(turnA)).kind, 'applied');
    assert.equal((await b.tracker.undo(turnB)).kind, 'conflict');
  });

  it('gives a change to the only turn running, unmarked, though another conversation is open', async () => {
    const turnA = begin(a);
    write('d.txt', 'changed while only A ran\n');
    seen('d.txt');
    await end(a, turnA);
    assert.deepEqual(shown(a, turnA), { 'd.txt': undefined });
  });

  it('still finds the owner when the owner’s turn ended first', async () => {
    const turnA = begin(a);
    const turnB = begin(b);
    reportEdit(a, 'a-edit', 'b.txt');
    write('b.txt', 'A edits, then A finishes\n');
    seen('b.txt');
    await end(a, turnA);
    await end(b, turnB);
    assert.deepEqual(shown(a, turnA), { 'b.txt': undefined });
    assert.deepEqual(shown(b, turnB), {});
  });
});
