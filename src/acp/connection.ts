/**
 * A typed ACP client connection on vscode-jsonrpc: the requests we send, the agent's requests and notifications
 * we serve (each validated with zod; bad params get -32602 saying what is wrong), tracing, and close/error
 * events. vscode-jsonrpc delivers messages in arrival order, so a prompt's result is never seen before the
 * updates the agent sent ahead of it.
 */
import type { Readable, Writable } from 'node:stream';
import {
  CancellationToken,
  createMessageConnection,
  ErrorCodes,
  ResponseError,
  Trace,
  type MessageConnection,
} from 'vscode-jsonrpc/node';
import type { z } from 'zod';
import { NdjsonMessageReader, NdjsonMessageWriter, DEFAULT_MAX_LINE_BYTES } from './ndjson';
import type { LogSink, TraceLevel } from './log-sink';
import * as requests from './schemas/client-requests';
import * as results from './schemas/agent-results';

export interface AcpConnectionOptions {
  readonly input: Readable;
  readonly output: Writable;
  readonly log: LogSink;
  readonly trace?: TraceLevel;
  readonly maxLineBytes?: number;
}

export interface ClientInfo {
  readonly name: string;
  readonly title?: string;
  readonly version: string;
}

type Handler<P, R> = (params: P, token: CancellationToken) => R | Promise<R>;

export class AcpConnection {
  private readonly connection: MessageConnection;
  private readonly reader: NdjsonMessageReader;
  private closed = false;
  private readonly closeListeners = new Set<(reason: string) => void>();

