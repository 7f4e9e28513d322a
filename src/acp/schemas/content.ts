/**
 * Content blocks and tool call content from the wire, leniently: a block of an unknown type is kept as
 * `unknown` (v2 unions are open), a block missing what its type requires is dropped and reported.
 */
import { z } from 'zod';
import type { ContentBlock, DiffFile, JsonObject, ToolCallContent, ToolCallLocation } from '../../shared/content';

const jsonObject = z.record(z.string(), z.json());

// Optional fields are x-deserialize-default-on-error in the schema: a malformed one is dropped, the block kept.
const OPTIONAL_STRING = z.string().nullish().catch(undefined);
const textBlock = z.object({ type: z.literal('text'), text: z.string() });
const imageBlock = z.object({ type: z.literal('image'), data: z.string(), mimeType: z.string(), uri: OPTIONAL_STRING });
const audioBlock = z.object({ type: z.literal('audio'), data: z.string(), mimeType: z.string() });
const resourceLinkBlock = z.object({
  type: z.literal('resource_link'),
  uri: z.string(),
  name: z.string(),
  title: OPTIONAL_STRING,
  description: OPTIONAL_STRING,
  mimeType: OPTIONAL_STRING,
  size: z.number().nullish().catch(undefined),
});
const resourceBlock = z.object({
  type: z.literal('resource'),
  resource: z.object({ uri: z.string(), mimeType: OPTIONAL_STRING, text: z.string().optional(), blob: z.string().optional() }),
});

const BLOCK_SCHEMAS: Readonly<Record<string, z.ZodType<object>>> = {
  text: textBlock,
  image: imageBlock,
  audio: audioBlock,
  resource_link: resourceLinkBlock,
  resource: resourceBlock,
};

/** The `type` tag of a wire object, without building anything (this runs for every streamed chunk). */
function typeTag(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const type: unknown = (raw as { type?: unknown }).type;
  return typeof type === 'string' ? type : undefined;
}

export function parseContentBlock(raw: unknown, problems: string[]): ContentBlock | undefined {
  const type = typeTag(raw);
  if (type === undefined) {
    problems.push('content block without a type');
    return undefined;
  }
  const schema = Object.prototype.hasOwnProperty.call(BLOCK_SCHEMAS, type) ? BLOCK_SCHEMAS[type] : undefined;
  if (!schema) return { type: 'unknown', originalType: type, raw: asJsonObject(raw) };
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    problems.push(`malformed ${type} content block: ${firstIssue(parsed.error)}`);
    return undefined;
  }
  return withoutNulls(parsed.data) as ContentBlock;
}

/** Arrays keep their good items (the schema's x-deserialize-skip-invalid-items). */
export function parseContentBlocks(raw: unknown, problems: string[]): ContentBlock[] {
  if (!Array.isArray(raw)) return [];
  return raw.map((item) => parseContentBlock(item, problems)).filter((block): block is ContentBlock => block !== undefined);
}

const terminalContent = z.object({ terminalId: z.string() });
const wrappedContent = z.object({ content: z.unknown() });

export function parseToolCallContent(raw: unknown, problems: string[]): ToolCallContent | undefined {
  const type = typeTag(raw);
  if (type === undefined) {
    problems.push('tool call content without a type');
    return undefined;
  }
  switch (type) {
    case 'content': {
      const wrapped = wrappedContent.safeParse(raw);
      if (!wrapped.success) {
        problems.push('tool call content without its content block');
        return undefined;
      }
      const block = parseContentBlock(wrapped.data.content, problems);
      return block && { type: 'content', content: block };
    }
    case 'diff':
      return parseDiff(raw, problems);
    case 'terminal': {
      const terminal = terminalContent.safeParse(raw);
      if (terminal.success) return { type: 'terminal', terminalId: terminal.data.terminalId };
      problems.push('terminal content without a terminalId');
      return undefined;
    }
    default:
      return { type: 'unknown', originalType: type, raw: asJsonObject(raw) };
  }
}

export function parseToolCallContents(raw: unknown, problems: string[]): ToolCallContent[] {
  if (!Array.isArray(raw)) return [];
  return raw.map((item) => parseToolCallContent(item, problems)).filter((c): c is ToolCallContent => c !== undefined);
}

const v1Diff = z.object({ path: z.string(), oldText: z.string().nullish(), newText: z.string() });
const v2Change = z
  .object({ operation: z.string(), path: z.string().optional(), oldPath: z.string().optional(), newPath: z.string().optional() })
  .loose();
const v2Diff = z.object({
  changes: z.array(z.unknown()),
  patch: z.object({ text: z.string() }).loose().nullish().catch(undefined),
});

function parseDiff(raw: unknown, problems: string[]): ToolCallContent | undefined {
  const v1 = v1Diff.safeParse(raw);
  if (v1.success) {
    const { path, oldText, newText } = v1.data;
    const file: DiffFile = { path, oldText: oldText ?? null, newText, operation: oldText == null ? 'add' : 'modify' };
    return { type: 'diff', files: [file] };
  }
  const v2 = v2Diff.safeParse(raw);
  if (!v2.success) {
    problems.push('diff content with neither {path, newText} (v1) nor {changes} (v2)');
    return undefined;
  }
  const files: DiffFile[] = [];
  for (const change of v2.data.changes) {
    const parsed = v2Change.safeParse(change);
    const path = parsed.success ? (parsed.data.path ?? parsed.data.newPath) : undefined;
    if (!parsed.success || path === undefined) {
      problems.push('diff change without a path');
      continue;
    }
    files.push({ path, operation: parsed.data.operation, ...(parsed.data.oldPath ? { oldPath: parsed.data.oldPath } : {}) });
  }
  const patch = v2.data.patch?.text;
  return { type: 'diff', files, ...(patch !== undefined ? { patch } : {}) };
}

const location = z.object({ path: z.string(), line: z.unknown().optional() });
const LINE = z.number().int().min(0);

/** A malformed `line` is dropped, the location kept (the schema's x-deserialize-default-on-error). */
export function parseLocations(raw: unknown, problems: string[]): ToolCallLocation[] {
  if (!Array.isArray(raw)) return [];
  const locations: ToolCallLocation[] = [];
  for (const item of raw) {
    const parsed = location.safeParse(item);
    if (!parsed.success) {
      problems.push('tool call location without a path');
      continue;
    }
    const { path, line } = parsed.data;
    const goodLine = line === undefined || line === null ? undefined : LINE.safeParse(line);
    if (goodLine && !goodLine.success) problems.push(`dropped malformed line of location "${path}"`);
    locations.push(goodLine?.success ? { path, line: goodLine.data } : { path });
  }
  return locations;
}

function asJsonObject(raw: unknown): JsonObject {
  const parsed = jsonObject.safeParse(raw);
  return parsed.success ? (parsed.data as JsonObject) : {};
}

export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || 'value'}: ${issue.message}` : 'invalid';
}

/**
 * Optional wire fields may be null; the model uses absence. Every streamed chunk passes here, so the usual case
 * (nothing to drop) allocates nothing.
 */
function withoutNulls<T extends object>(value: T): T {
  const fields = value as Record<string, unknown>;
  let hasEmpty = false;
  for (const key in fields) if (fields[key] === null || fields[key] === undefined) hasEmpty = true;
  if (!hasEmpty) return value;
  const kept: Record<string, unknown> = {};
  for (const key in fields) if (fields[key] !== null && fields[key] !== undefined) kept[key] = fields[key];
  return kept as T;
}
