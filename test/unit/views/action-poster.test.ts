import * as assert from 'node:assert/strict';
import { ActionPoster, MAX_IN_FLIGHT, POST_CHARS, TERMINAL_FLOOD_WINDOW_MS, type WebviewSink } from '../../../src/views/action-poster';
import type { HostToWebviewMessage } from '../../../src/shared/webview-protocol';
import type { TranscriptAction } from '../../../src/shared/actions';
import type { TranscriptState } from '../../../src/shared/model';
import { initialState, reduce } from '../../../src/shared/reducer';
import { applyActions, applySnapshot, initialSync, type SyncState } from '../../../webview/host/sync';
import { DrawnAcks } from '../../../webview/drawn-acks';
import { parseWebviewMessage } from '../../../src/views/webview-messages';

const chunk = (text: string, messageId?: string): TranscriptAction => ({
  type: 'session_update',
  update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text }, ...(messageId ? { messageId } : {}) },
});

const turnEnded: TranscriptAction = { type: 'turn_ended', turnId: 't', stopReason: 'end_turn' };
/** After `ms`, and after the poster's own setImmediate queued by then (a 0 ms timer may run before it). */
const settle = (ms = 0): Promise<void> => new Promise((resolve) => setTimeout(() => setImmediate(resolve), ms));
const delivered = (): PromiseLike<boolean> => Promise.resolve(true);

/** A sink that records what was posted and says each post was delivered. */
function recorder(): { posted: HostToWebviewMessage[]; sink: WebviewSink } {
  const posted: HostToWebviewMessage[] = [];
  return { posted, sink: (message) => (posted.push(message), delivered()) };
}

/** The last action number a posted `actions` message carries. */
function lastSeq(message: HostToWebviewMessage | undefined): number {
  assert.ok(message?.type === 'actions', `an actions message: ${JSON.stringify(message)}`);
  return message.firstSeq + message.actions.length - 1;
}

/**
 * A webview that applies what it gets with the real sync and reducer, and acknowledges each `actions` message
 * `drawMs` after it arrived (a frame's drawing): what it shows at the end, and how many messages it got.
 */
class Receiver {
  sync: SyncState = initialSync();
  messages = 0;
  poster: ActionPoster | undefined;

  constructor(private readonly drawMs: number) {}

  readonly sink: WebviewSink = (message) => {
    this.messages++;
    if (message.type === 'snapshot') this.sync = applySnapshot(this.sync, message.seq, message.state);
    if (message.type === 'actions') this.sync = applyActions(this.sync, message.firstSeq, message.actions, reduce).sync;
    const seq = this.sync.seq;
    setTimeout(() => this.poster?.drawn(seq), this.drawMs);
    return delivered();
  };
}

/** A stream as an agent sends it: chunks of two messages in bursts a few ms apart, a notice between, a turn end. */
async function stream(poster: ActionPoster): Promise<TranscriptAction[]> {
  const sent: TranscriptAction[] = [];
  const push = (action: TranscriptAction): void => {
    sent.push(action);
    poster.push(action);
  };
  for (let burst = 0; burst < 40; burst++) {
    for (let i = 0; i < 5; i++) push(chunk(`${burst}.${i} `, burst < 20 ? 'm1' : 'm2'));
    if (burst === 20) push({ type: 'notice_added', severity: 'info', title: 'between' });
    await settle(2);
  }
  push(turnEnded);
  return sent;
}

