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
import { hasLongString, jsonLinePieces, stringChars } from './sliced-json';

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
  /** Writes waiting behind a sliced one (lines never interleave), and the end of the last of them. */
  private queued = 0;
  private tail: Promise<void> = Promise.resolve();
  /**
   * About the characters of the sliced messages queued here, until the output has taken all of their pieces: the
   * pieces already handed over count in the output's buffer too meanwhile, so this errs high, never low.
   */
  private unwritten = 0;
  /** `whenUnsentBelow` callers, checked again as a sliced message is handed over. */
  private readonly unsentWaiters = new Set<() => void>();

  constructor(private readonly output: Writable) {
    super();
    output.on('error', (error: Error) => this.fireError(error));
    output.on('close', () => this.fireClose());
  }

  write(message: Message): Promise<void> {
    if (this.queued === 0 && !hasLongString(message)) return this.writeText(JSON.stringify(message) + '\n', message);
    const chars = stringChars(message);
    this.queued++;
    this.unwritten += chars;
    const written = this.tail
      .then(() => this.writePieces(message))
      .finally(() => {
        this.queued--;
        this.unwritten -= chars;
        for (const check of [...this.unsentWaiters]) check();
      });
    this.tail = written.then(ignore, ignore);
    return written;
  }

  /** A message carrying megabytes, a slice per turn of the event loop (sliced-json.ts says why). */
  private async writePieces(message: Message): Promise<void> {
    const writes: Promise<void>[] = [];
    for (const piece of jsonLinePieces(message)) {
      const write = this.writeText(piece, message);
      write.catch(ignore);
      writes.push(write);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(writes);
  }

  private writeText(text: string, message: Message): Promise<void> {
    return new Promise((resolve, reject) => {
      this.output.write(text, 'utf8', (error) => {
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

  /**
   * Resolves once less than `bytes` of what was written waits to reach the agent, or the output is gone (a write
   * then fails as usual). What the agent has not read piles up here, in the extension host, without bound: the
   * caller waits before making more of it (agent-requests.ts, before a file is read for the agent).
   */
  whenUnsentBelow(bytes: number): Promise<void> {
    const output = this.output;
    // Messages still queued here count too: answers read at once are queued long before their pieces are written.
    const settled = (): boolean => output.writableLength + this.unwritten < bytes || output.destroyed || output.writableFinished;
    if (settled()) return Promise.resolve();
    return new Promise((resolve) => {
      // 'drain' comes once the buffer is empty (a write over the high-water mark returned false, as one must have).
      const check = (): void => {
        if (!settled()) return;
        this.unsentWaiters.delete(check);
        for (const event of OUTPUT_ENDS) output.off(event, check);
        resolve();
      };
      this.unsentWaiters.add(check);
      for (const event of OUTPUT_ENDS) output.on(event, check);
    });
  }

  end(): void {
    if (this.queued === 0) this.output.end();
    else void this.tail.then(() => this.output.end());
  }
}

function ignore(): void {}

/** The output's events after which what waits unsent may be less: emptied, or gone. */
const OUTPUT_ENDS = ['drain', 'close', 'error', 'finish'];

function isJsonRpcMessage(value: unknown): value is Message {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && (value as { jsonrpc?: unknown }).jsonrpc === '2.0';
}

function preview(text: string): string {
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}
