/**
 * Takes the host's messages in order, but lets the chat draw between the big ones. A long transcript arrives as
 * a snapshot in parts (src/shared/snapshot-parts.ts): unpacking a part can take tens of ms (copying it in, and
 * the garbage collector's share), and so can drawing the chat. Done in one frame they add up to a frame the user
 * feels. So after a long snapshot's first message (its newest pages) the pump waits until the chat has drawn it
 * (and has no frame pending) before it goes on, and what a part completes is handed to the chat in a frame after
 * the one that unpacked it. A short transcript's snapshot is one small message and passes straight through.
 *
 * A `message` event copies its data in only when `data` is read, so events queued here cost nothing until their
 * turn. Other messages (a streaming window's actions) pass straight through when nothing waits. DOM-free: the
 * page gives it how to wait for a paint.
 */
import type { HostToWebviewMessage } from '../../src/shared/webview-protocol';

/** Frames of its own the pump lets the chat draw after a big message, at most, before it goes on. */
const MAX_FRAMES_YIELDED = 4;
/**
 * Paints the pump waits through after a big message, at most, whether the chat drew in them or not. After a long
 * frame the chat rests about that frame's length before its next one (webview/transcript/frame-scheduler.ts), so
 * counted in paints the chat's patience ran out while it rested: with the CPU throttled 2x (issue 31), the part taken
 * then was copied in (11-17 ms) just before the chat's frame that filled the view in, and the two held the thread
 * 51-66 ms. Counted in the chat's own frames, with this bound for a chat that never draws.
 */
const MAX_PAINTS_WAITED = 12;

/** What the pump needs to know of the chat's frames. */
export interface ChatFrames {
  /** A frame is asked for and not drawn yet. */
  readonly pending: boolean;
  /** Frames drawn so far (only ever grows). */
  readonly drawn: number;
}

function typeOf(data: unknown): unknown {
  return typeof data === 'object' && data !== null ? Reflect.get(data, 'type') : undefined;
}

export class MessagePump {
  private readonly inbox: { readonly data: unknown }[] = [];
  private waiting = false;

  /**
   * @param accept checks and unpacks one message's data: what it returns is ready for the chat, in order
   * @param deliver hands one ready message to the chat
   * @param chatFrames the chat's frames: the next big message waits until it has drawn what it asked for
   * @param afterPaint runs its callback in a task after the next frame has been painted
   */
  constructor(
    private readonly accept: (data: unknown) => readonly HostToWebviewMessage[],
    private readonly deliver: (message: HostToWebviewMessage) => void,
    private readonly chatFrames: () => ChatFrames,
    private readonly afterPaint: (next: () => void) => void,
  ) {}

  push(event: { readonly data: unknown }): void {
    this.inbox.push(event);
    this.drain();
  }

  private drain(): void {
    while (!this.waiting) {
      const event = this.inbox.shift();
      if (!event) return;
      const data = event.data;
      const type = typeOf(data);
      const ready = this.accept(data);
      if (type === 'snapshot_part') {
        // Unpacked in this frame; what it completes (the whole snapshot, the actions held for it) is drawn in the next.
        this.pause(() => this.handOver(ready));
      } else if (type === 'snapshot' && Reflect.get(Object(data), 'partsToFollow')) {
        // The newest pages of a long one (small by construction): drawn before its parts are taken.
        this.handOver(ready);
      } else {
        ready.forEach((message) => this.deliver(message));
      }
    }
  }

  /** Delivers `ready`; if it holds a snapshot, waits for the chat to draw it before taking the next message. */
  private handOver(ready: readonly HostToWebviewMessage[]): void {
    ready.forEach((message) => this.deliver(message));
    if (ready.some((message) => message.type === 'snapshot')) this.pause(() => undefined);
  }

  private pause(then: () => void, patience = MAX_FRAMES_YIELDED, paints = MAX_PAINTS_WAITED): void {
    this.waiting = true;
    const drawnBefore = this.chatFrames().drawn;
    this.afterPaint(() => {
      // The chat wants a frame (more of the view to fill in, or the rest after a long one): let it have that one
      // too, within reason: a chat that always wants frames must not hold the messages up.
      const frames = this.chatFrames();
      const left = frames.drawn > drawnBefore ? patience - 1 : patience;
      if (frames.pending && left > 0 && paints > 1) return this.pause(then, left, paints - 1);
      this.waiting = false;
      then();
      this.drain();
    });
  }
}
