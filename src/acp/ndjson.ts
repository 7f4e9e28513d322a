/**
 * ACP frames JSON-RPC by newline, not by LSP's Content-Length headers, so vscode-jsonrpc gets a reader and a
 * writer of our own. The reader splits raw bytes on "\n" before decoding, so a multi-byte UTF-8 character split
 * across chunks is never corrupted; a line that is not a JSON object is reported and skipped (agents print
 * stray output); a line over the size cap is discarded as it streams, never buffered whole, and reported.
 */
import type { Readable, Writable } from 'node:stream';
import {
  AbstractMessageReader,
  AbstractMessageWriter,
  type DataCallback,
  type Disposable,
  type Message,
  type MessageWriter,
} from 'vscode-jsonrpc';
import { errorMessage } from '../shared/error-text';

export const DEFAULT_MAX_LINE_BYTES = 50 * 1024 * 1024;
const NEWLINE = 0x0a;

export interface FramingProblems {
  /** A line that was not a JSON object: skipped. */
  readonly onInvalidLine: (preview: string, reason: string) => void;
  /** A line over the cap: discarded. */
  readonly onOversizeLine: (bytes: number, limit: number) => void;
}

export class NdjsonMessageReader extends AbstractMessageReader {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Bytes of an over-size line still being dropped, or -1 when not dropping. */
  private droppedBytes = -1;
  private readonly decoder = new TextDecoder('utf-8');

  constructor(
    private readonly input: Readable,
    private readonly problems: FramingProblems,
    private readonly maxLineBytes = DEFAULT_MAX_LINE_BYTES,
  ) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    const onData = (chunk: Buffer): void => this.consume(chunk, callback);
    const onEnd = (): void => this.fireClose();
    const onError = (error: Error): void => this.fireError(error);
    this.input.on('data', onData);
    this.input.on('end', onEnd);
    this.input.on('close', onEnd);
    this.input.on('error', onError);
    return {
      dispose: () => {
        this.input.off('data', onData);
        this.input.off('end', onEnd);
        this.input.off('close', onEnd);
        this.input.off('error', onError);
      },
    };
  }

  private consume(chunk: Buffer, callback: DataCallback): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(NEWLINE, start);
      if (newline === -1) break;
      this.finishLine(chunk.subarray(start, newline), callback);
      start = newline + 1;
    }
    if (start < chunk.length) this.keep(chunk.subarray(start));
  }

  /** Holds an incomplete line, unless it has grown past the cap: then its bytes are only counted. */
  private keep(part: Buffer): void {
    if (this.droppedBytes >= 0) {
      this.droppedBytes += part.length;
      return;
    }
    if (this.pendingBytes + part.length > this.maxLineBytes) {
      this.droppedBytes = this.pendingBytes + part.length;
      this.pending = [];
      this.pendingBytes = 0;
      return;
    }
    // Copy: the stream may reuse the chunk's memory.
    this.pending.push(Buffer.from(part));
    this.pendingBytes += part.length;
  }

  private finishLine(tail: Buffer, callback: DataCallback): void {
    if (this.droppedBytes >= 0) {
      this.problems.onOversizeLine(this.droppedBytes + tail.length, this.maxLineBytes);
      this.droppedBytes = -1;
      return;
    }
    let line: Buffer = tail;
    if (this.pending.length > 0) {
      line = Buffer.concat([...this.pending, tail], this.pendingBytes + tail.length);
      this.pending = [];
      this.pendingBytes = 0;
    }
    if (line.length > this.maxLineBytes) {
      this.problems.onOversizeLine(line.length, this.maxLineBytes);
      return;
    }
    const text = this.decoder.decode(line).trim();
    if (text.length === 0) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      this.problems.onInvalidLine(preview(text), errorMessage(error));
      return;
    }
    if (!isJsonRpcMessage(parsed)) {
      this.problems.onInvalidLine(preview(text), 'not a JSON-RPC message object');
      return;
    }
    callback(parsed);
  }
}

export class NdjsonMessageWriter extends AbstractMessageWriter implements MessageWriter {
  private errorCount = 0;

  constructor(private readonly output: Writable) {
    super();
    output.on('error', (error: Error) => this.fireError(error));
    output.on('close', () => this.fireClose());
  }

  write(message: Message): Promise<void> {
    const line = JSON.stringify(message) + '\n';
    return new Promise((resolve, reject) => {
      this.output.write(line, 'utf8', (error) => {
        if (error) {
          this.errorCount++;
          this.fireError(error, message, this.errorCount);
          reject(error);
        } else {
          this.errorCount = 0;
          resolve();
        }
      });
    });
  }

  end(): void {
    this.output.end();
  }
}

function isJsonRpcMessage(value: unknown): value is Message {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && (value as { jsonrpc?: unknown }).jsonrpc === '2.0';
}

function preview(text: string): string {
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}
