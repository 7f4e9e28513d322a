/**
 * Everything that changes the transcript. The host dispatches these and posts the same actions to the webview,
 * which runs the same reducer. Actions carry every value the reducer needs (times, ids) so that reducing is
 * deterministic and host and webview states stay identical.
 */
import type {
  AgentStatus,
  AvailableCommand,
  ChangedFileView,
  ConfigOption,
  Entry,
  NoticeAction,
  NoticeSeverity,
  PermissionOption,
  QueuedPrompt,
  SessionModes,
  TerminalRecord,
  ToolCallOrigin,
} from './model';
import type { ContentBlock } from './content';
import type { ElicitationOutcome, ElicitationRequest } from './elicitation-model';
import type { SessionUpdate, ToolCallFields } from './updates';

export type TranscriptAction =
  /**
   * A validated `session/update` for the current session. `origin` is set only by the client for a card of its own
   * (never from the wire: the update is the agent's JSON, the action around it is ours).
   */
  | { readonly type: 'session_update'; readonly update: SessionUpdate; readonly origin?: ToolCallOrigin }
  /** The user sent a prompt: shows their message and starts the turn. */
  | { readonly type: 'prompt_sent'; readonly turnId: string; readonly content: readonly ContentBlock[] }
  /** v2: the agent inserted the prompt into its conversation as message `messageId`. */
  | { readonly type: 'prompt_accepted'; readonly turnId: string; readonly messageId: string }
  /** The prompt's answer (v1, or seed-002 v2) or a v2 `state_update idle`: the turn ends with this reason. */
  | { readonly type: 'turn_ended'; readonly turnId: string; readonly stopReason: string }
  /** The prompt request failed (JSON-RPC error, agent gone): the turn ends as an error; the session stays. */
  | { readonly type: 'turn_failed'; readonly turnId: string; readonly message: string; readonly code?: number }
  /** The user cancelled: non-finished tool calls of the turn become cancelled, pending permissions go. */
  | { readonly type: 'cancel_requested'; readonly turnId: string; readonly at: number }
  /** The agent asks permission for a tool call (creating the call when unseen). */
  | {
      readonly type: 'permission_requested';
      readonly requestId: string;
      readonly toolCallId: string;
      readonly toolCall: ToolCallFields;
      readonly options: readonly PermissionOption[];
      /** Set by the client asking on a card of its own (as for `session_update`). */
      readonly origin?: ToolCallOrigin;
    }
  /** A permission request was answered (by the user from either place, by cancel, or dismissed by the agent). */
  | {
      readonly type: 'permission_resolved';
      readonly requestId: string;
      readonly outcome: { readonly optionId: string } | 'cancelled';
    }
  /** The agent asks the user (`elicitation/create`): on its tool call's card when the transcript shows it, else alone. */
  | {
      readonly type: 'elicitation_requested';
      readonly requestId: string;
      readonly toolCallId?: string;
      readonly message: string;
      readonly request: ElicitationRequest;
    }
  /** The elicitation was answered, cancelled, or (url) completed by the agent. */
  | { readonly type: 'elicitation_resolved'; readonly requestId: string; readonly outcome: ElicitationOutcome }
  | { readonly type: 'agent_status'; readonly status: AgentStatus }
  /** A new session was created (or the agent was restarted and a new session made). */
  | {
      readonly type: 'session_started';
      readonly sessionId: string;
      readonly modes?: SessionModes;
      readonly configOptions?: readonly ConfigOption[];
      readonly availableCommands?: readonly AvailableCommand[];
      readonly promptCapabilities: { readonly image: boolean; readonly audio: boolean; readonly embeddedContext: boolean };
      /** A running turn can be steered (`_session/steering`). */
      readonly steering?: boolean;
    }
  /** Something the client tells the user in the transcript. */
  | {
      readonly type: 'notice_added';
      readonly severity: NoticeSeverity;
      readonly title: string;
      readonly detail?: string;
      readonly action?: NoticeAction;
      readonly alternative?: NoticeAction;
    }
  /** The agent started a command (`terminal/create`). */
  | { readonly type: 'terminal_started'; readonly terminalId: string; readonly commandLine: string }
  /** Output of a command, in arrival order (stdout and stderr interleaved as they came). */
  | {
      readonly type: 'terminal_output';
      readonly terminalId: string;
      readonly text: string;
      /** Characters of the newest output the chat keeps for this terminal (terminalDisplayChars); unset: TERMINAL_DISPLAY_CHARS. */
      readonly keep?: number;
    }
  | { readonly type: 'terminal_exited'; readonly terminalId: string; readonly exitCode: number | null; readonly signal: string | null }
  /** The agent released the terminal: the process is gone, its output stays on screen. */
  | { readonly type: 'terminal_released'; readonly terminalId: string }
  /**
   * v2 `terminal_update` for an agent-owned terminal, decoded: each field present replaces (output: all of it),
   * `exit: null` clears the exit. Output chunks come as `terminal_output`.
   */
  | {
      readonly type: 'terminal_patched';
      readonly terminalId: string;
      readonly commandLine?: string;
      readonly output?: string;
      readonly exit?: { readonly exitCode: number | null; readonly signal: string | null } | null;
      readonly cancellable?: boolean;
    }
  /** The agent accepted `session/set_mode`. */
  | { readonly type: 'mode_set'; readonly modeId: string }
  /** The agent answered `session/set_config_option` with the options as they now stand. */
  | { readonly type: 'config_options_set'; readonly configOptions: readonly ConfigOption[] }
  /** The agent refused a choice the picker already shows: show again what holds, so the picker snaps back. */
  | { readonly type: 'pickers_restated' }
  /**
   * A turn's captured changes (or a restore's), whole: shown after the turn, replaced as files are kept or undone.
   * An empty list removes the card.
   */
  | {
      readonly type: 'change_set_recorded';
      readonly turnId: string;
      readonly origin: 'turn' | 'restore';
      readonly files: readonly ChangedFileView[];
      readonly notes?: readonly string[];
    }
  /** "New Session": empty transcript, agent state kept. */
  | { readonly type: 'transcript_cleared' }
  /** A prompt waits for the agent (starting, or busy with a turn); it is sent in order when the agent can take it. */
  | { readonly type: 'prompt_queued'; readonly prompt: QueuedPrompt }
  /** A queued prompt was sent, edited (back into the draft) or removed. */
  | { readonly type: 'queued_prompt_removed'; readonly id: string }
  /** A queued prompt the agent took into the running turn (steering): shown as the user's message within it. */
  | { readonly type: 'prompt_steered'; readonly turnId: string; readonly steerId: string; readonly content: readonly ContentBlock[] }
  /** The user renamed the conversation (the agent's own titles arrive as `session_info_update`). */
  | { readonly type: 'title_set'; readonly title: string }
  /**
   * A fork's start: the history of the conversation it was forked from (up to a message), continuing the agent's
   * forked session `sessionId` when `agentName` next starts (see transcript-fork.ts).
   */
  | {
      readonly type: 'history_copied';
      readonly entries: readonly Entry[];
      readonly terminals: Readonly<Record<string, TerminalRecord>>;
      /** Absent: a new session that gets the history in its first prompt (see edit-resend.ts). */
      readonly sessionId?: string;
      readonly agentName: string;
    };
