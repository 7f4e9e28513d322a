/**
 * `session/update` payloads (v1 stable, v1 unstable, v2 draft) into the transcript's `SessionUpdate`. Lenient
 * like the reference implementations: unknown fields and `_meta` pass; an unknown kind yields no update and a
 * problem (the caller logs it once); a malformed optional field is dropped and reported, never the whole update;
 * a missing required field drops the update with a problem.
 */
import { z } from 'zod';
import type { NoticeSeverity } from '../../shared/model';
import type { AgentTerminalUpdate, SessionUpdate } from '../../shared/updates';
import { AGENT_TERMINAL_KINDS, parseAgentTerminalUpdate } from './agent-terminal-update';
import { parseContentBlock, parseContentBlocks, parseToolCallContent } from './content';
import {
  NON_EMPTY_STRING,
  NON_NEGATIVE,
  STRING,
  optionalField,
  patchField,
  parseCommands,
  parseConfigOptions,
  parsePlanBody,
  parsePlanItems,
  parseToolCallFields,
} from './session-update-fields';

export interface ParsedSessionUpdate {
  readonly update?: SessionUpdate;
  /** A v2 agent-owned terminal's state or output, for the host to decode (see agent-terminal-update.ts). */
  readonly terminal?: AgentTerminalUpdate;
  readonly problems: string[];
}

const COST = z.object({ amount: z.number(), currency: STRING });
const RPC_ERROR = z.object({ code: z.number().int(), message: STRING });
const SEVERITIES: readonly NoticeSeverity[] = ['info', 'warning', 'error'];

