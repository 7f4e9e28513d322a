/** Field parsers shared by the session-update kinds: tool call fields, plans, commands, modes, config options. */
import { z } from 'zod';
import type { AvailableCommand, ConfigOption, ConfigOptionValue, PlanEntry, PlanItem, ToolKind } from '../../shared/model';
import type { ToolCallFields } from '../../shared/updates';
import { firstIssue, parseLocations, parseToolCallContents } from './content';

const TOOL_KINDS: readonly ToolKind[] = ['read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other'];
const WIRE_STATUSES = ['pending', 'in_progress', 'paused', 'completed', 'failed', 'cancelled'] as const;
type WireStatus = (typeof WIRE_STATUSES)[number];

// Schemas are built once: zod compiles each on construction, which is far too slow per streamed update.
export const STRING = z.string();
export const NON_EMPTY_STRING = z.string().min(1);
export const NON_NEGATIVE = z.number().min(0);
const JSON_VALUE = z.json();
const PLAN_HEADER = z.object({ type: z.string(), planId: z.string().optional(), id: z.string().optional() }).loose();
// description and category are x-deserialize-default-on-error: a malformed one is dropped, the option kept.
const CONFIG_BASE = z
  .object({
    type: z.string(),
    name: z.string(),
    id: z.string().optional(),
    configId: z.string().optional(),
    description: z.string().nullish().catch(undefined),
    category: z.string().nullish().catch(undefined),
  })
  .loose();

/** Reads one optional field; a malformed value is dropped with a problem, never the whole update. */
export function optionalField<T>(raw: Record<string, unknown>, key: string, schema: z.ZodType<T>, problems: string[]): T | undefined {
  const value = raw[key];
  if (value === undefined || value === null) return undefined;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  problems.push(`dropped malformed "${key}": ${firstIssue(parsed.error)}`);
  return undefined;
}

/**
 * Reads a field with patch semantics: `null` when the agent cleared it, undefined when omitted (unchanged) or
 * malformed (dropped with a problem), else the value.
 */
export function patchField<T>(raw: Record<string, unknown>, key: string, schema: z.ZodType<T>, problems: string[]): T | null | undefined {
  return raw[key] === null ? null : optionalField(raw, key, schema, problems);
}

/**
 * `nulls`: what a `null` field means. v1: nothing (as if omitted). v2: patch semantics, `null` clears or resets
 * (title unset, kind `other`, status `pending`, collections emptied, raw input/output removed).
 */
export function parseToolCallFields(
  raw: Record<string, unknown>,
  problems: string[],
  nulls: 'unchanged' | 'clear' = 'unchanged',
): ToolCallFields {
  const title = optionalField(raw, 'title', STRING, problems);
  const kindText = optionalField(raw, 'kind', STRING, problems);
  // v2 ToolKind is open: an unknown kind shows as "other" rather than being dropped.
  const kind = kindText === undefined ? undefined : TOOL_KINDS.includes(kindText as ToolKind) ? (kindText as ToolKind) : 'other';
  const statusText = optionalField(raw, 'status', STRING, problems);
  let status: WireStatus | undefined;
  if (statusText !== undefined) {
    if ((WIRE_STATUSES as readonly string[]).includes(statusText)) status = statusText as WireStatus;
    else {
      // v2: "Clients treat a tool call with an unrecognized status as still in progress."
      status = 'in_progress';
      problems.push(`unknown tool call status "${statusText}" shown as in progress`);
    }
  }
  const fields: { -readonly [K in keyof ToolCallFields]: ToolCallFields[K] } = {};
  if (title !== undefined) fields.title = title;
  if (kind !== undefined) fields.kind = kind;
  if (status !== undefined) fields.status = status;
  if (Array.isArray(raw['content'])) fields.content = parseToolCallContents(raw['content'], problems);
  else if (raw['content'] !== undefined && raw['content'] !== null) problems.push('dropped malformed "content": not an array');
  if (Array.isArray(raw['locations'])) fields.locations = parseLocations(raw['locations'], problems);
  else if (raw['locations'] !== undefined && raw['locations'] !== null) problems.push('dropped malformed "locations": not an array');
  const rawInput = optionalField(raw, 'rawInput', JSON_VALUE, problems);
  if (rawInput !== undefined) fields.rawInput = rawInput;
  const rawOutput = optionalField(raw, 'rawOutput', JSON_VALUE, problems);
  if (rawOutput !== undefined) fields.rawOutput = rawOutput;
  if (nulls === 'clear') applyClearingNulls(raw, fields);
  return fields;
}

function applyClearingNulls(raw: Record<string, unknown>, fields: { -readonly [K in keyof ToolCallFields]: ToolCallFields[K] }): void {
  if (raw['title'] === null) fields.title = '';
  if (raw['kind'] === null) fields.kind = 'other';
  if (raw['status'] === null) fields.status = 'pending';
  if (raw['content'] === null) fields.content = [];
  if (raw['locations'] === null) fields.locations = [];
  const cleared = (['rawInput', 'rawOutput'] as const).filter((key) => raw[key] === null);
  if (cleared.length > 0) fields.cleared = cleared;
}

