/**
 * The transcript model: the one state the host and the webview both hold, produced by `reduce` (reducer.ts)
 * from `TranscriptAction`s (actions.ts). Plain JSON only: no classes, Dates, Maps or callbacks, because it is
 * posted to the webview as is.
 *
 * Performance contract (issue 4): applying a chunk to an existing entry must cost the same whether the
 * transcript holds 10 or 10,000 entries. Entries are therefore stored in fixed-size pages so that replacing one
 * entry copies one page and the (short) page list, never the whole transcript.
 */
import type { ContentBlock, JsonValue, ToolCallContent, ToolCallLocation } from './content';
import type { ElicitationEntry, ElicitationView } from './elicitation-model';
import type { Attachment } from './attachments';

export type EntryKey = string;

export type MessageRole = 'user' | 'agent' | 'thought';

export interface MessageEntry {
  readonly kind: 'message';
  /** Unique in the transcript: `msg:<role>:<messageId>` or a generated key for v1 chunks without an id. */
  readonly key: EntryKey;
  readonly role: MessageRole;
  readonly messageId?: string;
  readonly turnId?: string;
  /** Consecutive text chunks are merged into one text block, so content stays short while text grows. */
  readonly content: readonly ContentBlock[];
  /**
   * On the prompt sent from this client: how much of its text the agent has echoed back as user_message_chunk
   * (some v1 agents replay the prompt). Echoes are absorbed here rather than shown a second time.
   */
  readonly echoed?: number;
}

/** Client-side status: the wire's statuses plus what only the client knows. */
export type ToolCallStatus =
  | 'pending'
  | 'awaiting_permission'
  | 'in_progress'
  /** v2: started, not running now, resumes later (e.g. waiting on something outside the agent). */
  | 'paused'
  | 'completed'
  | 'failed'
  | 'rejected'
  | 'cancelled';

export type ToolKind = 'read' | 'edit' | 'delete' | 'move' | 'search' | 'execute' | 'think' | 'fetch' | 'switch_mode' | 'other';

export type PermissionOptionKind = 'allow_once' | 'allow_always' | 'reject_once' | 'reject_always';

export interface PermissionOption {
  readonly optionId: string;
  readonly name: string;
  readonly kind: PermissionOptionKind;
}

/** A permission request the agent is waiting on; shown on the tool call's card. */
export interface PendingPermission {
  /** Our id for the JSON-RPC request (stringified), used to answer it from the webview. */
  readonly requestId: string;
  readonly options: readonly PermissionOption[];
}

/**
 * Who made a tool call card. Absent: the agent (every card stored before this field existed is the agent's).
 * `editor`: the client itself, asking before one of the editor's actions (editor-action-asker.ts). Its Allow runs
 * what the client put on the card, so only the client may change it: the agent's updates naming it are ignored.
 */
export type ToolCallOrigin = 'editor';

export interface ToolCallEntry {
  readonly kind: 'tool_call';
  /** `tool:<toolCallId>` */
  readonly key: EntryKey;
  readonly toolCallId: string;
  readonly origin?: ToolCallOrigin;
  readonly turnId?: string;
  readonly title: string;
  readonly toolKind: ToolKind;
  readonly status: ToolCallStatus;
  readonly content: readonly ToolCallContent[];
  readonly locations: readonly ToolCallLocation[];
  readonly rawInput?: JsonValue;
  readonly rawOutput?: JsonValue;
  readonly permission?: PendingPermission;
  /** The option the user chose, once answered (shown on the card after the buttons go). */
  readonly permissionOutcome?: { readonly optionId: string; readonly name: string } | 'cancelled';
  /** The agent's question scoped to this tool call (`elicitation/create` with its toolCallId), asked or answered. */
  readonly elicitation?: ElicitationView;
}

export type PlanEntryStatus = 'pending' | 'in_progress' | 'completed';
export type PlanEntryPriority = 'high' | 'medium' | 'low';

export interface PlanItem {
  readonly content: string;
  readonly priority: PlanEntryPriority;
  readonly status: PlanEntryStatus;
}

export interface PlanEntry {
  readonly kind: 'plan';
  /** `plan:<planId>`; v1 `plan` updates (no id) use the id `default`. */
  readonly key: EntryKey;
  readonly planId: string;
  readonly turnId?: string;
  /** items: a checklist; markdown: text; file: a path to open. */
  readonly body:
    | { readonly type: 'items'; readonly items: readonly PlanItem[] }
    | { readonly type: 'markdown'; readonly markdown: string }
    | { readonly type: 'file'; readonly path: string };
}

/** A turn boundary marker, shown after the turn's output: its stop reason or its error. */
export interface TurnEndEntry {
  readonly kind: 'turn_end';
  /** `end:<turnId>` */
  readonly key: EntryKey;
  readonly turnId: string;
  readonly outcome:
    | { readonly type: 'stopped'; readonly stopReason: string }
    | { readonly type: 'error'; readonly message: string; readonly code?: number };
}

export type NoticeSeverity = 'info' | 'warning' | 'error';

