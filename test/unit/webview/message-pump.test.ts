import * as assert from 'node:assert/strict';
import { ENTRY_PAGE_SIZE } from '../../../src/shared/model';
import { snapshotMessages } from '../../../src/shared/snapshot-parts';
import type { HostToWebviewMessage } from '../../../src/shared/webview-protocol';
import { MessagePump } from '../../../webview/host/message-pump';
import { SnapshotAssembler } from '../../../webview/host/snapshot-assembler';
import { chunk, promptTranscript } from './prompt-transcript';

const actions: HostToWebviewMessage = { type: 'actions', firstSeq: 1, actions: [chunk] };

/**
 * A page whose paints the test makes happen, and a chat that records what it was handed. `chat`: whether it always
 * wants another frame, and in which paints it draws one (all of them unless told).
 */
function harness(chat: { alwaysWantsFrame?: boolean; drawsIn?: (paint: number) => boolean } = {}) {
  const waitingForPaint: (() => void)[] = [];
  const delivered: HostToWebviewMessage[] = [];
  const unpacked: string[] = [];
  const assembler = new SnapshotAssembler();
  let paints = 0;
  let drawn = 0;
  const pump = new MessagePump(
    (data) => assembler.accept(data as HostToWebviewMessage),
    (message) => delivered.push(message),
    () => ({ pending: chat.alwaysWantsFrame === true, drawn }),
    (next) => waitingForPaint.push(next),
  );
  return {
    delivered,
    unpacked,
    /** Posts `message` the way the page gets it: its data is copied in only when read. */
    post(message: HostToWebviewMessage): void {
      pump.push({
        get data() {
          unpacked.push(message.type);
          return message;
        },
      });
    },
    paint(): void {
      paints++;
      if (chat.alwaysWantsFrame && (chat.drawsIn?.(paints) ?? true)) drawn++;
      const due = waitingForPaint.splice(0);
      due.forEach((next) => next());
    },
    get waitingForPaint(): number {
      return waitingForPaint.length;
    },
  };
}

describe('the webview takes the host messages in order, letting the chat draw between the big ones', () => {
  it('passes small messages straight through when nothing waits', () => {
    const page = harness();
    page.post(actions);
    page.post({ type: 'focus_composer' });
    assert.deepEqual(
      page.delivered.map((message) => message.type),
      ['actions', 'focus_composer'],
    );
    assert.equal(page.waitingForPaint, 0);
  });

  it('draws the newest pages first, then unpacks one older part per frame, and hands the whole over a frame later', () => {
    const page = harness();
    const messages = snapshotMessages(0, promptTranscript(ENTRY_PAGE_SIZE * 3 + 1), { conversationId: 'c', draft: '' }, 1);
    assert.equal(messages.length, 3, 'the newest pages, then two older parts');
    messages.forEach((message) => page.post(message));
    page.post(actions);
    assert.deepEqual(page.unpacked, ['snapshot'], 'the older parts wait, not even copied in, until the preview is drawn');
    assert.deepEqual(
      page.delivered.map((message) => message.type === 'snapshot' && message.partsToFollow),
      [2],
    );
    page.paint();
    assert.deepEqual(page.unpacked, ['snapshot', 'snapshot_part'], 'one part in the next frame');
    page.paint();
    assert.deepEqual(page.unpacked, ['snapshot', 'snapshot_part', 'snapshot_part']);
    assert.equal(page.delivered.length, 1, 'the snapshot the last part completed waits for the next frame');
    page.paint();
    assert.deepEqual(
      page.delivered.map((message) => message.type),
      ['snapshot', 'snapshot'],
    );
    const whole = page.delivered[1];
    assert.ok(whole?.type === 'snapshot' && whole.partsToFollow === undefined && whole.state.entryCount === ENTRY_PAGE_SIZE * 3 + 1);
    assert.deepEqual(page.unpacked.at(-1), 'snapshot_part', 'the actions behind it wait until the whole is drawn');
    page.paint();
    assert.deepEqual(
      page.delivered.map((message) => message.type),
      ['snapshot', 'snapshot', 'actions'],
    );
  });

  it('passes a short transcript snapshot straight through with what follows it: nothing big comes after it', () => {
    const page = harness();
    page.post({ type: 'snapshot', seq: 0, state: promptTranscript(2), conversationId: 'c', draft: '' });
    page.post(actions);
    assert.deepEqual(
      page.delivered.map((message) => message.type),
      ['snapshot', 'actions'],
    );
    assert.equal(page.waitingForPaint, 0);
  });

  it('does not hold messages up for a chat that always wants another frame', () => {
    const page = harness({ alwaysWantsFrame: true });
    const [preview] = snapshotMessages(0, promptTranscript(ENTRY_PAGE_SIZE * 3 + 1), { conversationId: 'c', draft: '' }, 1);
    page.post(preview!);
    page.post({ type: 'focus_composer' });
    let paints = 0;
    while (page.delivered.length < 2 && paints < 10) {
      page.paint();
      paints++;
    }
    assert.equal(page.delivered.at(-1)?.type, 'focus_composer');
    assert.ok(paints > 1 && paints <= 4, `it gave the chat a few frames, then went on (after ${paints})`);
  });

  it('counts the frames the chat drew, not the paints: a chat resting after a long frame keeps its turn', () => {
    // Draws in paints 1 and 5 only (it rested three paints after a long frame in between).
    const page = harness({ alwaysWantsFrame: true, drawsIn: (paint) => paint === 1 || paint === 5 });
    const [newest, part] = snapshotMessages(0, promptTranscript(ENTRY_PAGE_SIZE * 3 + 1), { conversationId: 'c', draft: '' }, 1);
    page.post(newest!);
    page.post(part!);
    for (let paint = 1; paint <= 4; paint++) page.paint();
    assert.deepEqual(page.unpacked, ['snapshot'], 'after four paints and one frame drawn, the part still waits');
  });

  it('goes on after twelve paints for a chat that wants a frame and never draws one', () => {
    const page = harness({ alwaysWantsFrame: true, drawsIn: () => false });
    const [newest] = snapshotMessages(0, promptTranscript(ENTRY_PAGE_SIZE * 3 + 1), { conversationId: 'c', draft: '' }, 1);
    page.post(newest!);
    page.post({ type: 'focus_composer' });
    let paints = 0;
    while (page.delivered.length < 2 && paints < 30) {
      page.paint();
      paints++;
    }
    assert.equal(page.delivered.at(-1)?.type, 'focus_composer');
    assert.equal(paints, 12);
  });
});
