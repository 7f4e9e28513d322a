/**
 * The requests an agent makes of us (permission, files, terminals, elicitation), served for the session each
 * one names. One connection carries many sessions: each request is routed to the endpoint that has that
 * session open, and one naming any other session is refused (-32602) before anything is shown or touched.
 */
import { RpcError, RpcErrorCode } from '../acp/rpc-boundary';
import type { AcpConnection } from '../acp/connection';
import type { LogSink } from '../acp/log-sink';
import type { ElicitationBroker } from '../client/elicitation-broker';
import type { FileSystemHandler } from '../client/fs-handler';
import type { MissingFileAnswer } from '../client/missing-file-answer';
import type { PermissionBroker } from '../client/permission-broker';
import type { TerminalManager } from '../client/terminal-manager';
import type { AgentExit } from '../agents/agent-process';
import type { TranscriptAction } from '../shared/actions';
import { pathsNamedBy, type ToolCallShown } from '../shared/tool-paths';
import type { AgentTerminalUpdate, SessionUpdate } from '../shared/updates';
import type { TerminalAction } from './agent-terminals';
import { ElicitationHandler } from './elicitation-handler';

/** What the agent does to the transcript: its updates, its terminals, its permission requests. */
export type AgentAction =
  | Extract<
      TranscriptAction,
      { type: 'session_update' | 'permission_requested' | 'permission_resolved' | 'elicitation_requested' | 'elicitation_resolved' }
    >
  | TerminalAction;

/** One session on a shared connection, as the connection routes to it. */
export interface SessionEndpoint {
  /** The session it has open (undefined until `session/new` answers). */
  readonly sessionId: string | undefined;
  /** The session a `session/resume` or `session/load` in flight is for. */
  readonly reopening: string | undefined;
  /** A prompt of this session is waiting for its answer: the editor's actions ask the user here (editor-action-asker). */
  readonly turnRunning: boolean;
  /** Its key with the editor's MCP server: the calls made with its token name it (editor-tools/caller-tokens). */
  readonly editorCaller: string;
  readonly files: FileSystemHandler;
  readonly permissions: PermissionBroker;
  readonly elicitations: ElicitationBroker;
  readonly terminals: TerminalManager;
  /** One action per event the agent sends for this session, in arrival order. */
  onAction(action: AgentAction): void;
  /** The tool call as the transcript now has it (earlier updates merged), if it is shown. */
  toolCallShown(toolCallId: string): ToolCallShown | undefined;
  receiveUpdate(update: SessionUpdate): void;
  /** An update for the session being reopened; false when it must wait for the answer (a resume's). */
  receiveReplay(update: SessionUpdate): boolean;
  receiveTerminal(terminal: AgentTerminalUpdate): void;
  /** Another session on the connection signed in: a session the agent refused may open now. */
  signedIn(): void;
  processExited(exit: AgentExit): void;
}

export interface AgentRequestRouting {
  readonly agentName: string;
  readonly log: LogSink;
  /** The endpoint with `sessionId` open; undefined (and logged) for any other session. */
  endpointFor(sessionId: string, method: string): SessionEndpoint | undefined;
  missingFile(): MissingFileAnswer;
}

/**
 * A file is read for the agent only while less than this waits unsent to it. An agent that asks for many files and
 * then stops reading its input (stuck, or hostile) would otherwise have every answer read and held in the extension
 * host, which every extension shares: 30 answers of 4 MB all read and queued while it read nothing. Above a few
 * answers' worth, so an agent that reads as it goes never waits.
 */
const UNSENT_BEFORE_READ_BYTES = 16 * 1024 * 1024;

export function registerAgentRequests(connection: AcpConnection, routing: AgentRequestRouting): void {
  const owner = (sessionId: string, method: string): SessionEndpoint => {
    const endpoint = routing.endpointFor(sessionId, method);
    if (!endpoint) throw unknownSession(sessionId);
    return endpoint;
  };
  let nextPermissionId = 1;
  connection.onRequestPermission(async (request, token) => {
    const endpoint = owner(request.sessionId, 'session/request_permission');
    const requestId = `perm-${nextPermissionId++}`;
    const { toolCallId, toolCall, options } = request;
    endpoint.onAction({ type: 'permission_requested', requestId, toolCallId, toolCall, options });
    // The dialog names what the card shows: the title and files from earlier updates, not only the request's.
    const shown = endpoint.toolCallShown(toolCallId) ?? toolCall;
    const outcome = await endpoint.permissions.request(
      { requestId, agentName: routing.agentName, toolTitle: shown.title ?? 'Tool call', paths: pathsNamedBy(shown), options },
      token,
    );
    endpoint.onAction({
      type: 'permission_resolved',
      requestId,
      outcome: outcome.outcome === 'selected' ? { optionId: outcome.optionId } : 'cancelled',
    });
    return { outcome };
  });
  connection.onReadTextFile((params) =>
    owner(params.sessionId, 'fs/read_text_file').files.readTextFile(params, routing.missingFile(), () =>
      connection.whenUnsentBelow(UNSENT_BEFORE_READ_BYTES),
    ),
  );
  connection.onWriteTextFile((params) => owner(params.sessionId, 'fs/write_text_file').files.writeTextFile(params));
  registerTerminalRequests(connection, owner);
  new ElicitationHandler(connection, {
    agentName: routing.agentName,
    log: routing.log,
    route: (sessionId) => {
      const endpoint = routing.endpointFor(sessionId, 'elicitation/create');
      return endpoint && { broker: endpoint.elicitations, onAction: (action) => endpoint.onAction(action) };
    },
    refuse: unknownSession,
  });
}

function registerTerminalRequests(connection: AcpConnection, owner: (sessionId: string, method: string) => SessionEndpoint): void {
  connection.onCreateTerminal(async (params) => {
    const endpoint = owner(params.sessionId, 'terminal/create');
    const created = await endpoint.terminals.create(params);
    endpoint.onAction({
      type: 'terminal_started',
      terminalId: created.terminalId,
      commandLine: commandLine(params.command, params.args ?? []),
    });
    return created;
  });
  const served =
    <T>(method: 'output' | 'wait_for_exit' | 'kill', serve: (terminals: TerminalManager, terminalId: string) => T) =>
    (params: { sessionId: string; terminalId: string }): T =>
      serve(owner(params.sessionId, `terminal/${method}`).terminals, params.terminalId);
  connection.onTerminalRequest(
    'output',
    served('output', (terminals, id) => terminals.output(id)),
  );
  connection.onTerminalRequest(
    'wait_for_exit',
    served('wait_for_exit', (terminals, id) => terminals.waitForExit(id)),
  );
  connection.onTerminalRequest(
    'kill',
    served('kill', (terminals, id) => terminals.kill(id)),
  );
  connection.onTerminalRequest('release', (params) => {
    const endpoint = owner(params.sessionId, 'terminal/release');
    const released = endpoint.terminals.release(params.terminalId);
    endpoint.onAction({ type: 'terminal_released', terminalId: params.terminalId });
    return released;
  });
}

/** A command line for display: arguments with spaces or quotes are quoted. */
function commandLine(command: string, args: readonly string[]): string {
  return [command, ...args].map((part) => (/^[\w@%+=:,./-]+$/.test(part) ? part : `'${part.replace(/'/g, `'\\''`)}'`)).join(' ');
}

function unknownSession(sessionId: string): RpcError<void> {
  return new RpcError(RpcErrorCode.InvalidParams, `Unknown session ${sessionId}`);
}
