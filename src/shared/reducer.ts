/**
 * The one reducer, run by the host and by the webview: `reduce(state, action)` is pure and deterministic, and
 * returns the same object when nothing changed and new objects only along the changed path.
 */
import { applyHistoryCopied } from './transcript-fork';
import type { TranscriptAction } from './actions';
import type { CompactionEntry, ToolCallOrigin, TranscriptState } from './model';
import { appendEntry, entryAtPosition, positionOf, removeEntry, replaceEntry } from './pages';
import { adoptPromptMessageId, applyChunk, applyUpsert, appendBlock } from './reducer-messages';
import { patched } from './patch';
import { takeLocalId } from './reducer-ids';
import { activeTurnId } from './selectors';
import {
  appendToolContent,
  announceToolCall,
  applyToolFields,
  clientCardNamed,
  requestPermission,
  resolvePermission,
} from './reducer-tools';
import { applyTerminalAction, linkTerminals } from './reducer-terminals';
import { requestElicitation, resolveElicitation } from './reducer-elicitations';
import { cancelTurn, endTurn, startTurn, steerTurn } from './reducer-turns';
import type { SessionUpdate } from './updates';
import { assertNever } from './assert-never';
import { recordChangeSet } from './reducer-changes';

export function initialState(): TranscriptState {
  return {
    pages: [],
    positions: [],
    entryCount: 0,
    turn: { phase: 'idle' },
    agent: { phase: 'none' },
    commands: [],
    modes: undefined,
    configOptions: [],
    promptCapabilities: { image: false, audio: false, embeddedContext: false },
    promptMessageIds: {},
    terminals: {},
    nextLocalId: 1,
  };
}

export function reduce(state: TranscriptState, action: TranscriptAction): TranscriptState {
  // The client's own cards take no change from the agent (see clientCardNamed); the host logs what it ignored.
  if (clientCardNamed(state, action) !== undefined) return state;
  switch (action.type) {
    case 'session_update':
      return applyUpdate(state, action.update, action.origin);
    case 'prompt_sent':
      return startTurn(state, action.turnId, action.content);
    case 'prompt_accepted':
      return adoptPromptMessageId(state, action.turnId, action.messageId);
    case 'turn_ended':
      return endTurn(state, action.turnId, { type: 'stopped', stopReason: action.stopReason });
    case 'turn_failed':
      return endTurn(state, action.turnId, {
        type: 'error',
        message: action.message,
        ...(action.code !== undefined ? { code: action.code } : {}),
      });
    case 'cancel_requested':
      return cancelTurn(state, action.turnId, action.at);
    case 'permission_requested':
      return linkTerminals(
        requestPermission(state, action.requestId, action.toolCallId, action.toolCall, action.options, action.origin),
        action.toolCallId,
      );
    case 'terminal_started':
    case 'terminal_output':
    case 'terminal_exited':
    case 'terminal_released':
    case 'terminal_patched':
      return applyTerminalAction(state, action);
    case 'permission_resolved':
      return resolvePermission(state, action.requestId, action.outcome);
    case 'elicitation_requested':
      return requestElicitation(state, action.requestId, action.toolCallId, action.message, action.request);
    case 'elicitation_resolved':
      return resolveElicitation(state, action.requestId, action.outcome);
    case 'agent_status':
      return { ...state, agent: action.status };
    case 'session_started':
      return {
        ...state,
        sessionId: action.sessionId,
        sessionOpenedAt: state.entryCount,
        modes: action.modes,
        configOptions: action.configOptions ?? [],
        commands: action.availableCommands ?? [],
        promptCapabilities: action.promptCapabilities,
        ...(action.steering ? { steering: true as const } : {}),
      };
    case 'notice_added': {
      const [key, next] = takeLocalId(state, 'notice:');
      return appendEntry(next, {
        kind: 'notice',
        key,
        severity: action.severity,
        title: action.title,
        ...(action.detail !== undefined ? { detail: action.detail } : {}),
        ...(action.action !== undefined ? { action: action.action } : {}),
        ...(action.alternative !== undefined ? { alternative: action.alternative } : {}),
      });
    }
    case 'mode_set':
      return withCurrentMode(state, action.modeId);
    case 'config_options_set':
      return { ...state, configOptions: action.configOptions };
    case 'pickers_restated':
      // New objects with the same values: every view of the pickers redraws from what holds.
      return { ...state, modes: state.modes && { ...state.modes }, configOptions: [...state.configOptions] };
    case 'change_set_recorded':
      return recordChangeSet(state, action.turnId, action.origin, action.files, action.notes);
    case 'transcript_cleared': {
      const fresh = initialState();
      return { ...fresh, agent: state.agent, nextLocalId: state.nextLocalId };
    }
    case 'prompt_queued':
      return { ...state, queued: [...(state.queued ?? []), action.prompt] };
    case 'queued_prompt_removed': {
      const queued = state.queued ?? [];
      return queued.some((prompt) => prompt.id === action.id)
        ? { ...state, queued: queued.filter((prompt) => prompt.id !== action.id) }
        : state;
    }
    case 'prompt_steered':
      return steerTurn(state, action.turnId, action.steerId, action.content);
    case 'history_copied':
      return applyHistoryCopied(state, action);
    case 'title_set':
      return state.title === action.title ? state : { ...state, title: action.title };
    default:
      return assertNever(action);
  }
}

function withCurrentMode(state: TranscriptState, modeId: string): TranscriptState {
  return { ...state, modes: { current: modeId, available: state.modes?.available ?? [] } };
}