/** Something the client tells the user in the transcript: a refused path, an agent crash, an agent notice. */
export interface NoticeEntry {
  readonly kind: 'notice';
  readonly key: EntryKey;
  readonly severity: NoticeSeverity;
  readonly title: string;
  readonly detail?: string;
  /** An action the webview offers as a button (e.g. restart a crashed agent). */
  readonly action?: NoticeAction;
  /** A second button beside `action` (Retry beside Stop), usable exactly while `action` is. */
  readonly alternative?: NoticeAction;
}

/** A context compaction the agent ran (or is running), with its summary as it streams. */
export interface CompactionEntry {
  readonly kind: 'compaction';
  /** `compaction:<compactionId>` */
  readonly key: EntryKey;
  readonly compactionId: string;
  readonly status: string;
  readonly summary: readonly ContentBlock[];
  readonly error?: string;
}

/** Whether the user has dealt with a captured change: kept (cleared from review) or undone. */
export type ChangeReview = 'pending' | 'kept' | 'undone';

/** One file the agent changed in a turn, as the change card shows it. */
export interface ChangedFileView {
  /** Absolute path. */
  readonly path: string;
  readonly change: 'created' | 'modified' | 'deleted' | 'renamed';
  /** For a rename: the path it had (its own record is folded into this one). */
  readonly renamedFrom?: string;
  /** Line counts when both sides are text we kept; absent for binary, large or unknown content. */
  readonly added?: number;
  readonly removed?: number;
  /** Why there is no diff, or where the agent's own report differs from what happened on disk. */
  readonly note?: string;
  readonly review: ChangeReview;
}

/**
 * The files a turn changed (whoever wrote them: our fs/write_text_file or the agent on disk), shown after the
 * turn's output; `restore` marks the change set of a "Restore to here", which can itself be undone.
 */
export interface ChangeSetEntry {
  readonly kind: 'changes';
  /** `changes:<turnId>` */
  readonly key: EntryKey;
  readonly turnId: string;
  readonly origin: 'turn' | 'restore';
  readonly files: readonly ChangedFileView[];
  /** Where the agent's own report and the disk disagree beyond one file (a reported change that never landed). */
  readonly notes?: readonly string[];
}

export type Entry =
  | MessageEntry
  | ToolCallEntry
  | PlanEntry
  | TurnEndEntry
  | NoticeEntry
  | CompactionEntry
  | ElicitationEntry
  | ChangeSetEntry;

/** Entries in pages of at most ENTRY_PAGE_SIZE: see the performance contract above. */
export const ENTRY_PAGE_SIZE = 256;
/**
 * Buckets of the key index (TranscriptState.positions). Appending an entry copies its bucket: with 64, a
 * 10,000-entry session's buckets held some 154 keys, and replaying its 420-action tail on load copied one 334 times,
 * 9.3 ms of a 30 ms load (issue 31: the load comes before the first paint after a reload). History stores the index
 * in STORED_POSITION_BUCKETS whatever this is (history/format.ts), so changing it changes no stored file.
 */
export const POSITION_BUCKETS = 512;

export type TurnState =
  | { readonly phase: 'idle' }
  | { readonly phase: 'running'; readonly turnId: string }
  | { readonly phase: 'cancelling'; readonly turnId: string; readonly since: number };

/** What a notice's button does: each is also a message the webview posts (webview-protocol.ts). */
export type NoticeAction = 'restart_agent' | 'stop_agent' | 'sign_in' | 'retry_start';

export type AgentStatus =
  | { readonly phase: 'none' }
  | { readonly phase: 'starting'; readonly agentName: string }
  /** `protocolVersion`: the ACP version the agent and client agreed on (absent in transcripts stored before it was kept). */
  | { readonly phase: 'ready'; readonly agentName: string; readonly protocolVersion?: 1 | 2 }
  /** Running, but it refused a session until the user signs in; `methods`: the names of its sign-in methods. */
  | { readonly phase: 'needs_auth'; readonly agentName: string; readonly methods: readonly string[] }
  | { readonly phase: 'exited'; readonly agentName: string; readonly exitCode: number | null; readonly signal?: string }
  /**
   * Not running, and nothing went wrong: a session restored from history, or one whose agent was stopped for being
   * idle. The next prompt starts the agent and continues the session (resume or load where the agent offers it).
   */
  | { readonly phase: 'stopped'; readonly agentName: string };

export interface AvailableCommand {
  readonly name: string;
  readonly description: string;
  readonly inputHint?: string;
}

export interface SessionMode {
  readonly id: string;
  readonly name: string;
  readonly description?: string;
}

export interface SessionModes {
  readonly current: string;
  readonly available: readonly SessionMode[];
}

export interface ConfigOptionValue {
  readonly value: string;
  readonly name: string;
  readonly description?: string;
}

/**
 * The id of the model picker made from an agent's legacy `models` field (ACP's unstable model selection, replaced by
 * config options of category `model`): choosing in it sends `session/set_model`.
 */
export const LEGACY_MODEL_OPTION = '_acpClient.legacyModel';

export interface ConfigOption {
  readonly id: string;
  readonly name: string;
  readonly description?: string;
  readonly category?: string;
  /** select: choose one of options; boolean: a toggle. */
  readonly type: 'select' | 'boolean';
  readonly currentValue: string | boolean;
  readonly options: readonly ConfigOptionValue[];
}

