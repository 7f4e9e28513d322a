/**
 * The change records of one conversation, persisted in workspace storage so review, undo and "Restore to here"
 * survive Reload Window. One small JSON file per conversation (states by hash; the content is in the store),
 * flushed and renamed into place so a crash leaves the previous version, never a torn one. A log that cannot be read
 * is never overwritten: it is kept aside under a `.corrupt-<time>` name and reported, and the conversation starts
 * a new log.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename } from 'node:fs/promises';
import * as path from 'node:path';
import { z } from 'zod';
import type { TurnChangeRecord } from './change-records';
import { writeFileDurably } from './durable-write';
import { errorMessage } from '../shared/error-text';

const state = z.union([
  z.object({ kind: z.literal('absent') }),
  z.object({ kind: z.literal('unknown') }),
  z.object({ kind: z.literal('file'), hash: z.string(), size: z.number(), stored: z.boolean(), binary: z.boolean() }),
]);
const logSchema = z.object({
  version: z.literal(1),
  turns: z.array(z.string()),
  records: z.array(
    z.object({
      turnId: z.string(),
      origin: z.enum(['turn', 'restore']),
      files: z.array(
        z.object({
          path: z.string(),
          before: state,
          after: state,
          origin: z.enum(['client', 'disk']),
          review: z.enum(['pending', 'kept', 'undone']),
          shared: z.boolean().optional(),
        }),
      ),
      rewound: z.array(z.object({ turnId: z.string(), path: z.string() })).optional(),
    }),
  ),
});

export interface StoredChanges {
  /** Every turn and restore in the order it ran (with or without changes): the checkpoints. */
  readonly turns: readonly string[];
  readonly records: readonly TurnChangeRecord[];
}

/** What loading found: the changes, and (when the log was unreadable) what happened to it, for the user. */
export interface LoadedChanges extends StoredChanges {
  readonly problem?: string;
}

export class ChangeLog {
  private writing: Promise<void> = Promise.resolve();
  /** Set when an unreadable log could not be moved aside: saving would overwrite it, so nothing is saved. */
  private frozen = false;
  private readonly file: string;

  constructor(
    private readonly dir: string,
    conversationId: string,
  ) {
    // The id is the caller's (any string): hashed, so it is always a safe file name.
    this.file = path.join(dir, `${createHash('sha256').update(conversationId).digest('hex').slice(0, 32)}.json`);
  }

  async load(): Promise<LoadedChanges> {
    const empty = { turns: [], records: [] };
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return empty;
      return { ...empty, problem: await this.setAside(`it could not be read (${errorMessage(error)})`) };
    }
    let reason: string;
    try {
      const parsed = logSchema.safeParse(JSON.parse(text));
      if (parsed.success) return parsed.data;
      reason = `it is not a change log this version understands (${parsed.error.issues[0]?.message ?? 'invalid'})`;
    } catch (error) {
      reason = `it is damaged (${errorMessage(error)})`;
    }
    return { ...empty, problem: await this.setAside(reason) };
  }

  /** Saves are queued: the last one written is the newest state. */
  save(changes: StoredChanges): Promise<void> {
    const json = JSON.stringify({ version: 1, turns: changes.turns, records: changes.records });
    this.writing = this.writing.then(async () => {
      if (this.frozen) return;
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      await writeFileDurably(this.file, json);
    });
    return this.writing;
  }

  private async setAside(reason: string): Promise<string> {
    const aside = `${this.file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    try {
      await rename(this.file, aside);
      return `The saved changes of this conversation could not be loaded: ${reason}. The file was kept as ${aside}; earlier turns cannot be undone or restored from here.`;
    } catch (error) {
      this.frozen = true;
      return `The saved changes of this conversation could not be loaded: ${reason}, and could not be moved aside (${errorMessage(error)}). They are left untouched at ${this.file}, and this conversation's changes are not saved until it is readable or removed.`;
    }
  }
}

function errorCode(error: unknown): unknown {
  return error instanceof Error && 'code' in error ? error.code : undefined;
}
