/**
 * Messages between the extension host and the chat webview. The host is the source of truth: it sends a
 * snapshot, then numbered actions; the webview reduces them with the same reducer, drops stale numbers and asks
 * for a resync on a gap. Webview -> host messages are validated with zod on arrival (src/views/webview-messages.ts).
 */
import type { TranscriptAction } from './actions';
import type { Attachment } from './attachments';
import type { ChatIntent, ViewMessage } from './chat-intents';
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
  /** Review comments not yet sent to the agent, by conversation id (the chat's "N review comments" above the composer). */
  readonly reviewComments?: Readonly<Record<string, number>>;
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
  /**
   * `postedAt`: when the host posted it (epoch ms), for the breakdown of the bench's write-to-paint line.
   * `heldChars`: characters of the last action's message that the host holds for its next posts (its backlog,
   * src/views/action-poster.ts), so the chat knows how far behind the stream it is.
   */
  | {
      readonly type: 'actions';
      readonly firstSeq: number;
      readonly actions: readonly TranscriptAction[];
      readonly postedAt?: number;
      readonly heldChars?: number;
    }
  | { readonly type: 'host_info'; readonly info: HostInfo }
  /**
   * `ifFocused`: only where the focus is in the chat's frame already (the chat loading must not take it from elsewhere).
   * `unlessPickerOpen`: not while the user is in the palette, a picker, a menu or a dialog (a command's focus lands a
   * moment after the command, and the user may have opened one since).
   */
  | { readonly type: 'focus_composer'; readonly ifFocused?: boolean; readonly unlessPickerOpen?: boolean }
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

/** Everything the webview posts: declared (with its schema) in chat-intents.ts. */
export type WebviewToHostMessage = ViewMessage | ChatIntent;
