/**
 * Tool calls: `tool_call` creates (or patches an existing id), `tool_call_update` patches the fields present
 * (content and locations replace whole arrays) and creates an unseen id (v2 has no `tool_call`),
 * `tool_call_content_chunk` appends one item. Permission requests and answers live on the call's entry.
 * A card the client made itself (`origin`) changes only by the client's own actions.
 */
import type { TranscriptAction } from './actions';
import type { ToolCallContent } from './content';
import type { Entry, PermissionOption, ToolCallEntry, ToolCallOrigin, ToolCallStatus, TranscriptState } from './model';
import { appendEntry, entryAtPosition, positionOf, replaceEntry } from './pages';
import { activeTurnId, toolCallEntry, toolKey } from './selectors';
import { admitToolCall, toolContentIsFull, withinToolContentLimit } from './reducer-limits';
import type { ToolCallFields } from './updates';

const DEFAULT_TOOL_TITLE = 'Tool call';

const FINISHED: readonly ToolCallStatus[] = ['completed', 'failed', 'rejected', 'cancelled'];

export function isFinished(status: ToolCallStatus): boolean {
  return FINISHED.includes(status);
}

/** `origin`: the client's own action, which makes (or keeps) the card the client's (see ToolCallOrigin). */
function patch(entry: ToolCallEntry, fields: ToolCallFields, origin?: ToolCallOrigin): ToolCallEntry {
  const next: { -readonly [K in keyof ToolCallEntry]: ToolCallEntry[K] } = { ...entry };
  if (origin !== undefined) next.origin = origin;
  if (fields.title !== undefined) next.title = fields.title;
  if (fields.kind !== undefined) next.toolKind = fields.kind;
  if (fields.status !== undefined) next.status = fields.status;
  if (fields.content !== undefined) next.content = withinToolContentLimit(fields.content);
  if (fields.locations !== undefined) next.locations = fields.locations;
  if (fields.rawInput !== undefined) next.rawInput = fields.rawInput;
  if (fields.rawOutput !== undefined) next.rawOutput = fields.rawOutput;
  if (fields.cleared?.includes('rawInput')) delete next.rawInput;
  if (fields.cleared?.includes('rawOutput')) delete next.rawOutput;
  return next;
}

function created(state: TranscriptState, toolCallId: string): ToolCallEntry {
  const turnId = activeTurnId(state);
  return {
    kind: 'tool_call',
    key: toolKey(toolCallId),
    toolCallId,
    title: DEFAULT_TOOL_TITLE,
    toolKind: 'other',
    status: 'pending',
    content: [],
    locations: [],
    ...(turnId !== undefined ? { turnId } : {}),
  };
}

/**
 * Finds the call, creating it when unseen (within the turn's tool call limit unless `always`: a permission request
 * must show), and replaces it with `change(call)`.
 */
function upsertToolCall(
  state: TranscriptState,
  toolCallId: string,
  change: (call: ToolCallEntry) => ToolCallEntry,
  always = false,
): TranscriptState {
  const position = positionOf(state, toolKey(toolCallId));
  const existing = position === undefined ? undefined : entryAtPosition(state, position);
  if (position !== undefined && existing?.kind === 'tool_call') return replaceEntry(state, position, change(existing));
  const admission = always ? { admitted: true, state } : admitToolCall(state);
  if (!admission.admitted) return admission.state;
  return appendEntry(admission.state, change(created(admission.state, toolCallId)));
}

/**
 * The client's card that an agent's action names, if any: the reducer ignores that action. The card's Allow runs an
 * editor action the client described on it, so an agent that learnt or guessed its id must not be able to retitle
 * it ("Read README.md" over "Run task deploy-prod"), replace its content or put its own question on it.
 * An action with an `origin` is the client's own and passes.
 */
export function clientCardNamed(state: TranscriptState, action: TranscriptAction): string | undefined {
  const toolCallId = toolCallNamedByAgent(action);
  return toolCallId !== undefined && toolCallEntry(state, toolCallId)?.origin !== undefined ? toolCallId : undefined;
}

