/**
 * A typed ACP client connection on vscode-jsonrpc: the requests we send, the agent's requests and notifications
 * we serve, tracing, and close/error events. Everything the agent sends is parsed and validated here, once: bad
 * request params get -32602 saying what is wrong, and what reaches the layers above is typed (session updates,
 * permission requests, session setup results), never raw JSON. vscode-jsonrpc delivers messages in arrival
 * order, so a prompt's result is never seen before the updates the agent sent ahead of it.
 */
import type { Readable, Writable } from 'node:stream';
import {
  CancellationToken,
  CancellationTokenSource,
  createMessageConnection,
  ErrorCodes,
  ResponseError,
  Trace,
  type MessageConnection,
} from 'vscode-jsonrpc/node';
import type { CancellationSignal } from './rpc-boundary';
import type { z } from 'zod';
import { LEGACY_MODEL_OPTION, type ConfigOption, type PermissionOption } from '../shared/model';
import { errorWithStack } from '../shared/error-text';
import type { AgentTerminalUpdate, SessionUpdate, ToolCallFields } from '../shared/updates';
import { LibraryBridgeReader, LibraryBridgeWriter } from './library-bridge';
import { NdjsonMessageReader, NdjsonMessageWriter, DEFAULT_MAX_LINE_BYTES } from './ndjson';
import type { LogSink, TraceLevel } from './log-sink';
import type { ProtocolVersion } from './protocol-version';
import type { TraceRedaction } from './trace-redaction';
import * as requests from './schemas/client-requests';
import * as results from './schemas/agent-results';
import { completeElicitationParams, createElicitationParams, type CreateElicitationParams } from './schemas/elicitation';
import { configOptionsOf, sessionSetupOf, type OpenedSession } from './schemas/session-setup';
import { SessionRequests, type SessionPlace } from './session-requests';
import { parseSessionUpdate } from './schemas/session-update';
import { parseToolCallFields } from './schemas/session-update-fields';

/** Distinct ignored notification methods logged; an agent inventing names for ever is not logged for ever. */
const MAX_IGNORED_LOGGED = 100;
/** The card's title for a permission request that names no tool call. */
export const UNNAMED_PERMISSION_TITLE = 'Permission requested';

export type { OpenedSession } from './schemas/session-setup';

export interface AcpConnectionOptions {
  readonly input: Readable;
  readonly output: Writable;
  readonly log: LogSink;
  readonly trace?: TraceLevel;
  readonly maxLineBytes?: number;
  /** The version offered in `initialize`: it decides what `null` means in a v2 tool call update. */
  readonly protocolVersion?: ProtocolVersion;
  /** Secrets (MCP server env and header values) masked in the wire trace. */
  readonly redaction?: TraceRedaction;
}

/** A `session/update`, parsed: a transcript update, or a v2 agent-owned terminal's state (still base64). */
export interface SessionNotification {
  readonly sessionId: string;
  readonly update?: SessionUpdate;
  readonly terminal?: AgentTerminalUpdate;
}

export interface PermissionRequest {
  readonly sessionId: string;
  readonly toolCallId: string;
  readonly toolCall: ToolCallFields;
  readonly options: readonly PermissionOption[];
}

export interface ClientInfo {
  readonly name: string;
  readonly title?: string;
  readonly version: string;
}

type Handler<P, R> = (params: P, token: CancellationToken) => R | Promise<R>;

export class AcpConnection {
  private readonly connection: MessageConnection;
  private readonly reader: LibraryBridgeReader;
  private readonly output: NdjsonMessageWriter;
  private closed = false;
  /** load, resume, fork, list, close, delete, set_title: see session-requests.ts. */
  readonly sessions = new SessionRequests(
    (method, params, schema, token) => this.request(method, params, schema, token),
    (problem) => this.reportOnce(problem),
  );
  private readonly closeListeners = new Set<(reason: string) => void>();
  /** Problems with what the agent sent, each logged once: a flood of the same one would bury the log. */
  private readonly reported = new Set<string>();