/** `version`: the ACP version spoken, where it changes a field's meaning (v2 `null` clears tool call fields). */
export function parseSessionUpdate(raw: unknown, version: 1 | 2 = 1): ParsedSessionUpdate {
  const problems: string[] = [];
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { problems: ['session update is not an object'] };
  const fields = raw as Record<string, unknown>;
  const kind = fields['sessionUpdate'];
  if (typeof kind !== 'string') return { problems: ['session update without a sessionUpdate kind'] };
  if (AGENT_TERMINAL_KINDS.includes(kind)) {
    const terminal = parseAgentTerminalUpdate(kind, fields, problems);
    return terminal ? { terminal, problems } : { problems };
  }
  const update = parseKnown(kind, fields, problems, version);
  const terminal = update && (kind === 'tool_call' || kind === 'tool_call_update') ? zedTerminalMeta(fields['_meta']) : undefined;
  if (!update) return { problems };
  return terminal ? { update, terminal, problems } : { update, problems };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Zed's terminal extension (claude-code-acp and others): a tool call shows a terminal the client never created,
 * its output in `_meta.terminal_output {terminal_id, data}` (text) and its end in `_meta.terminal_exit
 * {terminal_id, exit_code, signal}`. Read as the v2 agent-owned terminal updates they amount to, so the card's
 * terminal shows the command's output and exit instead of an empty box running for ever.
 */
function zedTerminalMeta(meta: unknown): AgentTerminalUpdate | undefined {
  if (!isRecord(meta)) return undefined;
  const output = meta['terminal_output'];
  if (isRecord(output) && typeof output['terminal_id'] === 'string' && typeof output['data'] === 'string')
    return {
      kind: 'terminal_output_chunk',
      terminalId: output['terminal_id'],
      data: Buffer.from(output['data'], 'utf8').toString('base64'),
    };
  const exit = meta['terminal_exit'];
  if (isRecord(exit) && typeof exit['terminal_id'] === 'string') {
    const exitCode = typeof exit['exit_code'] === 'number' && Number.isInteger(exit['exit_code']) ? exit['exit_code'] : null;
    const signal = typeof exit['signal'] === 'string' ? exit['signal'] : null;
    return { kind: 'terminal_update', terminalId: exit['terminal_id'], exitStatus: { exitCode, signal } };
  }
  return undefined;
}

function parseKnown(kind: string, raw: Record<string, unknown>, problems: string[], version: 1 | 2): SessionUpdate | undefined {
  const required = <T>(key: string, schema: z.ZodType<T>): T | undefined => {
    const parsed = schema.safeParse(raw[key]);
    if (parsed.success) return parsed.data;
    problems.push(`${kind} dropped: "${key}" is missing or malformed`);
    return undefined;
  };
  const messageId = optionalField(raw, 'messageId', STRING, problems);

  switch (kind) {
    case 'user_message_chunk':
    case 'agent_message_chunk':
    case 'agent_thought_chunk': {
      const content = parseContentBlock(raw['content'], problems);
      if (!content) return drop(kind, 'content', problems);
      return { sessionUpdate: kind, content, ...(messageId !== undefined ? { messageId } : {}) };
    }
    case 'user_message':
    case 'agent_message':
    case 'agent_thought': {
      if (messageId === undefined) return drop(kind, 'messageId', problems);
      if (!('content' in raw)) return { sessionUpdate: kind, messageId };
      const content = raw['content'] === null ? null : parseContentBlocks(raw['content'], problems);
      return { sessionUpdate: kind, messageId, content };
    }
    case 'tool_call':
    case 'tool_call_update': {
      const toolCallId = required('toolCallId', STRING);
      if (toolCallId === undefined) return undefined;
      return { sessionUpdate: kind, toolCallId, ...parseToolCallFields(raw, problems, version === 2 ? 'clear' : 'unchanged') };
    }
    case 'tool_call_content_chunk': {
      const toolCallId = required('toolCallId', STRING);
      const content = parseToolCallContent(raw['content'], problems);
      if (toolCallId === undefined || !content) return content ? undefined : drop(kind, 'content', problems);
      return { sessionUpdate: kind, toolCallId, content };
    }
    case 'plan':
      return { sessionUpdate: 'plan', entries: parsePlanItems(raw['entries'], problems) };
    case 'plan_update': {
      const plan = parsePlanBody(raw['plan'], problems);
      return plan && { sessionUpdate: 'plan_update', planId: plan.planId, body: plan.body };
    }
    case 'plan_removed': {
      const planId = optionalField(raw, 'planId', STRING, problems) ?? optionalField(raw, 'id', STRING, problems);
      return planId === undefined ? drop(kind, 'planId', problems) : { sessionUpdate: 'plan_removed', planId };
    }
    case 'available_commands_update':
      return { sessionUpdate: kind, availableCommands: parseCommands(raw['availableCommands'], problems) };
    case 'current_mode_update': {
      const currentModeId = required('currentModeId', STRING);
      return currentModeId === undefined ? undefined : { sessionUpdate: kind, currentModeId };
    }
    case 'config_option_update':
      return { sessionUpdate: kind, configOptions: parseConfigOptions(raw['configOptions'], problems) };
    case 'session_info_update': {
      const title = patchField(raw, 'title', STRING, problems);
      const updatedAt = patchField(raw, 'updatedAt', STRING, problems);
      return { sessionUpdate: kind, ...(title !== undefined ? { title } : {}), ...(updatedAt !== undefined ? { updatedAt } : {}) };
    }
    case 'usage_update': {
      const used = required('used', NON_NEGATIVE);
      const size = required('size', NON_NEGATIVE);
      if (used === undefined || size === undefined) return undefined;
      // Omitted leaves the last cost, null clears it (v2 spells this out; v1 says only "optional").
      const cost = patchField(raw, 'cost', COST, problems);
      return {
        sessionUpdate: kind,
        used,
        size,
        ...(cost !== undefined ? { cost: cost && { amount: cost.amount, currency: cost.currency } } : {}),
      };
    }
    case 'notice': {
      const title = required('title', NON_EMPTY_STRING);
      if (title === undefined) return undefined;
      const severityText = optionalField(raw, 'severity', STRING, problems);
      const severity = SEVERITIES.find((known) => known === severityText) ?? 'info';
      const description = optionalField(raw, 'description', STRING, problems);
      return { sessionUpdate: kind, severity, title, ...(description ? { description } : {}) };
    }
    case 'compaction_update': {
      const compactionId = required('compactionId', STRING);
      const status = required('status', STRING);
      if (compactionId === undefined || status === undefined) return undefined;
      const summary =
        raw['summary'] === null ? null : Array.isArray(raw['summary']) ? parseContentBlocks(raw['summary'], problems) : undefined;
      const error = patchField(raw, 'error', STRING, problems);
      return {
        sessionUpdate: kind,
        compactionId,
        status,
        ...(summary !== undefined ? { summary } : {}),
        ...(error !== undefined ? { error } : {}),
      };
    }
    case 'compaction_summary_chunk': {
      const compactionId = required('compactionId', STRING);
      const content = parseContentBlock(raw['content'], problems);
      if (compactionId === undefined || !content) return undefined;
      return { sessionUpdate: kind, compactionId, content };
    }
    case 'state_update': {
      const stateText = required('state', STRING);
      if (stateText === undefined) return undefined;
      const state = stateText === 'running' || stateText === 'requires_action' || stateText === 'idle' ? stateText : 'unknown';
      const stopReason = optionalField(raw, 'stopReason', STRING, problems);
      // v2 ErrorStopReason: stopReason "error" carries the failure as a JSON-RPC error object.
      const error = stopReason === 'error' ? optionalField(raw, 'error', RPC_ERROR, problems) : undefined;
      return {
        sessionUpdate: kind,
        state,
        ...(stopReason !== undefined ? { stopReason } : {}),
        ...(error ? { error: { code: error.code, message: error.message } } : {}),
      };
    }
    default:
      problems.push(`unknown session update kind "${kind}"`);
      return undefined;
  }
}

function drop(kind: string, field: string, problems: string[]): undefined {
  problems.push(`${kind} dropped: "${field}" is missing or malformed`);
  return undefined;
}