describe('posting actions to the webview (flow control by acknowledgement)', () => {
  it('merges a burst of chunks into one message whose size follows the chunks', async () => {
    const { posted, sink } = recorder();
    const poster = new ActionPoster(sink);
    for (let i = 0; i < 100; i++) poster.push(chunk('ab'));
    assert.equal(posted.length, 0, 'held until this turn of the event loop is done');
    await settle();
    assert.equal(posted.length, 1);
    const message = posted[0];
    assert.ok(message?.type === 'actions');
    assert.equal(message.firstSeq, 1);
    assert.equal(message.actions.length, 1);
    assert.ok(JSON.stringify(message).length < 2 * 200 + 200);
    poster.dispose();
  });

  it(`keeps at most ${MAX_IN_FLIGHT} batches in flight, merges what comes meanwhile, and posts it once one is drawn`, async () => {
    const { posted, sink } = recorder();
    const poster = new ActionPoster(sink);
    for (const text of ['a', 'b']) {
      poster.push(chunk(text));
      await settle();
    }
    assert.equal(posted.length, 2, 'two on their way, neither waited for a window');
    for (const text of ['c', 'd', 'e']) {
      poster.push(chunk(text));
      await settle(5);
    }
    assert.equal(posted.length, 2, 'neither was drawn: chunks wait here');
    assert.equal(poster.unacknowledged, 2);
    poster.drawn(lastSeq(posted[0]));
    await settle();
    assert.equal(posted.length, 3, 'one drawn: what waited goes out');
    const third = posted[2];
    assert.ok(third?.type === 'actions' && third.actions.length === 1, 'as one merged chunk');
    assert.deepEqual(third.actions[0], chunk('cde'));
    // Any other action is never held: it flushes what waits, in order.
    poster.push(chunk('f'));
    poster.push(turnEnded);
    assert.equal(posted.length, 4);
    assert.deepEqual(
      (posted[3]?.type === 'actions' ? posted[3].actions : []).map((action) => action.type),
      ['session_update', 'turn_ended'],
    );
    poster.dispose();
  });

  it("the webview's acknowledgement, as it posts it, passes the host's validation and releases the next batch", async () => {
    const { posted, sink } = recorder();
    const poster = new ActionPoster(sink);
    const conversationId = 'c0ffee-1';
    poster.snapshot(initialState(), { conversationId, draft: '' });
    // The webview's side: what a painted frame acknowledges, posted as the chat posts it, checked as the host checks it.
    const paints: (() => void)[] = [];
    const acks = new DrawnAcks(
      (seq) => {
        const message = parseWebviewMessage(JSON.parse(JSON.stringify({ type: 'drawn', conversationId, seq })));
        assert.ok(!('error' in message) && message.type === 'drawn', JSON.stringify(message));
        assert.equal(message.conversationId, conversationId);
        poster.drawn(message.seq);
      },
      (callback) => paints.push(callback),
    );
    const paint = (): void => paints.splice(0).forEach((callback) => callback());
    await settle(20);
    acks.drew(0);
    paint();
    for (const text of ['a', 'b', 'c']) {
      poster.push(chunk(text));
      await settle();
    }
    assert.equal(
      posted.filter((message) => message.type === 'actions').length,
      MAX_IN_FLIGHT,
      'the snapshot was acknowledged: two batches go',
    );
    acks.drew(lastSeq(posted[posted.length - 2]));
    paint();
    await settle();
    assert.equal(
      posted.filter((message) => message.type === 'actions').length,
      MAX_IN_FLIGHT + 1,
      'the acknowledgement released the chunk that waited',
    );
    assert.equal(poster.unacknowledged, MAX_IN_FLIGHT);
    poster.dispose();
  });

  it('an acknowledgement of a later number releases every batch up to it', async () => {
    const { posted, sink } = recorder();
    const poster = new ActionPoster(sink);
    poster.push(chunk('a'));
    await settle();
    poster.push(chunk('b'));
    await settle();
    poster.drawn(lastSeq(posted[1]));
    assert.equal(poster.unacknowledged, 0);
    poster.dispose();
  });

  it('a fast receiver gets more, smaller messages than a slow one, and both end with the same transcript as the agent sent', async () => {
    const expected = (sent: readonly TranscriptAction[]): TranscriptState => sent.reduce(reduce, initialState());
    const run = async (drawMs: number): Promise<{ receiver: Receiver; sent: TranscriptAction[] }> => {
      const receiver = new Receiver(drawMs);
      const poster = new ActionPoster(receiver.sink);
      receiver.poster = poster;
      poster.snapshot(initialState(), { conversationId: 'c', draft: '' });
      const sent = await stream(poster);
      await settle(drawMs * 3 + 20);
      poster.dispose();
      return { receiver, sent };
    };
    const fast = await run(1);
    const slow = await run(40);
    assert.deepEqual(fast.receiver.sync.state, expected(fast.sent));
    assert.deepEqual(slow.receiver.sync.state, expected(slow.sent));
    assert.deepEqual(slow.receiver.sync.state, fast.receiver.sync.state);
    assert.ok(
      slow.receiver.messages * 2 < fast.receiver.messages,
      `the slow receiver got fewer messages: ${slow.receiver.messages} against ${fast.receiver.messages}`,
    );
  });

  it('a view that never acknowledges (hidden, reloading) still gets its chunks, one merged batch per timeout', async () => {
    const { posted, sink } = recorder();
    const poster = new ActionPoster(sink, { ackTimeoutMs: 60 });
    const started = performance.now();
    const sent: string[] = [];
    for (let i = 0; i < 30; i++) {
      sent.push(`${i} `);
      poster.push(chunk(`${i} `));
      await settle(5);
    }
    await settle(200);
    const texts = posted.flatMap((message) =>
      message.type === 'actions'
        ? message.actions.map((action) =>
            action.type === 'session_update' &&
            action.update.sessionUpdate === 'agent_message_chunk' &&
            action.update.content.type === 'text'
              ? action.update.content.text
              : '',
          )
        : [],
    );
    assert.equal(texts.join(''), sent.join(''), 'nothing lost, nothing stalled');
    assert.ok(posted.length <= 2 + Math.ceil((performance.now() - started) / 60) + 1, `about one post per timeout: ${posted.length}`);
    assert.ok(posted.length > 2, 'posting went on without acknowledgements');
    poster.dispose();
  });

  it('a post the webview could not get (it is gone) is not waited for', async () => {
    const posted: HostToWebviewMessage[] = [];
    const poster = new ActionPoster((message) => (posted.push(message), Promise.resolve(false)), { ackTimeoutMs: 60_000 });
    for (let i = 0; i < 5; i++) {
      poster.push(chunk(`${i}`));
      await settle(2);
    }
    assert.equal(posted.length, 5);
    assert.equal(poster.unacknowledged, 0);
    poster.dispose();
  });

  it('a snapshot (the view reloaded) forgets what was in flight and waits for the snapshot to be drawn', async () => {
    const { posted, sink } = recorder();
    const poster = new ActionPoster(sink, { ackTimeoutMs: 60_000 });
    for (const text of ['a', 'b', 'c']) {
      poster.push(chunk(text));
      await settle();
    }
    assert.equal(posted.length, 2);
    poster.snapshot(initialState(), { conversationId: 'c', draft: '' });
    assert.equal(lastSeq(posted[2]), 3, 'the chunk that waited went out before the snapshot');
    const snapshot = posted[3];
    assert.ok(snapshot?.type === 'snapshot' && snapshot.seq === 3);
    assert.equal(poster.unacknowledged, 1, 'only the snapshot is in flight');
    poster.push(chunk('d'));
    await settle();
    assert.equal(posted.length, 5, 'one more may go while the snapshot is drawn');
    poster.push(chunk('e'));
    await settle();
    assert.equal(posted.length, 5);
    poster.drawn(3);
    await settle();
    assert.equal(posted.length, 6);
    poster.dispose();
  });

  it('posts a flood of chunk text in parts of at most POST_CHARS, each waiting for its acknowledgement, and loses nothing', async () => {
    // In code-server every post is read on the workbench's own thread, and a command's answer waits behind the
    // posts on their way: a 20 MB message merged into posts of megabytes made a command wait seconds
    // (test/integration/host-floods.test.ts).
    const { posted, sink } = recorder();
    const poster = new ActionPoster(sink, { ackTimeoutMs: 60_000 });
    const paragraph = `${'flood words 🚀 '.repeat(300)}\n\n`.slice(0, 4096);
    let state: TranscriptState = reduce(initialState(), { type: 'prompt_sent', turnId: 't', content: [{ type: 'text', text: 'go' }] });
    let expected = state;
    for (let i = 0; i < 250; i++) {
      poster.push(chunk(paragraph, 'm1'));
      expected = reduce(expected, chunk(paragraph, 'm1'));
    }
    poster.push(turnEnded);
    expected = reduce(expected, turnEnded);
    let acknowledged = 0;
    for (let round = 0; round < 100 && acknowledged < posted.length; round++) {
      await settle(2);
      const sizes = posted.map((message) => JSON.stringify(message).length);
      assert.ok(Math.max(...sizes) <= POST_CHARS + 1_000, `post sizes: ${sizes.join(', ')}`);
      assert.ok(poster.unacknowledged <= MAX_IN_FLIGHT, `at most ${MAX_IN_FLIGHT} posts unacknowledged`);
      poster.drawn(lastSeq(posted[acknowledged++]));
    }
    assert.ok(posted.length >= (250 * 4096) / POST_CHARS, `${posted.length} posts`);
    let seq = 0;
    for (const message of posted) {
      assert.ok(message.type === 'actions');
      assert.equal(message.firstSeq, seq + 1, 'numbered continuously');
      seq += message.actions.length;
      for (const action of message.actions) state = reduce(state, action);
    }
    assert.deepEqual(state, expected, 'the parts apply to the same transcript as the chunks');
    poster.dispose();
  });

  it('numbers actions continuously and gives the snapshot the current number', () => {
    const { posted, sink } = recorder();
    const poster = new ActionPoster(sink);
    poster.push({ type: 'notice_added', severity: 'info', title: 'one' });
    poster.push(chunk('x'));
    poster.snapshot(initialState(), { conversationId: 'c1', draft: '' });
    poster.push({ type: 'notice_added', severity: 'info', title: 'two' });
    assert.deepEqual(
      posted.map((m) =>
        m.type === 'actions' ? `actions@${m.firstSeq}x${m.actions.length}` : m.type === 'snapshot' ? `snapshot@${m.seq}` : m.type,
      ),
      ['actions@1x1', 'actions@2x1', 'snapshot@2', 'actions@3x1'],
    );
    poster.dispose();
  });

  it('after a terminal flood post, the card is redrawn at most every flood window, however fast the acknowledgements', async () => {
    const posted: { at: number; message: HostToWebviewMessage }[] = [];
    const poster = new ActionPoster((message) => {
      posted.push({ at: performance.now(), message });
      if (message.type === 'actions') setImmediate(() => poster.drawn(lastSeq(message)));
      return delivered();
    });
    const output = (text: string): TranscriptAction => ({ type: 'terminal_output', terminalId: 't1', text });
    const started = performance.now();
    while (performance.now() - started < TERMINAL_FLOOD_WINDOW_MS * 2.5) {
      poster.push(output('x'.repeat(16_384)));
      await settle(5);
    }
    poster.dispose();
    assert.ok(posted.length >= 2 && posted.length <= 4, `${posted.length} posts in ${TERMINAL_FLOOD_WINDOW_MS * 2.5} ms`);
    for (let i = 1; i < posted.length; i++)
      assert.ok(
        posted[i]!.at - posted[i - 1]!.at >= TERMINAL_FLOOD_WINDOW_MS - 2,
        `a window apart: ${posted[i]!.at - posted[i - 1]!.at} ms`,
      );
  });

  it('does not merge chunks of different messages, and flushes before any other action', () => {
    const { posted, sink } = recorder();
    const poster = new ActionPoster(sink);
    poster.push(chunk('a', 'm1'));
    poster.push(chunk('b', 'm2'));
    poster.push(turnEnded);
    assert.equal(posted.length, 1);
    const message = posted[0];
    assert.ok(message?.type === 'actions');
    assert.equal(message.actions.length, 3);
    assert.equal(message.actions[2]?.type, 'turn_ended');
    poster.dispose();
  });
});