  constructor(private readonly options: AcpConnectionOptions) {
    const { log } = options;
    const framing = new NdjsonMessageReader(
      options.input,
      {
        onInvalidLine: (text, reason) => log.warn(`Skipped a line from the agent that is not JSON-RPC (${reason}): ${text}`),
        onOversizeLine: (bytes, limit) => log.error(`Discarded a ${bytes}-byte message from the agent: over the ${limit}-byte limit`),
      },
      options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
    );
    this.reader = new LibraryBridgeReader(framing);
    this.output = new NdjsonMessageWriter(options.output);
    const writer = new LibraryBridgeWriter(this.output);
    const logger = {
      error: (message: string) => log.error(message),
      warn: (message: string) => log.warn(message),
      info: (message: string) => log.info(message),
      log: (message: string) => log.info(message),
    };
    this.connection = createMessageConnection(this.reader, writer, logger, this.reader.strategies);
    // Unknown `_` extension requests must get "method not found"; any other unknown request too.
    this.connection.onRequest((method) => new ResponseError(ErrorCodes.MethodNotFound, `Method not found: ${method}`));
    // Unknown notifications are ignored (ACP: extension notifications may be dropped); agents send vendor ones
    // (`_zed/...`) many times a turn, so each method is logged once.
    this.connection.onNotification((method) => {
      if (this.ignoredNotifications.has(method) || this.ignoredNotifications.size >= MAX_IGNORED_LOGGED) return;
      this.ignoredNotifications.add(method);
      log.info(`Ignored notification ${method} (logged once)`);
    });
    this.connection.onClose(() => this.fireClose('the agent closed its output'));
    this.connection.onError(([error]) => log.error(`ACP connection error: ${error.message}`));
    const trace = options.trace ?? 'off';
    if (trace !== 'off') {
      void this.connection.trace(trace === 'verbose' ? Trace.Verbose : Trace.Messages, {
        log: (message: string, data?: string) => {
          const text = data ? `${message}\n${data}` : message;
          log.trace(this.redact(text));
        },
      });
    }
    this.connection.listen();
  }

  /** The stream from the agent ended, or the connection was disposed: no answer will come any more. */
  onClose(listener: (reason: string) => void): { dispose(): void } {
    this.closeListeners.add(listener);
    return { dispose: () => this.closeListeners.delete(listener) };
  }

  // ----- client -> agent ---------------------------------------------------------------------------------

  /** v1 names its fields `clientInfo`/`clientCapabilities`; the v2 draft `info`/`capabilities`. */
  initialize(
    params:
      | { protocolVersion: 1; clientCapabilities: object; clientInfo: ClientInfo }
      | { protocolVersion: 2; capabilities: object; info: ClientInfo },
    token?: CancellationToken,
  ): Promise<results.InitializeResult> {
    return this.request('initialize', params, results.initializeResult, token);
  }

  /** Signs in with an `agent`-type method; a `terminal` one is never sent (the client runs it). */
  async authenticate(methodId: string, signal: CancellationSignal): Promise<void> {
    const source = new CancellationTokenSource();
    const subscription = signal.onCancellationRequested(() => source.cancel());
    if (signal.isCancellationRequested) source.cancel();
    try {
      await this.request('authenticate', { methodId }, results.emptyResult, source.token);
    } finally {
      subscription.dispose();
      source.dispose();
    }
  }

  /** Only when the agent advertises `agentCapabilities.auth.logout`. */
  async logout(): Promise<void> {
    await this.request('logout', {}, results.emptyResult);
  }

  async newSession(params: SessionPlace, token?: CancellationToken): Promise<OpenedSession> {
    const created = await this.request('session/new', params, results.newSessionResult, token);
    const problems: string[] = [];
    const setup = sessionSetupOf(created, problems);
    problems.forEach((problem) => this.reportOnce(`session/new: ${problem}`));
    return { sessionId: created.sessionId, ...setup };
  }

  prompt(params: { sessionId: string; prompt: readonly unknown[] }, token?: CancellationToken): Promise<results.PromptResult> {
    return this.request('session/prompt', params, results.promptResult, token);
  }

  /**
   * Steers the running turn (claude-agent-acp's `_session/steering` extension, only where `initialize` advertised
   * it): the message joins the turn instead of waiting for the next. Asks for `promptRequired` when no turn runs,
   * so the client, not the agent, sends it as a prompt then.
   */
  async steer(params: { sessionId: string; prompt: readonly unknown[] }): Promise<'injected' | 'prompt_required'> {
    const answer = await this.request(
      '_session/steering',
      { ...params, _meta: { steering: { idleBehavior: 'promptRequired' } } },
      results.steeringResult,
    );
    return answer.outcome === 'promptRequired' ? 'prompt_required' : 'injected';
  }

  cancel(params: { sessionId: string }): void {
    void this.connection
      .sendNotification('session/cancel', params)
      .catch((error: unknown) => this.options.log.warn(`session/cancel not sent: ${String(error)}`));
  }

  /** v2: stop an agent-owned terminal that advertises `capabilities.cancel` (the agent confirms with an exit). */
  async cancelTerminal(params: { sessionId: string; terminalId: string }): Promise<void> {
    await this.connection.sendRequest('terminal/cancel', params);
  }

  async setMode(params: { sessionId: string; modeId: string }): Promise<void> {
    await this.connection.sendRequest('session/set_mode', params);
  }

