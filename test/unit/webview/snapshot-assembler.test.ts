import * as assert from 'node:assert/strict';
import { ENTRY_PAGE_SIZE } from '../../../src/shared/model';
import { lastEntry } from '../../../src/shared/pages';
import { snapshotMessages } from '../../../src/shared/snapshot-parts';
import type { HostInfo, HostToWebviewMessage } from '../../../src/shared/webview-protocol';
import { SnapshotAssembler } from '../../../webview/host/snapshot-assembler';
import { chunk, promptTranscript } from './prompt-transcript';

const conversation = { conversationId: 'c1', draft: '' };
const hostInfo: HostInfo = { agentNames: ['Paced'], workspaceTrusted: true };

describe('a long snapshot sent in parts', () => {
  it('sends a short transcript whole, in one message', () => {
    const messages = snapshotMessages(3, promptTranscript(10), conversation);
    assert.equal(messages.length, 1);
    assert.equal(messages[0]?.type === 'snapshot' && messages[0].partsToFollow, undefined);
  });

  it('cuts a long transcript into parts of whole pages, newest first, that the webview puts back together exactly', () => {
    const state = promptTranscript(ENTRY_PAGE_SIZE * 5 + 7);
    assert.equal(state.pages.length, 6);
    const messages = snapshotMessages(3, state, conversation, 2);
    assert.equal(messages.length, 3, 'the newest pages (7 + 256 entries), then four older pages, two per message');
    for (const message of messages) {
      const carried = message.type === 'snapshot' ? message.state : message.type === 'snapshot_part' ? message : undefined;
      assert.ok(carried && carried.pages.length <= 2, 'no message carries more than its share of pages');
      assert.ok(carried.positions.length <= Math.ceil(state.positions.length / 2), 'nor of the key index');
    }
    const assembler = new SnapshotAssembler();
    const out = messages.flatMap((message) => assembler.accept(message));
    assert.equal(out.length, 2, 'the preview at once, then the whole');
    assert.deepEqual(out[1], { type: 'snapshot', seq: 3, state, ...conversation });
  });

  it('gives the chat the newest entries from the first message: a state it can draw, ending where the whole ends', () => {
    const state = promptTranscript(ENTRY_PAGE_SIZE * 3 + 7);
    const [first] = snapshotMessages(0, state, conversation, 1);
    const preview = new SnapshotAssembler().accept(first!);
    assert.equal(preview.length, 1);
    const shown = preview[0]?.type === 'snapshot' ? preview[0] : assert.fail('a snapshot first');
    assert.equal(shown.partsToFollow, 2, 'it says more is coming');
    assert.equal(shown.state.entryCount, ENTRY_PAGE_SIZE + 7);
    assert.deepEqual(shown.state.pages.flat(), state.pages.flat().slice(-(ENTRY_PAGE_SIZE + 7)), 'the newest entries, in order');
    assert.deepEqual(lastEntry(shown.state), lastEntry(state));
  });

  it('holds actions while a snapshot arrives, other messages keep going; the actions follow the whole snapshot in order', () => {
    const [first, ...parts] = snapshotMessages(0, promptTranscript(ENTRY_PAGE_SIZE * 3 + 1), conversation, 1);
    assert.equal(parts.length, 2);
    const assembler = new SnapshotAssembler();
    assert.deepEqual(assembler.accept(first!), [first]);
    const actions: HostToWebviewMessage = { type: 'actions', firstSeq: 1, actions: [chunk] };
    assert.deepEqual(assembler.accept(actions), []);
    assert.deepEqual(assembler.accept({ type: 'focus_composer' }), [{ type: 'focus_composer' }]);
    assert.deepEqual(assembler.accept(parts[0]!), []);
    const out = assembler.accept(parts[1]!);
    assert.deepEqual(
      out.map((message) => message.type),
      ['snapshot', 'actions'],
    );
    assert.deepEqual(assembler.accept(actions), [actions], 'afterwards actions pass straight through');
  });

  it('drops a snapshot still arriving when a newer one comes, with the actions held for it', () => {
    const [first, ...parts] = snapshotMessages(0, promptTranscript(ENTRY_PAGE_SIZE * 3 + 1), conversation, 1);
    const assembler = new SnapshotAssembler();
    assembler.accept(first!);
    assembler.accept({ type: 'actions', firstSeq: 1, actions: [chunk] });
    const newer = snapshotMessages(5, promptTranscript(3), { conversationId: 'c2', draft: '' });
    assert.deepEqual(assembler.accept(newer[0]!), newer);
    assert.deepEqual(assembler.accept(parts[0]!), [], 'parts of the replaced snapshot are dropped');
  });

  it('drops the same snapshot sent again (with the HTML, then in answer to ready), parts and all, but not after an action', () => {
    const state = promptTranscript(ENTRY_PAGE_SIZE * 3 + 1);
    const sent = snapshotMessages(4, state, conversation, 1);
    const assembler = new SnapshotAssembler();
    assert.equal(sent.flatMap((message) => assembler.accept(message)).length, 2, 'the first is taken: its preview, then the whole');
    assert.deepEqual(assembler.accept({ type: 'host_info', info: hostInfo }), [{ type: 'host_info', info: hostInfo }]);
    assert.deepEqual(
      snapshotMessages(4, state, conversation, 1).flatMap((message) => assembler.accept(message)),
      [],
      'the same conversation at the same number again: nothing to draw',
    );
    const redrafted = snapshotMessages(4, state, { ...conversation, draft: 'typed' }, 1);
    assert.equal(redrafted.flatMap((message) => assembler.accept(message)).length, 2, 'another draft is taken');
    const actions: HostToWebviewMessage = { type: 'actions', firstSeq: 5, actions: [chunk] };
    assert.deepEqual(assembler.accept(actions), [actions]);
    const resent = snapshotMessages(4, state, { ...conversation, draft: 'typed' }, 1);
    assert.equal(resent.flatMap((message) => assembler.accept(message)).length, 2, 'after an action, a snapshot is always taken');
  });

  it('takes a snapshot of another conversation at the same number', () => {
    const assembler = new SnapshotAssembler();
    const first = snapshotMessages(0, promptTranscript(3), conversation);
    assert.deepEqual(assembler.accept(first[0]!), first);
    const other = snapshotMessages(0, promptTranscript(3), { conversationId: 'c2', draft: '' });
    assert.deepEqual(assembler.accept(other[0]!), other);
  });
});