/** `origin`: set when the client updates a card of its own (editor-action-asker.ts); undefined for the agent's. */
function applyUpdate(state: TranscriptState, update: SessionUpdate, origin: ToolCallOrigin | undefined): TranscriptState {
  switch (update.sessionUpdate) {
    case 'user_message_chunk':
    case 'agent_message_chunk':
    case 'agent_thought_chunk':
      return applyChunk(state, update.sessionUpdate, update.content, update.messageId);
    case 'user_message':
    case 'agent_message':
    case 'agent_thought':
      return applyUpsert(state, update.sessionUpdate, update.messageId, update.content);
    case 'tool_call':
    case 'tool_call_update': {
      const { sessionUpdate: kind, toolCallId, ...fields } = update;
      const next =
        kind === 'tool_call' ? announceToolCall(state, toolCallId, fields, origin) : applyToolFields(state, toolCallId, fields, origin);
      return fields.content === undefined ? next : linkTerminals(next, toolCallId);
    }
    case 'tool_call_content_chunk': {
      const next = appendToolContent(state, update.toolCallId, update.content);
      return update.content.type === 'terminal' ? linkTerminals(next, update.toolCallId) : next;
    }
    case 'plan':
      // v1 has one plan, replaced whole. A plan sent in a later turn shows in that turn (the earlier one stays as
      // it was then) rather than changing an entry the user scrolled past long ago.
      return upsertPlan(state, 'default', { type: 'items', items: update.entries }, activeTurnId(state));
    case 'plan_update':
      return upsertPlan(state, update.planId, update.body);
    case 'plan_removed':
      return removeEntry(state, `plan:${update.planId}`);
    case 'available_commands_update':
      return { ...state, commands: update.availableCommands };
    case 'current_mode_update':
      return withCurrentMode(state, update.currentModeId);
    case 'config_option_update':
      return { ...state, configOptions: update.configOptions };
    case 'session_info_update':
      // Each field is a patch: omitted leaves it, null clears it, a string replaces it.
      return patchedSessionInfo(patchedSessionInfo(state, 'title', update.title), 'agentUpdatedAt', update.updatedAt);
    case 'usage_update': {
      const cost = patched(state.usage?.cost, update.cost);
      return { ...state, usage: { used: update.used, size: update.size, ...(cost ? { cost } : {}) } };
    }
    case 'notice': {
      const detail = update.description;
      return {
        ...state,
        banner: { severity: update.severity, title: update.title, ...(detail ? { detail } : {}), id: state.nextLocalId },
        nextLocalId: state.nextLocalId + 1,
      };
    }
    case 'compaction_update':
      return upsertCompaction(state, update.compactionId, ({ error: previous, ...entry }) => {
        const error = patched(previous, update.error);
        return {
          ...entry,
          status: update.status,
          ...(update.summary !== undefined ? { summary: update.summary ?? [] } : {}),
          ...(error ? { error } : {}),
        };
      });
    case 'compaction_summary_chunk':
      return upsertCompaction(state, update.compactionId, (entry) => ({ ...entry, summary: appendBlock(entry.summary, update.content) }));
    case 'state_update':
      return applyAgentState(state, update);
    default:
      return assertNever(update);
  }
}

/** `scope`: a turn the plan belongs to, for plans whose id is the same in every turn (v1's one plan). */
function upsertPlan(
  state: TranscriptState,
  planId: string,
  body: Extract<TranscriptState['pages'][number][number], { kind: 'plan' }>['body'],
  scope?: string,
): TranscriptState {
  const key = scope === undefined ? `plan:${planId}` : `plan:${planId}:${scope}`;
  const position = positionOf(state, key);
  const existing = position === undefined ? undefined : entryAtPosition(state, position);
  if (position !== undefined && existing?.kind === 'plan') return replaceEntry(state, position, { ...existing, body });
  const turnId = activeTurnId(state);
  return appendEntry(state, { kind: 'plan', key, planId, body, ...(turnId !== undefined ? { turnId } : {}) });
}

function upsertCompaction(
  state: TranscriptState,
  compactionId: string,
  change: (entry: CompactionEntry) => CompactionEntry,
): TranscriptState {
  const key = `compaction:${compactionId}`;
  const position = positionOf(state, key);
  const existing = position === undefined ? undefined : entryAtPosition(state, position);
  if (position !== undefined && existing?.kind === 'compaction') return replaceEntry(state, position, change(existing));
  return appendEntry(state, change({ kind: 'compaction', key, compactionId, status: 'in_progress', summary: [] }));
}

/**
 * v2 `state_update`: idle ends the current turn with its stop reason (stopReason "error" as a failed turn, with the
 * agent's error when it sent one); running with no turn is agent-initiated work.
 */
function applyAgentState(state: TranscriptState, update: Extract<SessionUpdate, { sessionUpdate: 'state_update' }>): TranscriptState {
  const { state: agentState, stopReason, error } = update;
  if (agentState === 'idle') {
    if (state.turn.phase === 'idle') return state;
    if (stopReason === 'error') {
      return endTurn(state, state.turn.turnId, {
        type: 'error',
        message: error?.message ?? 'The agent stopped with an error',
        ...(error ? { code: error.code } : {}),
      });
    }
    return endTurn(state, state.turn.turnId, { type: 'stopped', stopReason: stopReason ?? 'end_turn' });
  }
  if (agentState === 'running' && state.turn.phase === 'idle') {
    const [turnId, next] = takeLocalId(state, 'agent-turn-');
    return { ...next, turn: { phase: 'running', turnId } };
  }
  return state;
}

function patchedSessionInfo(state: TranscriptState, key: 'title' | 'agentUpdatedAt', value: string | null | undefined): TranscriptState {
  if (value === undefined) return state;
  if (value !== null) return { ...state, [key]: value };
  const { [key]: _cleared, ...rest } = state;
  return rest;
}