  /** The options as they now stand, when the agent says (it may answer with nothing). */
  async setConfigOption(params: {
    sessionId: string;
    configId: string;
    type?: 'boolean' | 'id';
    value: string | boolean;
  }): Promise<readonly ConfigOption[] | undefined> {
    if (params.configId === LEGACY_MODEL_OPTION) {
      // The model picker made from a legacy `models` field: the agent's unstable `session/set_model`, which answers
      // nothing about the options.
      await this.request('session/set_model', { sessionId: params.sessionId, modelId: String(params.value) }, results.emptyResult);
      return undefined;
    }
    const result = await this.request('session/set_config_option', params, results.setConfigOptionResult);
    const problems: string[] = [];
    const configOptions = configOptionsOf(result?.configOptions, problems);
    problems.forEach((problem) => this.reportOnce(`session/set_config_option: ${problem}`));
    return configOptions;
  }

  // ----- agent -> client ---------------------------------------------------------------------------------

  /** Updates flood during a turn: they take the bridge's shortcut when nothing else is queued (library-bridge.ts). */
  onSessionUpdate(handler: (notification: SessionNotification) => void): void {
    const handle = this.validatedNotification('session/update', requests.sessionUpdateEnvelope, (params) => {
      const { update, terminal, problems } = parseSessionUpdate(params.update, this.options.protocolVersion ?? 1);
      problems.forEach((problem) => this.reportOnce(`session/update: ${problem}`));
      if (update || terminal) handler({ sessionId: params.sessionId, ...(update ? { update } : {}), ...(terminal ? { terminal } : {}) });
    });
    this.connection.onNotification('session/update', handle);
    this.reader.useShortcut({
      accepts: (message) => 'method' in message && message.method === 'session/update' && !('id' in message),
      deliver: (message) => {
        if (this.options.trace && this.options.trace !== 'off')
          this.options.log.trace(
            this.redact(`Received notification 'session/update'${this.options.trace === 'verbose' ? `\n${JSON.stringify(message)}` : ''}`),
          );
        handle('params' in message ? message.params : undefined);
      },
      failed: (_message, error) => this.options.log.error(`Handling a session/update failed: ${errorWithStack(error)}`),
    });
  }

  onRequestPermission(handler: Handler<PermissionRequest, unknown>): void {
    this.onRequest('session/request_permission', requests.requestPermissionParams, (params, token) => {
      const problems: string[] = [];
      // Some agents ask with no tool call at all: the request gets a card of its own, keyed by a local id.
      const toolCall = params.toolCall ? parseToolCallFields(params.toolCall, problems) : { title: UNNAMED_PERMISSION_TITLE };
      if (!params.toolCall) this.reportOnce('session/request_permission without a toolCall: shown as a card of its own');
      problems.forEach((problem) => this.reportOnce(`session/request_permission: ${problem}`));
      const options = params.options.map((option) => ({ optionId: option.optionId, name: option.name, kind: option.kind }));
      const toolCallId = params.toolCall?.toolCallId ?? `permission-without-tool-call-${++this.bareRequests}`;
      return handler({ sessionId: params.sessionId, toolCallId, toolCall, options }, token);
    });
  }

  /** Resolves once less than `bytes` of what we sent waits for the agent to read it (ndjson.ts). */
  whenUnsentBelow(bytes: number): Promise<void> {
    return this.output.whenUnsentBelow(bytes);
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

  /** `elicitation/create`: a form or a URL; a request scoped to no session (`requestId`) fails the schema. */
  onCreateElicitation(handler: Handler<CreateElicitationParams, unknown>): void {
    this.onRequest('elicitation/create', createElicitationParams, handler);
  }

  onCompleteElicitation(handler: (elicitationId: string) => void): void {
    this.connection.onNotification(
      'elicitation/complete',
      this.validatedNotification('elicitation/complete', completeElicitationParams, (params) => handler(params.elicitationId)),
    );
  }

  /** Registers an agent -> client request; params failing the schema get -32602 naming the field. */
  private onRequest<S extends z.ZodType>(method: string, schema: S, handler: Handler<z.infer<S>, unknown>): void {
    this.connection.onRequest(method, async (raw: unknown, token: CancellationToken) => {
      const parsed = schema.safeParse(raw ?? {});
      if (!parsed.success)
        throw new ResponseError(ErrorCodes.InvalidParams, `Invalid params for ${method}: ${describeIssues(parsed.error)}`);
      const result = await handler(parsed.data, token);
      // JSON-RPC needs a result member; `{}` for handlers that have nothing to say.
      return result ?? null;
    });
  }

  private validatedNotification<S extends z.ZodType>(
    method: string,
    schema: S,
    handler: (params: z.infer<S>) => void,
  ): (raw: unknown) => void {
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

  private redact(text: string): string {
    return this.options.redaction ? this.options.redaction.redact(text) : text;
  }

  private readonly ignoredNotifications = new Set<string>();
  private bareRequests = 0;

  private reportOnce(problem: string): void {
    if (this.reported.has(problem)) return;
    this.reported.add(problem);
    this.options.log.warn(problem);
  }

  private fireClose(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    for (const listener of this.closeListeners) listener(reason);
  }
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : 'params'}: ${issue.message}`)
    .join('; ');
}
