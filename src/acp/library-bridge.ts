/**
 * Between the NDJSON framing and vscode-jsonrpc: everything that knows the library's ways lives here, so the
 * framing only frames.
 * - Cancellation: the library cancels with LSP's `$/cancelRequest {id}`, ACP names it `$/cancel_request
 *   {requestId}`; both directions are translated, so the library's own cancellation works on the ACP wire.
 * - A shortcut past the library's queue for the one message that floods. The library dispatches one queued
 *   message per event-loop turn, which costs more than everything else an update needs; an accepted message is
 *   delivered synchronously instead, but only while the library has nothing queued, so arrival order is kept.
 */
import {
  AbstractMessageReader,
  AbstractMessageWriter,
  type ConnectionStrategy,
  type DataCallback,
  type Disposable,
  type Message,
  type MessageReader,
  type MessageStrategy,
  type MessageWriter,
} from 'vscode-jsonrpc';
import { fromWireCancel, isLibraryCancel, toWireCancel } from './cancel-dialect';

export interface Shortcut {
  accepts(message: Message): boolean;
  deliver(message: Message): void;
  /** A delivered message's handler threw: reported, and the stream goes on. */
  failed(message: Message, error: unknown): void;
}

export class LibraryBridgeReader extends AbstractMessageReader {
  private shortcut: Shortcut | undefined;
  /** Messages handed to the library and not yet dispatched by it. */
  private queuedInLibrary = 0;

  constructor(private readonly framing: MessageReader) {
    super();
    framing.onError((error) => this.fireError(error));
    framing.onClose(() => this.fireClose());
    framing.onPartialMessage((info) => this.firePartialMessage(info));
  }

  useShortcut(shortcut: Shortcut): void {
    this.shortcut = shortcut;
  }

  /** Hooks for `createMessageConnection` that tell this reader when the library's queue drains. */
  get strategies(): { messageStrategy: MessageStrategy; connectionStrategy: ConnectionStrategy } {
    return {
      messageStrategy: {
        handleMessage: (message, next) => {
          this.dispatched();
          return next(message);
        },
      },
      connectionStrategy: {
        cancelUndispatched: (message, next) => {
          const response = next(message);
          if (response && (response.error !== undefined || response.result !== undefined)) this.dispatched();
          return response;
        },
      },
    };
  }

  listen(callback: DataCallback): Disposable {
    return this.framing.listen((wire) => {
      const message = fromWireCancel(wire);
      if (this.queuedInLibrary === 0 && this.shortcut?.accepts(message)) {
        try {
          this.shortcut.deliver(message);
        } catch (error) {
          // A handler's bug must not take the stream (and the agent connection) down with it.
          this.shortcut.failed(message, error);
        }
        return;
      }
      // Cancellations are acted on at once by the library and may never reach its queue.
      if (!isLibraryCancel(message)) this.queuedInLibrary++;
      callback(message);
    });
  }

  override dispose(): void {
    super.dispose();
    this.framing.dispose();
  }

  private dispatched(): void {
    if (this.queuedInLibrary > 0) this.queuedInLibrary--;
  }
}

export class LibraryBridgeWriter extends AbstractMessageWriter implements MessageWriter {
  constructor(private readonly framing: MessageWriter) {
    super();
    framing.onError(([error, message, count]) => this.fireError(error, message, count));
    framing.onClose(() => this.fireClose());
  }

  write(message: Message): Promise<void> {
    return this.framing.write(toWireCancel(message));
  }

  end(): void {
    this.framing.end();
  }

  override dispose(): void {
    super.dispose();
    this.framing.dispose();
  }
}
