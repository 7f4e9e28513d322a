/**
 * The saved preview of the conversation on screen (drawn after Reload Window before the host's snapshot comes):
 * its newest entries within a size bound, terminals cut to their tail, garbage refused, and
 * kept by the UI store only for the conversation on screen, followed at its newest entries.
 */
import * as assert from 'node:assert/strict';
import type { Entry, MessageEntry, TerminalRecord, ToolCallEntry, TranscriptState } from '../../../src/shared/model';
import { allEntries, fromEntries } from '../../../src/shared/pages';
import { initialState } from '../../../src/shared/reducer';
import { PreviewKeeper, type Timers } from '../../../src/shared/preview-keeper';
import { parsePreview } from '../../../src/shared/saved-preview';
import { previewOf, previewState } from '../../../src/shared/transcript-preview';
import { UiStore } from '../../../webview/host/ui-store';

function message(index: number, text = `message ${index}`): MessageEntry {
  return { kind: 'message', key: `msg:agent:${index}`, role: 'agent', content: [{ type: 'text', text }] };
}

function transcript(entries: readonly Entry[], more: Partial<TranscriptState> = {}): TranscriptState {
  return fromEntries({ ...initialState(), ...more }, entries);
}

const toolCall: ToolCallEntry = {
  kind: 'tool_call',
  key: 'tool:t1',
  toolCallId: 't1',
  title: 'Run tests',
  toolKind: 'execute',
  status: 'completed',
  content: [{ type: 'terminal', terminalId: 'term-1' }],
  locations: [],
};

function terminal(id: string, output: string, toolCallIds: string[]): TerminalRecord {
  return { terminalId: id, commandLine: 'npm test', output, trimmed: false, released: true, toolCallIds };
}

describe('the saved preview of a conversation', () => {
  it('holds the newest entries, oldest first, as many as fit the bound', () => {
    const entries = Array.from({ length: 600 }, (_, index) => message(index));
    const preview = previewOf('c1', transcript(entries), 2_000);
    assert.ok(preview);
    const keys = preview.entries.map((entry) => entry.key);
    assert.equal(keys.at(-1), 'msg:agent:599', 'the newest entry is kept');
    assert.ok(keys.length > 5 && keys.length < 40, `a few entries fit 2,000 characters (${keys.length})`);
    assert.deepEqual(
      keys,
      entries.slice(-keys.length).map((entry) => entry.key),
      'contiguous and in order, across pages',
    );
    assert.ok(JSON.stringify(preview.entries).length <= 2_000 + keys.length, 'within the bound');
    assert.equal(preview.conversationId, 'c1');
  });

  it('is none for an empty conversation, and where the newest entry alone is over the bound', () => {
    assert.equal(previewOf('c', transcript([])), undefined);
    assert.equal(previewOf('c', transcript([message(1), message(2, 'x'.repeat(5_000))]), 2_000), undefined);
  });

  it('is kept while a turn runs (a permission waiting): what was on screen, which the host then says was interrupted', () => {
    const preview = previewOf('c', transcript([message(1)], { turn: { phase: 'running', turnId: 't' } }));
    assert.deepEqual(
      preview?.entries.map((entry) => entry.key),
      ['msg:agent:1'],
    );
  });

  it("keeps only the terminals its tool calls show, each cut to its output's tail", () => {
    const state = transcript([toolCall], {
      terminals: { 'term-1': terminal('term-1', `${'a'.repeat(10_000)}THE END`, ['t1']), 'term-2': terminal('term-2', 'other', ['t9']) },
    });
    const preview = previewOf('c', state);
    assert.ok(preview);
    assert.deepEqual(Object.keys(preview.terminals), ['term-1']);
    const kept = preview.terminals['term-1'];
    assert.ok(kept && kept.output.endsWith('THE END') && kept.output.length === 2_000 && kept.trimmed);
  });

  it('reads back what it saved, and refuses what is not one', () => {
    const preview = previewOf('c', transcript([message(1), toolCall], { terminals: { 'term-1': terminal('term-1', 'ok', ['t1']) } }));
    const read = parsePreview(JSON.parse(JSON.stringify(preview)));
    assert.deepEqual(read, preview);
    assert.ok(read);
    assert.deepEqual(
      allEntries(previewState(read)).map((entry) => entry.key),
      ['msg:agent:1', 'tool:t1'],
    );
    for (const garbage of [
      undefined,
      null,
      'text',
      [],
      { conversationId: 'c' },
      { conversationId: 1, entries: [] },
      { conversationId: 'c', entries: [{ kind: 'message' }] },
    ])
      assert.equal(parsePreview(garbage), undefined, `refused: ${JSON.stringify(garbage)}`);
    assert.deepEqual(
      parsePreview({ conversationId: 'c', entries: [], terminals: { t: 'not a terminal' } })?.terminals,
      {},
      'bad terminals are dropped',
    );
  });
});