/** The tool call an action of the agent's (no `origin`) would create or change, if any; no state needed. */
export function toolCallNamedByAgent(action: TranscriptAction): string | undefined {
  if (action.type === 'permission_requested') return action.origin === undefined ? action.toolCallId : undefined;
  if (action.type !== 'session_update' || action.origin !== undefined) return undefined;
  const { update } = action;
  switch (update.sessionUpdate) {
    case 'tool_call':
    case 'tool_call_update':
    case 'tool_call_content_chunk':
      return update.toolCallId;
    default:
      return undefined;
  }
}

export function applyToolFields(
  state: TranscriptState,
  toolCallId: string,
  fields: ToolCallFields,
  origin?: ToolCallOrigin,
): TranscriptState {
  return upsertToolCall(state, toolCallId, (call) => patch(call, fields, origin));
}

/**
 * A `tool_call` for an id the transcript already has: agents repeat the announcement (Copilot CLI replays, others
 * re-send with a better title) or send it after an update that got there first. Its fields are the latest facts,
 * except a status going back to pending or in progress within the same turn: a finished call stays finished.
 */
export function announceToolCall(
  state: TranscriptState,
  toolCallId: string,
  fields: ToolCallFields,
  origin?: ToolCallOrigin,
): TranscriptState {
  const turnNow = activeTurnId(state);
  return upsertToolCall(state, toolCallId, (call) => {
    // An agent that numbers its calls per turn reuses an id in a later turn: there it is a new call, live again.
    const sameTurn = turnNow === undefined || call.turnId === turnNow;
    const regresses = sameTurn && fields.status !== undefined && isFinished(call.status) && !isFinished(fields.status);
    if (!regresses) return patch(call, fields, origin);
    const { status: _stale, ...rest } = fields;
    return patch(call, rest, origin);
  });
}

export function appendToolContent(state: TranscriptState, toolCallId: string, content: ToolCallContent): TranscriptState {
  return upsertToolCall(state, toolCallId, (call) =>
    toolContentIsFull(call.content) ? call : { ...call, content: withinToolContentLimit([...call.content, content]) },
  );
}

export function requestPermission(
  state: TranscriptState,
  requestId: string,
  toolCallId: string,
  fields: ToolCallFields,
  options: readonly PermissionOption[],
  origin?: ToolCallOrigin,
): TranscriptState {
  return upsertToolCall(
    state,
    toolCallId,
    (call) => {
      const { status: _ignored, ...rest } = fields;
      const patched = patch(call, rest, origin);
      const { permissionOutcome: _previous, ...withoutOutcome } = patched;
      return { ...withoutOutcome, status: 'awaiting_permission', permission: { requestId, options } };
    },
    true,
  );
}

export function resolvePermission(
  state: TranscriptState,
  requestId: string,
  outcome: { readonly optionId: string } | 'cancelled',
): TranscriptState {
  // Pending permissions are few and recent: search from the end.
  for (let position = state.entryCount - 1; position >= 0; position--) {
    const entry = entryAtPosition(state, position);
    if (entry?.kind !== 'tool_call' || entry.permission?.requestId !== requestId) continue;
    return replaceEntry(state, position, settled(entry, outcome));
  }
  return state;
}

function settled(entry: ToolCallEntry, outcome: { readonly optionId: string } | 'cancelled'): Entry {
  const { permission, ...rest } = entry;
  if (outcome === 'cancelled')
    return { ...rest, status: isFinished(entry.status) ? entry.status : 'cancelled', permissionOutcome: 'cancelled' };
  const option = permission?.options.find((candidate) => candidate.optionId === outcome.optionId);
  const allowed = option ? option.kind.startsWith('allow') : true;
  const status: ToolCallStatus = allowed ? (entry.status === 'awaiting_permission' ? 'in_progress' : entry.status) : 'rejected';
  return { ...rest, status, permissionOutcome: { optionId: outcome.optionId, name: option?.name ?? outcome.optionId } };
}
