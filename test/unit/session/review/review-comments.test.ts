/** Review comments (issue 29): anchored to content, kept across a reload, quoted into the prompt. */
import * as assert from 'node:assert/strict';
import { anchorAt, placeAnchor } from '../../../../src/session/review/comment-anchor';
import { conversationChanges, listedChanges, pathsOfEntry } from '../../../../src/changes/conversation-changes';
import { reviewPrompt } from '../../../../src/session/review/review-prompt';
import { ReviewThreads, type ReviewThread } from '../../../../src/session/review/review-threads';
import type { FileState } from '../../../../src/changes/file-state';
import { carriedExchange, MAX_CARRIED_CHARS } from '../../../../src/conversations/edit-resend';
import type { Entry } from '../../../../src/shared/model';

const text = ['one', 'two', 'three', 'four', 'five'].join('\n');

/** Storage as the workspace state keeps it: a JSON round trip, as after a reload. */
function memory(initial?: unknown): { load(): unknown; save(all: readonly ReviewThread[]): Promise<void>; value: unknown } {
  const store = {
    value: initial,
    load: () => store.value,
    save: (all: readonly ReviewThread[]) => {
      store.value = JSON.parse(JSON.stringify(all));
      return Promise.resolve();
    },
  };
  return store;
}

describe('review comments: anchored to the lines they point at', () => {
  const anchor = anchorAt(text, { startLine: 2, endLine: 3 });

  it('holds the lines it was written on', () => {
    assert.deepEqual(anchor, { startLine: 2, endLine: 3, lines: ['two', 'three'] });
  });

  it('stays where its lines still are (line endings aside)', () => {
    assert.deepEqual(placeAnchor(text.replace(/\n/g, '\r\n'), anchor), { kind: 'same' });
  });

  it('moves with its lines when lines are added above', () => {
    assert.deepEqual(placeAnchor(`zero\nhalf\n${text}`, anchor), { kind: 'moved', range: { startLine: 4, endLine: 5 } });
  });

  it('takes the occurrence nearest its old place when the lines appear twice', () => {
    const twice = ['two', 'three', 'x', 'x', 'x', 'x', 'y', 'two', 'three'].join('\n');
    assert.deepEqual(placeAnchor(twice, { startLine: 7, endLine: 8, lines: ['two', 'three'] }), {
      kind: 'moved',
      range: { startLine: 8, endLine: 9 },
    });
  });

  it('is outdated when its lines are gone, never moved onto other text', () => {
    assert.deepEqual(placeAnchor(text.replace('three', 'THREE'), anchor), { kind: 'outdated' });
    assert.deepEqual(placeAnchor('', anchor), { kind: 'outdated' });
  });

  it('clamps a range past the end of the file', () => {
    assert.deepEqual(anchorAt('a\nb', { startLine: 2, endLine: 9 }), { startLine: 2, endLine: 2, lines: ['b'] });
  });
});

describe('review comments: kept per conversation, across a reload', () => {
  it('come back after a reload with their state, and count per conversation', async () => {
    const storage = memory();
    const first = new ReviewThreads(storage);
    const a = await first.create('conv-a', '/w/a.ts', anchorAt(text, { startLine: 1, endLine: 1 }), 'rename this');
    await first.create('conv-a', '/w/b.ts', anchorAt(text, { startLine: 4, endLine: 5 }), 'and this');
    await first.create('conv-b', '/w/a.ts', anchorAt(text, { startLine: 2, endLine: 2 }), 'other conversation');
    await first.reply(a.id, 'with a reply');
    const reloaded = new ReviewThreads(storage);
    assert.equal(reloaded.problem, undefined);
    assert.deepEqual(reloaded.openCounts(), { 'conv-a': 2, 'conv-b': 1 });
    assert.deepEqual(
      reloaded.open('conv-a').map((t) => [t.path, t.comments.map((c) => c.body)]),
      [
        ['/w/a.ts', ['rename this', 'with a reply']],
        ['/w/b.ts', ['and this']],
      ],
    );
    await reloaded.markSent(reloaded.open('conv-a').map((t) => t.id));
    const again = new ReviewThreads(storage);
    assert.deepEqual(again.openCounts(), { 'conv-b': 1 });
    assert.deepEqual(
      again
        .all()
        .filter((t) => t.conversationId === 'conv-a')
        .map((t) => t.status),
      ['sent', 'sent'],
    );
  });

  it('edit and delete: a thread left without comments goes', async () => {
    const threads = new ReviewThreads(memory());
    const thread = await threads.create('c', '/w/a.ts', anchorAt(text, { startLine: 1, endLine: 1 }), 'first');
    const commentId = thread.comments[0]!.id;
    await threads.edit(thread.id, commentId, 'edited');
    assert.equal(threads.get(thread.id)?.comments[0]?.body, 'edited');
    await threads.deleteComment(thread.id, commentId);
    assert.equal(threads.all().length, 0);
  });

  it('a damaged stored value is set aside with a reason, not half-read', () => {
    const threads = new ReviewThreads(memory([{ id: 1, path: null }]));
    assert.deepEqual(threads.all(), []);
    assert.match(threads.problem ?? '', /could not be read/);
  });
});

