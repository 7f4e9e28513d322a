/**
 * The on-disk format of stored history, versioned as a whole. Every file starts with (or is) an envelope naming
 * its format and version; a reader refuses a version newer than it knows rather than misreading it.
 *
 * Layout under the history root:
 *   index.json                      the session list (HistoryIndexFile), rewritten atomically
 *   sessions/<id>/snapshot.json     reduced state up to action `seq` (SnapshotFile), rewritten atomically
 *   sessions/<id>/log-<gen>.ndjson  a header record, then one framed action record per line (record-framing.ts)
 * A new log generation starts whenever a writer opens the session or compacts it, so a writer never appends
 * after a torn record another process left behind.
 */
import { z } from 'zod';
import type { TranscriptAction } from '../shared/actions';
import type { TranscriptState } from '../shared/model';
import { isRecord, looksLikeEntry } from '../shared/shape-checks';

export const HISTORY_FORMAT_VERSION = 1;

export class HistoryVersionError extends Error {
  constructor(
    readonly file: string,
    readonly version: number,
  ) {
    super(
      `${file} was written by a newer version of the extension (history format ${version}; this version reads up to ${HISTORY_FORMAT_VERSION}). Update the extension to open it.`,
    );
    this.name = 'HistoryVersionError';
  }
}

/**
 * Only the shape the loader relies on is checked: these files are ours and their version says which reducer
 * wrote them; a deep schema of the whole transcript would cost more than the load it protects.
 */
function looksLikeState(value: unknown): value is TranscriptState {
  return (
    isRecord(value) &&
    Array.isArray(value['pages']) &&
    value['pages'].every((page) => Array.isArray(page) && page.every(looksLikeEntry)) &&
    Array.isArray(value['positions']) &&
    typeof value['entryCount'] === 'number' &&
    isRecord(value['turn']) &&
    isRecord(value['agent']) &&
    typeof value['nextLocalId'] === 'number'
  );
}

function looksLikeAction(value: unknown): value is TranscriptAction {
  return isRecord(value) && typeof value['type'] === 'string';
}

const versioned = z.object({ format: z.string(), version: z.number().int().positive() });

export const LOG_FORMAT = 'acp-client-history-log';
export const logHeaderSchema = versioned.extend({ format: z.literal(LOG_FORMAT), generation: z.number().int().nonnegative() });
export type LogHeader = z.infer<typeof logHeaderSchema>;

/** `s`: the action's sequence number in its session, strictly increasing; lets the loader skip what a snapshot holds. */
export const actionRecordSchema = z.object({ s: z.number().int().positive(), a: z.custom<TranscriptAction>(looksLikeAction) });
export type ActionRecord = z.infer<typeof actionRecordSchema>;

export const SNAPSHOT_FORMAT = 'acp-client-history-snapshot';
/**
 * A snapshot's key index (state.positions) is stored in this many buckets, the count every version so far has read
 * it with; the loader re-buckets it into what this version keeps in memory (shared/model.ts POSITION_BUCKETS).
 */
export const STORED_POSITION_BUCKETS = 64;
export const snapshotSchema = versioned.extend({
  format: z.literal(SNAPSHOT_FORMAT),
  /** The state holds every action up to and including this sequence number. */
  seq: z.number().int().nonnegative(),
  /** Entries dropped so far by the size cap (the state's first entry says so). */
  droppedEntries: z.number().int().nonnegative(),
  state: z.custom<TranscriptState>(looksLikeState),
});
export type SnapshotFile = z.infer<typeof snapshotSchema>;

export const sessionStatusSchema = z.enum(['idle', 'running', 'closed']);
/** idle: between turns; running: a turn was in progress at the last write (after a crash: interrupted); closed. */
export type SessionStatus = z.infer<typeof sessionStatusSchema>;

export const sessionSummarySchema = z.object({
  id: z.string().min(1),
  agentName: z.string(),
  title: z.string().optional(),
  firstPrompt: z.string().optional(),
  createdAt: z.number(),
  updatedAt: z.number(),
  /** The agent's own ACP session id, for `session/load` or `session/resume`. */
  agentSessionId: z.string().optional(),
  status: sessionStatusSchema,
  draft: z.string().optional(),
});
export type SessionSummary = z.infer<typeof sessionSummarySchema>;

export const INDEX_FORMAT = 'acp-client-history-index';
export const indexFileSchema = versioned.extend({ format: z.literal(INDEX_FORMAT), sessions: z.array(sessionSummarySchema) });

/**
 * Checks the envelope's version before its shape, so a newer file is refused as newer rather than as malformed.
 */
export function parseVersioned<T>(file: string, value: unknown, schema: z.ZodType<T>): T {
  const envelope = versioned.safeParse(value);
  if (envelope.success && envelope.data.version > HISTORY_FORMAT_VERSION) throw new HistoryVersionError(file, envelope.data.version);
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`${file} is not readable history: ${parsed.error.issues[0]?.message ?? 'bad shape'}`);
  return parsed.data;
}
