/**
 * Messages between the extension host and the chat webview. The host is the source of truth: it sends a
 * snapshot, then numbered actions; the webview reduces them with the same reducer, drops stale numbers and asks
 * for a resync on a gap. Webview -> host messages are validated with zod on arrival (src/views/webview-messages.ts).
 */
import type { TranscriptAction } from './actions';
import type { Attachment } from './attachments';
import type { InstallProgress } from './install-status';
import type { Entry, TranscriptState } from './model';

/** Facts about the host that are not transcript state (they are not reduced, only replaced). */
export interface HostInfo {
  readonly agentNames: readonly string[];
  readonly selectedAgent?: string;
  readonly workspaceTrusted: boolean;
  /** Why the composer cannot send right now (no agent configured, untrusted workspace...), if so. */
  readonly blockedReason?: string;
  /** An agent being installed from the ACP registry right now (see install-status.ts for where it shows). */
  readonly install?: InstallProgress;
}

export type HostToWebviewMessage =
  /**
   * The whole transcript of the conversation this view shows. A new `conversationId` means another conversation is
   * shown: the view starts afresh, with `draft` (the host's copy) unless it kept its own for that conversation.
   */
  | {
      readonly type: 'snapshot';
      readonly seq: number;
      readonly state: TranscriptState;
      readonly conversationId: string;
      readonly draft: string;
      /**
       * A long transcript comes in parts, so no one message costs the webview a long task to receive: `state.pages`
       * holds the newest pages (with `entryCount` theirs and `state.positions` nothing), enough to draw the bottom
       * of the conversation at once; this many `snapshot_part` messages bring the older pages and the positions,
       * before any other action.
       */
      readonly partsToFollow?: number;
    }
  /** Older pages (they go before those received so far) and position buckets of the snapshot being sent (see `partsToFollow`). */
  | {
      readonly type: 'snapshot_part';
      readonly pages: readonly (readonly Entry[])[];
      readonly positions: TranscriptState['positions'];
    }
  | { readonly type: 'actions'; readonly firstSeq: number; readonly actions: readonly TranscriptAction[] }
  | { readonly type: 'host_info'; readonly info: HostInfo }
  | { readonly type: 'focus_composer' }
  /** The host could not accept the user's prompt; the webview keeps the draft and shows why. */
  | { readonly type: 'prompt_rejected'; readonly reason: string }
  /** "Add to ACP Chat": attach these to the draft, then answer `attachments_taken` (until then the host re-sends). */
  | { readonly type: 'add_attachments'; readonly batch: number; readonly attachments: readonly Attachment[] }
  /** The answer to `find_files`: workspace files matching what follows `@`, best first. */
  | { readonly type: 'file_matches'; readonly requestId: number; readonly matches: readonly FileMatch[] };

/** A workspace file offered by `@` completion. */
export interface FileMatch {
  readonly uri: string;
  /** Path relative to its workspace folder. */
  readonly label: string;
}

export type WebviewToHostMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'resync' }
  /**
   * The view has drawn (and painted) the conversation up to action `seq` (a snapshot's number counts): the host's
   * flow control (src/views/action-poster.ts) posts the next batch of streamed chunks only once it has.
   */
  | { readonly type: 'drawn'; readonly conversationId: string; readonly seq: number }
  | { readonly type: 'send_prompt'; readonly text: string; readonly attachments: readonly Attachment[] }
  | { readonly type: 'attachments_taken'; readonly batch: number }
  /** The draft's text, so it survives a reload and follows the conversation (sent after typing pauses). */
  | { readonly type: 'draft_changed'; readonly conversationId: string; readonly text: string }
  /** `@` completion: which workspace files match `query` (answered by `file_matches`). */
  | { readonly type: 'find_files'; readonly requestId: number; readonly query: string }
  | { readonly type: 'cancel_turn' }
  /** Take a queued prompt back before it is sent (to edit it in the composer, or drop it). */
  | { readonly type: 'remove_queued_prompt'; readonly id: string }
  /** Send a queued prompt into the running turn now (only offered where the agent supports steering). */
  | { readonly type: 'steer_queued_prompt'; readonly id: string }
  | { readonly type: 'permission_answer'; readonly requestId: string; readonly optionId: string }
  /** Accept (with the form's values, or: open the URL), decline or cancel an agent's question. */
  | {
      readonly type: 'elicitation_answer';
      readonly requestId: string;
      readonly action: 'accept' | 'decline' | 'cancel';
      readonly values?: Readonly<Record<string, string | number | boolean | readonly string[]>>;
    }
  | { readonly type: 'open_diff'; readonly toolCallId: string; readonly contentIndex: number; readonly fileIndex: number }
  | { readonly type: 'open_location'; readonly path: string; readonly line?: number }
  /** A turn's change set (see ChangeSetEntry): open one file's diff, or all in the multi-file diff editor. */
  | { readonly type: 'open_change'; readonly turnId: string; readonly path: string }
  | { readonly type: 'review_changes'; readonly turnId: string }
  /** Keep (clear from review) or undo one file of a turn's change set, or every pending file when `path` is absent. */
  | { readonly type: 'keep_changes'; readonly turnId: string; readonly path?: string }
  | { readonly type: 'undo_changes'; readonly turnId: string; readonly path?: string }
  /** "Restore to here" on the user message that started `turnId`: a preview, then the workspace rewinds. */
  | { readonly type: 'restore_checkpoint'; readonly turnId: string }
  /** Show a terminal the agent runs in a VS Code terminal (its output so far, then live). */
  | { readonly type: 'open_terminal'; readonly terminalId: string }
  /** Stop an agent-owned (v2) terminal that the agent says may be cancelled. */
  | { readonly type: 'cancel_terminal'; readonly terminalId: string }
  | { readonly type: 'restart_agent' }
  | { readonly type: 'stop_agent' }
  /** An agent not responding while it starts: stop it and start again from scratch. */
  | { readonly type: 'retry_start' }
  /** The agent refused a session until the user signs in: pick one of its sign-in methods. */
  | { readonly type: 'sign_in' }
  | { readonly type: 'new_session' }
  | { readonly type: 'select_agent' }
  /** The empty state's ways out: the registry, the settings, and VS Code's workspace trust. */
  | { readonly type: 'add_agent' }
  /** Stop the registry install the chat shows (the same as the progress notification's Cancel). */
  | { readonly type: 'cancel_install' }
  | { readonly type: 'configure_agents' }
  | { readonly type: 'manage_trust' }
  | { readonly type: 'show_log' }
  | { readonly type: 'set_mode'; readonly modeId: string }
  | { readonly type: 'set_config_option'; readonly configId: string; readonly value: string | boolean };