describe('review comments: the prompt that sends them', () => {
  it('quotes each comment with file, line range and lines, then what was typed; attaches the ranges', async () => {
    const threads = new ReviewThreads(memory());
    await threads.create('c', '/w/src/b.ts', anchorAt('x\n```y```\nz', { startLine: 2, endLine: 3 }), 'fix\nboth lines');
    await threads.create('c', '/w/src/a.ts', anchorAt(text, { startLine: 4, endLine: 4 }), 'why four?');
    const prompt = reviewPrompt(threads.open('c'), '  also run the tests ', (p) => p.replace('/w/', ''));
    assert.equal(
      prompt.text,
      [
        'Review comments on your changes (2). Please address each one:',
        '1. src/a.ts, line 4:\n```\nfour\n```\n> why four?',
        '2. src/b.ts, lines 2-3:\n````\n```y```\nz\n````\n> fix\n> both lines',
        'also run the tests',
      ].join('\n\n'),
    );
    assert.deepEqual(prompt.attachments, [
      { kind: 'file', uri: 'file:///w/src/a.ts', label: 'src/a.ts', range: { startLine: 4, endLine: 4 } },
      { kind: 'file', uri: 'file:///w/src/b.ts', label: 'src/b.ts', range: { startLine: 2, endLine: 3 } },
    ]);
  });

  it('says a comment is outdated, and attaches no range for it', async () => {
    const threads = new ReviewThreads(memory());
    const thread = await threads.create('c', '/w/a.ts', anchorAt(text, { startLine: 2, endLine: 2 }), 'hm');
    await threads.placed(thread.id, thread.anchor, true);
    const prompt = reviewPrompt(threads.open('c'), '', (p) => p);
    assert.match(prompt.text, /\/w\/a\.ts, line 2 \(outdated: these lines are no longer in the file as quoted\):/);
    assert.deepEqual(prompt.attachments, []);
  });
});

describe("a conversation's changes as one set", () => {
  const file = (hash: string): FileState => ({ kind: 'file', hash, size: 1, binary: false, stored: true });
  const absent: FileState = { kind: 'absent' };

  it('is the union of its turns: earliest before, latest after; undone and net-unchanged files left out', () => {
    const changed = conversationChanges([
      {
        turnId: 't1',
        origin: 'turn',
        files: [
          { path: '/w/a', before: absent, after: file('a1'), origin: 'disk', review: 'kept' },
          { path: '/w/b', before: file('b0'), after: file('b1'), origin: 'disk', review: 'pending' },
        ],
      },
      {
        turnId: 't2',
        origin: 'turn',
        files: [
          { path: '/w/a', before: file('a1'), after: file('a2'), origin: 'client', review: 'pending' },
          { path: '/w/c', before: absent, after: file('c1'), origin: 'disk', review: 'undone' },
        ],
      },
      { turnId: 't3', origin: 'turn', files: [{ path: '/w/b', before: file('b1'), after: file('b0'), origin: 'disk', review: 'pending' }] },
    ]);
    assert.deepEqual(
      changed.map((f) => [f.path, f.before, f.after, f.review]),
      [['/w/a', absent, file('a2'), 'pending']],
    );
  });

  it('lists a rename as one entry, as the card and the diff editor do, and that entry stands for both paths', () => {
    const changed = conversationChanges([
      {
        turnId: 't1',
        origin: 'turn',
        files: [
          { path: '/w/old', before: file('r'), after: absent, origin: 'disk', review: 'pending' },
          { path: '/w/new', before: absent, after: file('r'), origin: 'disk', review: 'pending' },
          { path: '/w/edit', before: file('e0'), after: file('e1'), origin: 'disk', review: 'pending' },
        ],
      },
    ]);
    assert.deepEqual(
      listedChanges(changed).map((f) => f.path),
      ['/w/new', '/w/edit'],
    );
    assert.deepEqual(pathsOfEntry(changed, '/w/new'), ['/w/new', '/w/old']);
    assert.deepEqual(pathsOfEntry(changed, '/w/edit'), ['/w/edit']);
  });
});

describe('Edit a sent message: the exchange a new session carries', () => {
  it('holds the messages before the edited one, users and agent, and no thoughts', () => {
    const entries: Entry[] = [
      { kind: 'message', key: 'u1', role: 'user', content: [{ type: 'text', text: 'write a.txt' }], turnId: 't1' },
      { kind: 'message', key: 't1', role: 'thought', content: [{ type: 'text', text: 'hidden thinking' }], turnId: 't1' },
      { kind: 'message', key: 'a1', role: 'agent', content: [{ type: 'text', text: 'Done.' }], turnId: 't1' },
    ];
    assert.equal(
      carriedExchange(entries),
      [
        'This continues an earlier conversation in a new session. The exchange so far was:',
        '<earlier-conversation>',
        'User: write a.txt\n\nAssistant: Done.',
        '</earlier-conversation>',
        'My next message:',
      ].join('\n'),
    );
    assert.equal(carriedExchange([]), '');
  });

  it('is bounded: only its most recent part goes, and it says so', () => {
    const long = 'x'.repeat(MAX_CARRIED_CHARS * 2);
    const entries: Entry[] = [{ kind: 'message', key: 'u1', role: 'user', content: [{ type: 'text', text: long }], turnId: 't1' }];
    const carried = carriedExchange(entries);
    assert.ok(carried.length < MAX_CARRIED_CHARS + 500);
    assert.match(carried, /\(its most recent part\)/);
  });
});