const planItem = z.object({
  content: z.string(),
  priority: z.enum(['high', 'medium', 'low']).catch('medium'),
  status: z.enum(['pending', 'in_progress', 'completed']).catch('pending'),
});

export function parsePlanItems(raw: unknown, problems: string[]): PlanItem[] {
  return parseEach(raw, planItem, 'plan entries', 'a plan entry', problems, (item) => item);
}

/**
 * An array the agent sends whose items are parsed one by one: a malformed item is dropped with a problem, never
 * the whole list; a value that is not an array is an empty list.
 */
function parseEach<S extends z.ZodType, T>(
  raw: unknown,
  schema: S,
  list: string,
  item: string,
  problems: string[],
  toModel: (parsed: z.infer<S>) => T,
): T[] {
  if (!Array.isArray(raw)) {
    problems.push(`${list} are not an array`);
    return [];
  }
  const parsed: T[] = [];
  for (const entry of raw) {
    const result = schema.safeParse(entry);
    if (result.success) parsed.push(toModel(result.data));
    else problems.push(`dropped ${item}: ${firstIssue(result.error)}`);
  }
  return parsed;
}

/** A `plan_update`'s plan: items, markdown or file; `id` or `planId` names it (drafts differ). */
export function parsePlanBody(raw: unknown, problems: string[]): { planId: string; body: PlanEntry['body'] } | undefined {
  const plan = PLAN_HEADER.safeParse(raw);
  if (!plan.success) {
    problems.push('plan_update without a typed plan');
    return undefined;
  }
  const planId = plan.data.planId ?? plan.data.id;
  if (planId === undefined) {
    problems.push('plan_update without a plan id');
    return undefined;
  }
  switch (plan.data.type) {
    case 'items':
      return { planId, body: { type: 'items', items: parsePlanItems(plan.data['entries'], problems) } };
    case 'markdown': {
      const content = plan.data['content'];
      return { planId, body: { type: 'markdown', markdown: typeof content === 'string' ? content : '' } };
    }
    case 'file': {
      const uri = plan.data['uri'] ?? plan.data['path'];
      return { planId, body: { type: 'file', path: typeof uri === 'string' ? uri : '' } };
    }
    default:
      problems.push(`unknown plan type "${plan.data.type}"`);
      return undefined;
  }
}

const command = z
  .object({
    name: z.string(),
    description: z.string().catch(''),
    input: z.object({ hint: z.string() }).loose().nullish().catch(undefined),
  })
  .loose();

export function parseCommands(raw: unknown, problems: string[]): AvailableCommand[] {
  return parseEach(raw, command, 'availableCommands', 'a command', problems, ({ name, description, input }) => ({
    name,
    description,
    ...(input?.hint ? { inputHint: input.hint } : {}),
  }));
}

const selectValue = z.object({ value: z.string(), name: z.string(), description: z.string().nullish().catch(undefined) }).loose();
const selectGroup = z.object({ name: z.string(), options: z.array(z.unknown()) }).loose();

/** Config options (v1 `id`, v2 `configId`); grouped select options are flattened. Unknown option types dropped. */
export function parseConfigOptions(raw: unknown, problems: string[]): ConfigOption[] {
  if (!Array.isArray(raw)) {
    problems.push('configOptions is not an array');
    return [];
  }
  const options: ConfigOption[] = [];
  for (const item of raw) {
    const base = CONFIG_BASE.safeParse(item);
    const id = base.success ? (base.data.id ?? base.data.configId) : undefined;
    if (!base.success || id === undefined) {
      problems.push('dropped a config option without id, name or type');
      continue;
    }
    const common = {
      id,
      name: base.data.name,
      ...(base.data.description ? { description: base.data.description } : {}),
      ...(base.data.category ? { category: base.data.category } : {}),
    };
    if (base.data.type === 'boolean' && typeof base.data['currentValue'] === 'boolean') {
      options.push({ ...common, type: 'boolean', currentValue: base.data['currentValue'], options: [] });
    } else if (base.data.type === 'select' && typeof base.data['currentValue'] === 'string') {
      options.push({
        ...common,
        type: 'select',
        currentValue: base.data['currentValue'],
        options: flattenSelectOptions(base.data['options']),
      });
    } else {
      problems.push(`dropped config option "${id}" of unsupported type "${base.data.type}"`);
    }
  }
  return options;
}

function flattenSelectOptions(raw: unknown): ConfigOptionValue[] {
  if (!Array.isArray(raw)) return [];
  const values: ConfigOptionValue[] = [];
  for (const item of raw) {
    const group = selectGroup.safeParse(item);
    const members = group.success && !('value' in (item as object)) ? group.data.options : [item];
    for (const member of members) {
      const value = selectValue.safeParse(member);
      if (value.success)
        values.push({
          value: value.data.value,
          name: value.data.name,
          ...(value.data.description ? { description: value.data.description } : {}),
        });
    }
  }
  return values;
}