describe('the UI store keeps the preview', () => {
  function fakeHost() {
    const host = {
      saved: undefined as unknown,
      post: () => undefined,
      loadUiState: () => host.saved,
      saveUiState: (state: unknown) => void (host.saved = state),
    };
    return host;
  }
  const atBottom = { draft: '', attachments: [], expandedThoughts: ['x'], expandedRaw: [], scroll: { atBottom: true } };

  it('gives it back after a reload for the conversation on screen, with its UI state, and survives drafts saved meanwhile', () => {
    const host = fakeHost();
    const store = new UiStore(host);
    const channel = store.channelFor('c1', '');
    store.keepPreview(previewOf('c1', transcript([message(1)])));
    channel.saveUiState({ ...atBottom, draft: 'typing' });
    const restored = new UiStore(host).restoredPreview();
    assert.deepEqual(
      restored?.preview.entries.map((entry) => entry.key),
      ['msg:agent:1'],
    );
    assert.deepEqual(restored?.ui.expandedThoughts, ['x']);
  });

  it('gives none for a view scrolled up, or once another conversation is shown', () => {
    const host = fakeHost();
    const store = new UiStore(host);
    const channel = store.channelFor('c1', '');
    store.keepPreview(previewOf('c1', transcript([message(1)])));
    channel.saveUiState({ ...atBottom, scroll: { atBottom: false, anchorKey: 'msg:agent:1', anchorOffset: 0 } });
    assert.equal(new UiStore(host).restoredPreview(), undefined, 'scrolled up: it reopens where it was, which the preview does not hold');
    channel.saveUiState(atBottom);
    assert.ok(new UiStore(host).restoredPreview());
    store.channelFor('c2', '');
    assert.equal(new UiStore(host).restoredPreview(), undefined, "another conversation's preview is dropped");
  });
});

describe('the preview keeper', () => {
  function fakeTimers() {
    let now = 0;
    const pending = new Map<number, { at: number; callback: () => void }>();
    let next = 1;
    const timers: Timers = {
      set: (callback, ms) => {
        const id = next++;
        pending.set(id, { at: now + ms, callback });
        return () => void pending.delete(id);
      },
      now: () => now,
    };
    const advance = (ms: number): void => {
      const until = now + ms;
      for (;;) {
        const due = [...pending.entries()].filter(([, timer]) => timer.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        pending.delete(due[0]);
        now = due[1].at;
        due[1].callback();
      }
      now = until;
    };
    return { timers, advance };
  }

  it('saves the first change at once, then at most once a second while changes keep coming, the last one always', () => {
    const { timers, advance } = fakeTimers();
    const saved: (string | undefined)[] = [];
    let state = transcript([message(1)]);
    const keeper = new PreviewKeeper(
      () => ({ conversationId: 'c', state }),
      (preview) => saved.push(preview?.entries.at(-1)?.key),
      timers,
    );
    keeper.changed();
    assert.deepEqual(saved, ['msg:agent:1'], 'a page may not live a second: the first change is saved at once');
    for (let ms = 100; ms <= 10_000; ms += 100) {
      state = transcript([message(1), message(ms)]);
      keeper.changed();
      advance(100);
    }
    assert.ok(
      saved.length >= 10 && saved.length <= 11,
      `about one save a second over ten seconds of changes every 100 ms (${saved.length})`,
    );
    advance(1_000);
    assert.equal(saved.at(-1), 'msg:agent:10000', 'the last change is saved');
    const count = saved.length;
    advance(5_000);
    keeper.changed();
    assert.equal(saved.length, count + 1, 'after a quiet second, at once again');
    keeper.changed();
    keeper.saveNow();
    assert.equal(saved.length, count + 2, 'a page going saves what changed at once');
    keeper.saveNow();
    assert.equal(saved.length, count + 2, 'and nothing when nothing changed');
  });

  it('leaves the saved preview alone while no conversation is drawn yet (a message before the first snapshot)', () => {
    const { timers, advance } = fakeTimers();
    const saved: unknown[] = [];
    const keeper = new PreviewKeeper(
      () => undefined,
      (preview) => saved.push(preview),
      timers,
    );
    keeper.changed();
    advance(1_000);
    keeper.changed();
    keeper.saveNow();
    assert.deepEqual(saved, []);
  });
});
