/**
 * `session/update` payloads after validation (src/acp/schemas/session-update.ts turns wire JSON into these).
 * Names follow the wire. Fields that were malformed on the wire are absent here, never the whole update.
 * Covers v1 stable, v1 unstable and the v2 draft.
 */
import type { ContentBlock, JsonValue, ToolCallContent, ToolCallLocation } from './content';
import type { AvailableCommand, ConfigOption, NoticeSeverity, PlanEntry, PlanItem, ToolCallStatus, ToolKind, UsageInfo } from './model';

export type MessageChunkKind = 'user_message_chunk' | 'agent_message_chunk' | 'agent_thought_chunk';
export type MessageUpsertKind = 'user_message' | 'agent_message' | 'agent_thought';

/** Fields of a tool call that an update may carry; absent = unchanged. */
export interface ToolCallFields {
  readonly title?: string;
  readonly kind?: ToolKind;
  /** Wire statuses only (pending, in_progress, completed, failed; v2 also cancelled). */
  readonly status?: Extract<ToolCallStatus, 'pending' | 'in_progress' | 'paused' | 'completed' | 'failed' | 'cancelled'>;
  readonly content?: readonly ToolCallContent[];
  readonly locations?: readonly ToolCallLocation[];
  readonly rawInput?: JsonValue;
  readonly rawOutput?: JsonValue;
  /** v2 `null`: remove these (a JSON null value cannot say it, it is a value). */
  readonly cleared?: readonly ('rawInput' | 'rawOutput')[];
}

export type SessionUpdate =
  | { readonly sessionUpdate: MessageChunkKind; readonly content: ContentBlock; readonly messageId?: string }
  | {
      readonly sessionUpdate: MessageUpsertKind;
      readonly messageId: string;
      /** undefined = unchanged; null or [] = cleared; an array replaces everything. */
      readonly content?: readonly ContentBlock[] | null;
    }
  | ({ readonly sessionUpdate: 'tool_call'; readonly toolCallId: string } & ToolCallFields)
  | ({ readonly sessionUpdate: 'tool_call_update'; readonly toolCallId: string } & ToolCallFields)
  | { readonly sessionUpdate: 'tool_call_content_chunk'; readonly toolCallId: string; readonly content: ToolCallContent }
  /** v1 `plan`: replaces the whole (default) plan. */
  | { readonly sessionUpdate: 'plan'; readonly entries: readonly PlanItem[] }
  | { readonly sessionUpdate: 'plan_update'; readonly planId: string; readonly body: PlanEntry['body'] }
  | { readonly sessionUpdate: 'plan_removed'; readonly planId: string }
  | { readonly sessionUpdate: 'available_commands_update'; readonly availableCommands: readonly AvailableCommand[] }
  | { readonly sessionUpdate: 'current_mode_update'; readonly currentModeId: string }
  | { readonly sessionUpdate: 'config_option_update'; readonly configOptions: readonly ConfigOption[] }
  | { readonly sessionUpdate: 'session_info_update'; readonly title?: string | null; readonly updatedAt?: string | null }
  /** cost: undefined = unchanged, null = cleared. */
  | { readonly sessionUpdate: 'usage_update'; readonly used: number; readonly size: number; readonly cost?: UsageInfo['cost'] | null }
  | { readonly sessionUpdate: 'notice'; readonly severity: NoticeSeverity; readonly title: string; readonly description?: string }
  | {
      readonly sessionUpdate: 'compaction_update';
      readonly compactionId: string;
      readonly status: string;
      /** undefined = unchanged; null (or [] for summary) = cleared. */
      readonly summary?: readonly ContentBlock[] | null;
      readonly error?: string | null;
    }
  | { readonly sessionUpdate: 'compaction_summary_chunk'; readonly compactionId: string; readonly content: ContentBlock }
  | {
      readonly sessionUpdate: 'state_update';
      readonly state: 'running' | 'requires_action' | 'idle' | 'unknown';
      readonly stopReason?: string;
      /** With stopReason "error": the failure, as the agent reported it. */
      readonly error?: { readonly code: number; readonly message: string };
    };

export type SessionUpdateKind = SessionUpdate['sessionUpdate'];

/**
 * v2 agent-owned terminals as they come off the wire, output still base64: the host decodes them in arrival
 * order into terminal actions (they never reach the reducer as updates). Patch fields: undefined = unchanged,
 * null = cleared.
 */
export type AgentTerminalUpdate =
  | {
      readonly kind: 'terminal_update';
      readonly terminalId: string;
      readonly command?: string | null;
      /** base64: an authoritative replacement of all output so far. */
      readonly output?: string | null;
      readonly exitStatus?: { readonly exitCode: number | null; readonly signal: string | null } | null;
      /** The agent takes `terminal/cancel` for it now. */
      readonly cancellable?: boolean;
    }
  | { readonly kind: 'terminal_output_chunk'; readonly terminalId: string; /** base64 bytes appended */ readonly data: string };