export interface UsageInfo {
  readonly used: number;
  readonly size: number;
  readonly cost?: { readonly amount: number; readonly currency: string };
}

/** How much of a terminal's output the transcript keeps for display at most (when the agent set no lower limit). */
export const TERMINAL_DISPLAY_CHARS = 64_000;

/** The least the chat keeps of a terminal's output, whatever the agent's limit: a card's worth of lines. */
export const TERMINAL_MIN_DISPLAY_CHARS = 2_000;

/**
 * Characters of a terminal's newest output the chat keeps for display: what the agent itself keeps (its
 * `outputByteLimit`; a character is at least a byte, so this is at least what the agent reads), within
 * [TERMINAL_MIN_DISPLAY_CHARS, TERMINAL_DISPLAY_CHARS]. Keeping 64,000 whatever the limit, a flood with a
 * 1,000-byte limit redrew a 64,000-character card four times a second on the workbench's thread in code-server
 * (its text layout 300-400 ms a redraw at load 20, test/integration/host-floods.test.ts) while commands waited.
 */
export function terminalDisplayChars(outputByteLimit: number | undefined): number {
  if (outputByteLimit === undefined) return TERMINAL_DISPLAY_CHARS;
  return Math.min(TERMINAL_DISPLAY_CHARS, Math.max(TERMINAL_MIN_DISPLAY_CHARS, Math.floor(outputByteLimit)));
}

/** A command the agent runs through `terminal/create`, as the chat shows it. Kept after release. */
export interface TerminalRecord {
  readonly terminalId: string;
  /** The command line, for display. Empty when a tool call showed the terminal before it was created. */
  readonly commandLine: string;
  /** The latest output, at most TERMINAL_DISPLAY_CHARS (fewer when the agent's limit is lower: terminalDisplayChars). */
  readonly output: string;
  /** Earlier output was dropped from display. */
  readonly trimmed: boolean;
  readonly exit?: { readonly exitCode: number | null; readonly signal: string | null };
  readonly released: boolean;
  /** v2 agent-owned terminal that the agent lets the user stop (`terminal/cancel`) right now. */
  readonly cancellable?: boolean;
  /** Tool calls whose content shows this terminal, so a view knows which cards to redraw when output arrives. */
  readonly toolCallIds: readonly string[];
}

export interface TranscriptState {
  readonly pages: readonly (readonly Entry[])[];
  /**
   * Entry key -> absolute position, split into POSITION_BUCKETS buckets by a hash of the key, so that adding an
   * entry copies one bucket and the bucket list rather than an index of the whole transcript.
   */
  readonly positions: readonly Readonly<Record<EntryKey, number>>[];
  readonly entryCount: number;
  readonly turn: TurnState;
  readonly agent: AgentStatus;
  readonly sessionId?: string;
  /** How many entries there were when the current session opened: a chunk never continues an entry before it. */
  readonly sessionOpenedAt?: number;
  readonly title?: string;
  /**
   * The agent's own "last activity" time for the session (`session_info_update.updatedAt`, ISO 8601 / RFC 3339),
   * as sent; lists age the conversation by it. Absent when never reported or cleared with null.
   */
  readonly agentUpdatedAt?: string;
  readonly commands: readonly AvailableCommand[];
  readonly modes: SessionModes | undefined;
  readonly configOptions: readonly ConfigOption[];
  readonly usage?: UsageInfo;
  /** The latest transient agent notice (banner), by severity. */
  readonly banner?: { readonly severity: NoticeSeverity; readonly title: string; readonly detail?: string; readonly id: number };
  /** Prompt capabilities of the agent, so the composer can say what it can't attach. */
  readonly promptCapabilities: { readonly image: boolean; readonly audio: boolean; readonly embeddedContext: boolean };
  /**
   * v2: the agent's messageId for each prompt this client sent (from the prompt's `{messageId}` answer or its
   * echo), mapped to that prompt's entry, so the agent's `user_message` echo updates it instead of doubling it.
   */
  readonly promptMessageIds: Readonly<Record<string, EntryKey>>;
  /** Terminals by id (terminal content in tool calls refers to them). */
  readonly terminals: Readonly<Record<string, TerminalRecord>>;
  /**
   * Prompts the user sent while the agent was starting or a turn ran, oldest first: each is sent when the agent can
   * take it, and may be edited or removed until then. (Absent in transcripts stored before queueing existed.)
   */
  readonly queued?: readonly QueuedPrompt[];
  /** The agent lets a queued prompt join the running turn (steering); absent when it does not. */
  readonly steering?: true;
  /** Tool calls the running turn has added, against MAX_TOOL_CALLS_PER_TURN (limits.ts); absent before any. */
  readonly turnToolCalls?: number;
  /** Monotonic counter used to generate keys (v1 chunks without messageId, notices); part of state so host and
   * webview generate the same keys. */
  readonly nextLocalId: number;
}

export interface QueuedPrompt {
  readonly id: string;
  readonly text: string;
  readonly attachments: readonly Attachment[];
}