  constructor(private readonly options: AcpConnectionOptions) {
    const { log } = options;
    const reader = new NdjsonMessageReader(
      options.input,
      {
        onInvalidLine: (text, reason) => log.warn(`Skipped a line from the agent that is not JSON-RPC (${reason}): ${text}`),
        onOversizeLine: (bytes, limit) => log.error(`Discarded a ${bytes}-byte message from the agent: over the ${limit}-byte limit`),
      },
      options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
    );
    const writer = new NdjsonMessageWriter(options.output);
    this.reader = reader;
    const logger = {
      error: (message: string) => log.error(message),
      warn: (message: string) => log.warn(message),
      info: (message: string) => log.info(message),
      log: (message: string) => log.info(message),
    };
    this.connection = createMessageConnection(reader, writer, logger, {
      // Tells the reader when the library's queue drains, so its fast path never overtakes a queued message.
      messageStrategy: {
        handleMessage: (message, next) => {
          reader.libraryDispatched();
          return next(message);
        },
      },
      connectionStrategy: {
        cancelUndispatched: (message, next) => {
          const response = next(message);
          if (response && (response.error !== undefined || response.result !== undefined)) reader.libraryDispatched();
          return response;
        },
      },
    });
    // Unknown `_` extension requests must get "method not found"; any other unknown request too.
    this.connection.onRequest((method) => new ResponseError(ErrorCodes.MethodNotFound, `Method not found: ${method}`));
    // Unknown notifications are ignored (ACP: extension notifications may be dropped).
    this.connection.onNotification((method) => log.trace(`Ignored notification ${method}`));
    this.connection.onClose(() => this.fireClose('the agent closed the connection'));
    this.connection.onError(([error]) => log.error(`ACP connection error: ${error.message}`));
    const trace = options.trace ?? 'off';
    if (trace !== 'off') {
      void this.connection.trace(trace === 'verbose' ? Trace.Verbose : Trace.Messages, { log: (message: string, data?: string) => log.trace(data ? `${message}\n${data}` : message) });
    }
    this.connection.listen();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  onClose(listener: (reason: string) => void): { dispose(): void } {
    this.closeListeners.add(listener);
    return { dispose: () => this.closeListeners.delete(listener) };
  }

  // ----- client -> agent ---------------------------------------------------------------------------------

  /** v1 names its fields `clientInfo`/`clientCapabilities`; the v2 draft `info`/`capabilities`. */
  initialize(
    params: { protocolVersion: 1; clientCapabilities: object; clientInfo: ClientInfo } | { protocolVersion: 2; capabilities: object; info: ClientInfo },
    token?: CancellationToken,
  ): Promise<results.InitializeResult> {
    return this.request('initialize', params, results.initializeResult, token);
  }

  authenticate(methodId: string, token?: CancellationToken): Promise<unknown> {
    return this.connection.sendRequest('authenticate', { methodId }, token ?? CancellationToken.None);
  }

  newSession(params: { cwd: string; mcpServers: readonly unknown[] }, token?: CancellationToken): Promise<results.NewSessionResult> {
    return this.request('session/new', params, results.newSessionResult, token);
  }

  prompt(params: { sessionId: string; prompt: readonly unknown[] }, token?: CancellationToken): Promise<results.PromptResult> {
    return this.request('session/prompt', params, results.promptResult, token);
  }

  cancel(params: { sessionId: string }): void {
    void this.connection.sendNotification('session/cancel', params).catch((error: unknown) => this.options.log.warn(`session/cancel not sent: ${String(error)}`));
  }

  /** v2: stop an agent-owned terminal that advertises `capabilities.cancel` (the agent confirms with an exit). */
  async cancelTerminal(params: { sessionId: string; terminalId: string }): Promise<void> {
    await this.connection.sendRequest('terminal/cancel', params);
  }

  async setMode(params: { sessionId: string; modeId: string }): Promise<void> {
    await this.connection.sendRequest('session/set_mode', params);
  }

  setConfigOption(params: { sessionId: string; configId: string; type?: 'boolean' | 'id'; value: string | boolean }): Promise<z.infer<typeof results.setConfigOptionResult>> {
    return this.request('session/set_config_option', params, results.setConfigOptionResult);
  }

  // ----- agent -> client ---------------------------------------------------------------------------------

  /** Updates flood during a turn: they take the reader's fast path when nothing else is queued (see ndjson.ts). */
  onSessionUpdate(handler: (params: requests.SessionUpdateEnvelope) => void): void {
    const handle = this.validatedNotification('session/update', requests.sessionUpdateEnvelope, handler);
    this.connection.onNotification('session/update', handle);
    this.reader.useFastPath({
      accepts: (message) => 'method' in message && message.method === 'session/update' && !('id' in message),
      deliver: (message) => {
        if (this.options.trace && this.options.trace !== 'off') this.options.log.trace(`Received notification 'session/update'${this.options.trace === 'verbose' ? `\n${JSON.stringify(message)}` : ''}`);
        handle('params' in message ? message.params : undefined);
      },
    });
  }

  onRequestPermission(handler: Handler<requests.RequestPermissionWireParams, unknown>): void {
    this.onRequest('session/request_permission', requests.requestPermissionParams, handler);
  }

  onReadTextFile(handler: Handler<requests.ReadTextFileParams, unknown>): void {
    this.onRequest('fs/read_text_file', requests.readTextFileParams, handler);
  }

  onWriteTextFile(handler: Handler<requests.WriteTextFileParams, unknown>): void {
    this.onRequest('fs/write_text_file', requests.writeTextFileParams, handler);
  }

  onCreateTerminal(handler: Handler<requests.CreateTerminalParams, unknown>): void {
    this.onRequest('terminal/create', requests.createTerminalParams, handler);
  }

  /** `terminal/output`, `terminal/wait_for_exit`, `terminal/kill` and `terminal/release`: all name a terminal. */
  onTerminalRequest(method: 'output' | 'wait_for_exit' | 'kill' | 'release', handler: Handler<requests.TerminalRefParams, unknown>): void {
    this.onRequest(`terminal/${method}`, requests.terminalRefParams, handler);
  }

  /** Registers an agent -> client request; params failing the schema get -32602 naming the field. */
  onRequest<S extends z.ZodType>(method: string, schema: S, handler: Handler<z.infer<S>, unknown>): void {
    this.connection.onRequest(method, async (raw: unknown, token: CancellationToken) => {
      const parsed = schema.safeParse(raw ?? {});
      if (!parsed.success) throw new ResponseError(ErrorCodes.InvalidParams, `Invalid params for ${method}: ${describeIssues(parsed.error)}`);
      const result = await handler(parsed.data, token);
      // JSON-RPC needs a result member; `{}` for handlers that have nothing to say.
      return result ?? null;
    });
  }

  onNotification<S extends z.ZodType>(method: string, schema: S, handler: (params: z.infer<S>) => void): void {
    this.connection.onNotification(method, this.validatedNotification(method, schema, handler));
  }

  private validatedNotification<S extends z.ZodType>(method: string, schema: S, handler: (params: z.infer<S>) => void): (raw: unknown) => void {
    return (raw: unknown) => {
      const parsed = schema.safeParse(raw ?? {});
      if (!parsed.success) {
        this.options.log.warn(`Ignored ${method} with invalid params: ${describeIssues(parsed.error)}`);
        return;
      }
      handler(parsed.data);
    };
  }

  dispose(): void {
    this.fireClose('disposed');
    this.connection.dispose();
  }

  private async request<S extends z.ZodType>(method: string, params: object, schema: S, token?: CancellationToken): Promise<z.infer<S>> {
    if (this.closed) throw new Error(`Cannot send ${method}: the agent connection is closed`);
    const raw: unknown = await this.connection.sendRequest(method, params, token ?? CancellationToken.None);
    const parsed = schema.safeParse(raw);
    if (!parsed.success) throw new Error(`The agent answered ${method} with an invalid result: ${describeIssues(parsed.error)}`);
    return parsed.data;
  }

  private fireClose(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    for (const listener of this.closeListeners) listener(reason);
  }
}

export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : 'params'}: ${issue.message}`)
    .join('; ');
}
