/**
 * Messages between the extension host and the chat webview. The host is the source of truth: it sends a
 * snapshot, then numbered actions; the webview reduces them with the same reducer, drops stale numbers and asks
 * for a resync on a gap. Webview -> host messages are validated with zod on arrival (src/views/webview-messages.ts).
 */
import type { TranscriptAction } from './actions';
import type { TranscriptState } from './model';

/** Facts about the host that are not transcript state (they are not reduced, only replaced). */
export interface HostInfo {
  readonly agentNames: readonly string[];
  readonly selectedAgent?: string;
  readonly workspaceTrusted: boolean;
  /** Why the composer cannot send right now (no agent configured, untrusted workspace...), if so. */
  readonly blockedReason?: string;
}

export type HostToWebviewMessage =
  | { readonly type: 'snapshot'; readonly seq: number; readonly state: TranscriptState }
  | { readonly type: 'actions'; readonly firstSeq: number; readonly actions: readonly TranscriptAction[] }
  | { readonly type: 'host_info'; readonly info: HostInfo }
  | { readonly type: 'focus_composer' }
  /** The host could not accept the user's prompt; the webview keeps the draft and shows why. */
  | { readonly type: 'prompt_rejected'; readonly reason: string };

export type WebviewToHostMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'resync' }
  | { readonly type: 'send_prompt'; readonly text: string }
  | { readonly type: 'cancel_turn' }
  | { readonly type: 'permission_answer'; readonly requestId: string; readonly optionId: string }
  | { readonly type: 'open_diff'; readonly toolCallId: string; readonly contentIndex: number; readonly fileIndex: number }
  | { readonly type: 'open_location'; readonly path: string; readonly line?: number }
  /** Show a terminal the agent runs in a VS Code terminal (its output so far, then live). */
  | { readonly type: 'open_terminal'; readonly terminalId: string }
  | { readonly type: 'restart_agent' }
  | { readonly type: 'stop_agent' }
  | { readonly type: 'new_session' }
  | { readonly type: 'select_agent' }
  | { readonly type: 'show_log' }
  | { readonly type: 'set_mode'; readonly modeId: string }
  | { readonly type: 'set_config_option'; readonly configId: string; readonly value: string | boolean };

export type WebviewToHostType = WebviewToHostMessage['type'];
